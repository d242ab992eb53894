"""What the GPU did over the trace's window: busy share, the gaps between its work, host syncs, collectives.

The window runs from the first GPU activity to the last. Busy is the union of every kernel, copy and
memset on every stream and device (overlapping work counts once), so busy plus idle is the window.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, compress, islice
from operator import eq, gt
from typing import overload

from regime_core.trace.columns import values_of
from regime_core.trace.events import Call, CpuOp, Events, GpuSpan, Span

_BEFORE = (-1).__add__  # the index before

#: A gap at most this long is launch-sized: the GPU waits for the next launch, not for something else.
LAUNCH_GAP = 50e-6


class Intervals(Sequence[tuple[float, float]]):
    """Merged, sorted intervals, kept as two arrays of doubles: their starts and their ends.

    16 bytes an interval where a list of pairs costs some 100: a picket fence of millions of kernels has as
    many busy intervals and gaps as kernels. Read back as ``(start, end)`` pairs.
    """

    __slots__ = ("ends", "starts")

    def __init__(self, starts: array[float] | None = None, ends: array[float] | None = None) -> None:
        self.starts = array("d") if starts is None else starts
        self.ends = array("d") if ends is None else ends

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> tuple[float, float]: ...
    @overload
    def __getitem__(self, index: slice) -> Intervals: ...
    def __getitem__(self, index: int | slice) -> tuple[float, float] | Intervals:
        if isinstance(index, slice):
            return Intervals(self.starts[index], self.ends[index])
        return self.starts[index], self.ends[index]

    def __iter__(self) -> Iterator[tuple[float, float]]:
        return zip(self.starts, self.ends, strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Intervals):
            return self.starts == other.starts and self.ends == other.ends
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list is

    def __repr__(self) -> str:
        return f"Intervals({list(self)!r})"

    def total(self) -> float:
        """The seconds the intervals cover (correctly rounded: the page and the command line agree to the digit)."""
        return math.fsum(map(float.__sub__, self.ends, self.starts))  # each length first: no cancellation

    def where(self, keep: Callable[[float, float], bool]) -> Intervals:
        """The intervals for which ``keep(start, end)`` holds."""
        out = Intervals()
        starts, ends = out.starts.append, out.ends.append
        for start, end in zip(self.starts, self.ends, strict=True):
            if keep(start, end):
                starts(start)
                ends(end)
        return out


def union(spans: Iterable[tuple[float, float]]) -> Intervals:
    """Intervals merged where they overlap or touch, sorted."""
    pairs = sorted(spans)
    if not pairs:
        return Intervals()
    starts, ends = zip(*pairs, strict=True)
    return _merged(array("d", starts), array("d", ends))


def _merged(starts: array[float], ends: array[float]) -> Intervals:
    """Intervals given as their starts (in order) and their ends, merged where they overlap or touch.

    In C throughout, where a loop took a Python step per span (a trace has a million kernels, and in the browser
    a step costs more than the work in it): the latest end so far is a running maximum, and a merged interval
    opens wherever a start lies past it and closes at the running maximum just before the next opening.
    """
    if not starts:
        return Intervals()
    reach = array("d", accumulate(ends, max))
    opens = list(compress(range(1, len(starts)), map(gt, islice(starts, 1, None), reach)))
    merged_starts = array("d", [starts[0]])
    merged_starts.extend(map(starts.__getitem__, opens))
    merged_ends = array("d", map(reach.__getitem__, map(_BEFORE, opens)))
    merged_ends.append(reach[-1])
    return Intervals(merged_starts, merged_ends)


def _union_of(spans: Sequence[Span | GpuSpan | Call | CpuOp]) -> Intervals:
    """The union of spans already sorted by their starts (as Events keeps them): no pairs made, no sort."""
    return _merged(array("d", values_of(spans, 1)), array("d", values_of(spans, 2)))


def coverage(intervals: Intervals, windows: Iterable[tuple[float, float]]) -> list[float]:
    """How much of each window the merged, sorted ``intervals`` cover.

    The windows come in order and do not overlap (gaps, a strip's columns), so one sweep serves them all:
    linear in both, where asking window by window went over the intervals again each time.
    """
    if not intervals:  # most traces: no sync or loader wait to lay over the gaps
        return [0.0 for _ in windows]
    starts, ends = intervals.starts, intervals.ends
    out: list[float] = []
    first, count = 0, len(starts)
    for start, end in windows:
        while first < count and ends[first] <= start:
            first += 1  # over before this window, so before every later one
        total, at = 0.0, first
        while at < count and starts[at] < end:
            a, b = starts[at], ends[at]
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
    gaps: Sequence[float]  # idle stretches between GPU work, in order (an array of doubles)
    sync_idle: float  # idle time that falls inside a host sync on the CPU
    comm_exposed: float  # collective kernel time not overlapped by other GPU work
    loader_idle: float  # idle time that falls inside a data-loader wait
    # The merged intervals the strip is drawn from (not facts: kept out of comparisons and reprs).
    other_spans: Intervals = field(default_factory=Intervals, repr=False, compare=False)  # not collectives
    comm_spans: Intervals = field(default_factory=Intervals, repr=False, compare=False)  # collectives

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
        return sum(map(LAUNCH_GAP.__ge__, self.gaps))  # in C: a picket fence has a million gaps


def intersection(a: Intervals, b: Intervals) -> Intervals:
    """Where two merged, sorted interval lists overlap, as a merged, sorted list (one sweep)."""
    out = Intervals()
    a_starts, a_ends, b_starts, b_ends = a.starts, a.ends, b.starts, b.ends
    i = j = 0
    while i < len(a_starts) and j < len(b_starts):
        lo, hi = max(a_starts[i], b_starts[j]), min(a_ends[i], b_ends[j])
        if hi > lo:
            out.starts.append(lo)
            out.ends.append(hi)
        if a_ends[i] < b_ends[j]:
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


def _overlap(idle: Intervals, spans: Sequence[Span | Call | CpuOp]) -> float:
    return math.fsum(coverage(_union_of(spans), idle)) if spans else 0.0  # seconds: a float even when no gap


def _gpu_union(spans: Sequence[GpuSpan]) -> tuple[Intervals, int, bool, bool]:
    """GPU spans sorted by start: their union, kernels, whether a collective ran, whether any is empty.

    An empty span (one that lasted no time) may stand alone in the union, where it would split a gap in
    two. Each fact is a pass in C over the columns it needs: a trace has hundreds of thousands of spans, and in
    the browser a Python step per span costs more than the work done in it.
    """
    starts, ends = array("d", values_of(spans, 1)), array("d", values_of(spans, 2))  # columns read alone
    is_kernel = list(map("kernel".__eq__, values_of(spans, 3)))
    comm = any(compress(values_of(spans, 8), is_kernel))
    return _merged(starts, ends), sum(is_kernel), comm, any(map(eq, starts, ends))


def timeline(events: Events, window: tuple[float, float] | None = None) -> Timeline:
    """The timeline of every GPU span, over ``window`` (default: first to last GPU activity)."""
    spans = events.gpu
    if window is not None:
        lo, hi = window
        spans = tuple(s for s in spans if s.end > lo and s.start < hi)
    busy_spans, kernels, comm_ran, empty = _gpu_union(spans)
    if window is None:
        window = (busy_spans.starts[0], busy_spans.ends[-1]) if busy_spans else (0.0, 0.0)
        clipped = busy_spans.where(lambda a, b: b > a) if empty else busy_spans  # all inside the window
    else:  # lo and hi are the window's, from above
        clipped = Intervals()
        for a, b in busy_spans:
            if min(b, hi) > max(a, lo):
                clipped.starts.append(max(a, lo))
                clipped.ends.append(min(b, hi))
    lo, hi = window
    idle = _idle(clipped, lo, hi)
    comm = union((s.start, s.end) for s in spans if s.kind == "kernel" and s.comm) if comm_ran else Intervals()
    # Most traces have no collective, and many nothing but kernels: their unions are the one above.
    other = union((s.start, s.end) for s in spans if not s.comm) if comm else busy_spans
    exposed = comm.total() - math.fsum(coverage(other, comm))
    # math.fsum, correctly rounded: the built-in sum of floats rounds otherwise from Python 3.12 on (the
    # browser's Python), and the page and the command line must agree to the last digit.
    gaps = array("d", map(float.__sub__, idle.ends, idle.starts))
    return Timeline(window, clipped.total(), kernels, gaps, _overlap(idle, events.syncs), exposed,
                    _overlap(idle, events.loader), other, comm)


def _idle(busy: Intervals, lo: float, hi: float) -> Intervals:
    """The stretches of the window ``lo``..``hi`` that no busy interval covers, in order."""
    idle = Intervals()
    if not busy:
        return idle
    starts, ends = idle.starts, idle.ends
    if busy.starts[0] > lo:
        starts.append(lo)
        ends.append(busy.starts[0])
    # One busy interval's end to the next's start, every one a gap: merged intervals neither touch nor overlap
    starts.extend(busy.ends[:-1])
    ends.extend(busy.starts[1:])
    if busy.ends[-1] < hi:
        starts.append(busy.ends[-1])
        ends.append(hi)
    return idle
