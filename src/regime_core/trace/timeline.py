"""What the GPU did over the trace's window: busy share, the gaps between its work, host syncs, collectives.

The window runs from the first GPU activity to the last. Busy is the union of every kernel, copy and
memset on every stream and device (overlapping work counts once), so busy plus idle is the window.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from operator import itemgetter

from regime_core.trace.events import Call, CpuOp, Events, GpuSpan, Span

_START, _END = itemgetter(1), itemgetter(2)  # every span keeps its start and end second and third

#: A gap at most this long is launch-sized: the GPU waits for the next launch, not for something else.
LAUNCH_GAP = 50e-6


def union(spans: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Intervals merged where they overlap or touch, sorted."""
    return _merged(sorted(spans))


def _merged(spans: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Intervals already in order of their starts, merged where they overlap or touch."""
    merged: list[tuple[float, float]] = []
    last_start = last_end = 0.0
    for start, end in spans:
        if merged and start <= last_end:
            if end > last_end:
                last_end = end
                merged[-1] = (last_start, end)
        else:
            last_start, last_end = start, end
            merged.append((start, end))
    return merged


def _union_of(spans: Sequence[Span | GpuSpan | Call | CpuOp]) -> list[tuple[float, float]]:
    """The union of spans already sorted by their starts (as Events keeps them): no pairs made, no sort."""
    return _merged(zip(map(_START, spans), map(_END, spans), strict=True))


def coverage(intervals: Sequence[tuple[float, float]], windows: Iterable[tuple[float, float]]) -> list[float]:
    """How much of each window the merged, sorted ``intervals`` cover.

    The windows come in order and do not overlap (gaps, a strip's columns), so one sweep serves them all:
    linear in both, where asking window by window went over the intervals again each time.
    """
    if not intervals:  # most traces: no sync or loader wait to lay over the gaps
        return [0.0 for _ in windows]
    out: list[float] = []
    first, count = 0, len(intervals)
    for start, end in windows:
        while first < count and intervals[first][1] <= start:
            first += 1  # over before this window, so before every later one
        total, at = 0.0, first
        while at < count and intervals[at][0] < end:
            a, b = intervals[at]
            total += (b if b < end else end) - (a if a > start else start)  # min and max, without two calls each
            at += 1
        out.append(total)
    return out


@dataclass(frozen=True)
class Timeline:
    """The window's facts, in seconds and shares of the window."""

    window: tuple[float, float]
    busy: float  # seconds some GPU work ran
    kernels: int
    gaps: tuple[float, ...]  # idle stretches between GPU work, in order
    sync_idle: float  # idle time that falls inside a host sync on the CPU
    comm_exposed: float  # collective kernel time not overlapped by other GPU work
    loader_idle: float  # idle time that falls inside a data-loader wait
    # The merged intervals the strip is drawn from (not facts: kept out of comparisons and reprs).
    other_spans: list[tuple[float, float]] = field(default_factory=list, repr=False, compare=False)  # not collectives
    comm_spans: list[tuple[float, float]] = field(default_factory=list, repr=False, compare=False)  # collectives

    @property
    def length(self) -> float:
        """The window's length."""
        return self.window[1] - self.window[0]

    @property
    def busy_share(self) -> float:
        """Busy over the window (0..1)."""
        return self.busy / self.length if self.length > 0 else 1.0

    @property
    def launch_gaps(self) -> int:
        """Gaps no longer than a launch or two."""
        return sum(g <= LAUNCH_GAP for g in self.gaps)


def intersection(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Where two merged, sorted interval lists overlap, as a merged, sorted list (one sweep)."""
    out: list[tuple[float, float]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def exposed_in(tl: Timeline, windows: Sequence[tuple[float, float]]) -> list[float]:
    """Collective time not overlapped by other GPU work, in each of ``windows`` (in order, not overlapping)."""
    if not tl.comm_spans:
        return [0.0 for _ in windows]
    both = intersection(tl.comm_spans, tl.other_spans)
    return [c - o for c, o in zip(coverage(tl.comm_spans, windows), coverage(both, windows), strict=True)]


def _overlap(idle: Sequence[tuple[float, float]], spans: Sequence[Span | Call | CpuOp]) -> float:
    return math.fsum(coverage(_union_of(spans), idle)) if spans else 0.0  # seconds: a float even when no gap


def _gpu_union(spans: Sequence[GpuSpan]) -> tuple[list[tuple[float, float]], int, bool, bool]:
    """GPU spans sorted by start, in one pass: their union, kernels, whether a collective ran, whether any is empty.

    An empty span (one that lasted no time) may stand alone in the union, where it would split a gap in
    two. One pass, not one per fact: a trace has hundreds of thousands of spans, and in the browser a pass
    over them costs about as much as the work done in it.
    """
    kernels = 0
    comm = empty = False

    def intervals() -> Iterator[tuple[float, float]]:
        nonlocal kernels, comm, empty
        counted, collective_ran, zero = 0, False, False  # locals in the loop: cheaper than the enclosing names
        for _, start, end, kind, _, _, _, _, collective in spans:
            if kind == "kernel":
                counted += 1
                collective_ran = collective_ran or collective
            zero = zero or end == start
            yield start, end
        kernels, comm, empty = counted, collective_ran, zero

    merged = _merged(intervals())
    return merged, kernels, comm, empty


def timeline(events: Events, window: tuple[float, float] | None = None) -> Timeline:
    """The timeline of every GPU span, over ``window`` (default: first to last GPU activity)."""
    spans = events.gpu
    if window is not None:
        lo, hi = window
        spans = tuple(s for s in spans if s.end > lo and s.start < hi)
    busy_spans, kernels, comm_ran, empty = _gpu_union(spans)
    if window is None:
        window = (busy_spans[0][0], busy_spans[-1][1]) if busy_spans else (0.0, 0.0)
        clipped = [s for s in busy_spans if s[1] > s[0]] if empty else busy_spans  # all inside the window
    else:  # lo and hi are the window's, from above
        clipped = [(max(a, lo), min(b, hi)) for a, b in busy_spans if min(b, hi) > max(a, lo)]
    lo, hi = window
    idle = [(a[1], b[0]) for a, b in pairwise(clipped) if b[0] > a[1]]
    if clipped and clipped[0][0] > lo:
        idle.insert(0, (lo, clipped[0][0]))
    if clipped and clipped[-1][1] < hi:
        idle.append((clipped[-1][1], hi))
    comm = union((s.start, s.end) for s in spans if s.kind == "kernel" and s.comm) if comm_ran else []
    # Most traces have no collective, and many nothing but kernels: their unions are the one above.
    other = union((s.start, s.end) for s in spans if not s.comm) if comm else busy_spans
    exposed = math.fsum(b - a for a, b in comm) - math.fsum(coverage(other, comm))
    # math.fsum, correctly rounded: the built-in sum of floats rounds otherwise from Python 3.12 on (the
    # browser's Python), and the page and the command line must agree to the last digit.
    return Timeline(window, math.fsum(b - a for a, b in clipped), kernels,
                    tuple(b - a for a, b in idle), _overlap(idle, events.syncs), exposed,
                    _overlap(idle, events.loader), other, comm)
