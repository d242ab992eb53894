"""The timeline's merged intervals kept as two arrays of doubles (``timeline.Intervals``): read back as pairs, and
a picket fence's busy intervals and gaps kept at a fraction of what a list of pairs took."""

from __future__ import annotations

import math
import random
import tracemalloc

import pytest

from regime_core.trace.events import Events, GpuSpan
from regime_core.trace.timeline import Intervals, intersection, timeline, union


def test_intervals_read_back_as_pairs_and_compare_with_lists() -> None:
    merged = union([(4.0, 5.0), (0.0, 1.0), (0.5, 2.0)])
    assert isinstance(merged, Intervals)
    assert list(merged) == [(0.0, 2.0), (4.0, 5.0)]
    assert merged[1] == (4.0, 5.0)
    assert merged[-1] == (4.0, 5.0)
    assert merged[1:] == [(4.0, 5.0)]
    assert isinstance(merged[1:], Intervals)
    assert merged == union([(4.0, 5.0), (0.0, 2.0)])
    assert merged != [(0.0, 2.0)]
    assert merged.where(lambda a, b: a > 1) == [(4.0, 5.0)]
    assert intersection(merged, union([(1.0, 4.5)])) == [(1.0, 2.0), (4.0, 4.5)]
    with pytest.raises(TypeError):
        hash(merged)


def test_the_covered_time_is_summed_length_by_length_so_far_from_zero() -> None:
    """A million kernels of 2⁻²⁰ s (about 1 µs) on a clock 2²⁰ s (twelve days) old, every time exact in binary:
    each length first, or the sums of the starts and of the ends (about 10¹² s) round away the very
    microseconds being counted."""
    offset, length = 2.0**20, 2.0**-20
    spans = Intervals()
    for n in range(1_000_000):
        spans.starts.append(offset + n * 2 * length)
        spans.ends.append(offset + n * 2 * length + length)
    assert spans.total() == 1_000_000 * length
    assert math.fsum(spans.ends) - math.fsum(spans.starts) != 1_000_000 * length  # the way not taken


def test_a_picket_fence_keeps_its_busy_intervals_and_gaps_in_under_40_bytes_a_kernel() -> None:
    """50,000 kernels, each alone between two gaps: the union and the gaps as arrays, 24 bytes a kernel (a list of
    pairs and a tuple of gaps took some 140)."""
    gpu = tuple(GpuSpan("k", n * 10e-6, n * 10e-6 + 2e-6) for n in range(50_000))
    events = Events(gpu, (), 0, (), (), (), (), ())
    tracemalloc.start()
    try:
        tl = timeline(events)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(tl.other_spans) == 50_000
    assert len(tl.gaps) == 49_999
    assert tl.busy == pytest.approx(0.1)
    assert kept / 50_000 < 40, kept / 50_000


def _merged_one_by_one(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union the plain way: sort, then walk the spans, growing the last interval or opening a new one."""
    out: list[list[float]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]


@pytest.mark.parametrize("seed", range(6))
def test_the_union_is_the_one_a_walk_over_the_spans_makes(seed: int) -> None:
    """Nested, touching, empty and equal-start spans, many kinds at once: the union worked in C (a running maximum
    of the ends, an interval opened where a start passes it) is the walk's, pair for pair."""
    rng = random.Random(seed)
    spans = []
    for _ in range(2_000):
        start = float(rng.randrange(0, 3_000))
        spans.append((start, start + rng.choice((0.0, 0.5, 1.0, 2.0, float(rng.randrange(0, 40))))))
    spans += [(10.0, 12.0), (12.0, 13.0), (5.0, 5.0)]  # touching, and an empty span
    assert list(union(spans)) == _merged_one_by_one(spans)
    gpu = tuple(GpuSpan("k", a, b, "kernel", "0", "7", None, None, False) for a, b in sorted(spans))
    tl = timeline(Events(gpu, (), 0, (), (), (), (), ()))
    assert tl.busy == math.fsum(b - a for a, b in _merged_one_by_one(spans))
    assert tl.kernels == len(spans)
    assert union([]) == []
    assert list(union([(1.0, 2.0)])) == [(1.0, 2.0)]
