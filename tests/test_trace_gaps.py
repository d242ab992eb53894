"""A trace's gaps are unequal: the reading says their mean as a mean, beside their median, and decides launch
overhead from a GPU waiting on something else by where the idle time lies, not by the mean or the count.

HTA's sampled trace (930 gaps, 427 of them launch-sized, a mean of 726 µs and a median of 64 µs) read "gaps of
726 µs are far longer than a launch": a mean said as every gap's length.
"""

from __future__ import annotations

from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes


def _timeline(gaps: list[float], kernel: float = 2.0) -> bytes:
    t, at = Trace(), 100.0
    for gap in gaps:
        t.kernel(at, kernel)
        at += kernel + gap
    t.kernel(at, kernel)
    return as_bytes(t.document())


def test_a_few_long_gaps_among_many_short_ones_are_a_wait_on_something_else() -> None:
    reading = read_trace(_timeline([10.0] * 90 + [20_000.0] * 3))  # most gaps launch-sized, most idle in three
    line = reading.verdict.evidence[0]
    assert "of gap on average (median 10 µs)" in line
    assert "% of the idle time is in gaps longer than a launch (50 µs), so the GPU waits on something else" in line
    assert "gaps of" not in line  # no mean said as every gap's length


def test_many_short_gaps_hold_the_idle_time_even_where_a_few_long_ones_raise_the_mean() -> None:
    reading = read_trace(_timeline([40.0] * 95 + [1_800.0] * 2))  # a mean of 76 µs, 51% of the idle in short gaps
    line = reading.verdict.evidence[0]
    assert "of the idle time is in launch-sized gaps (50 µs or less): the launches set the pace" in line
    assert reading.symptoms["observed"]["gap_time"] > 50e-6
    assert reading.verdict.regime == "overhead"


def test_equal_gaps_are_said_as_one_length() -> None:
    line = read_trace(_timeline([8.0] * 50)).verdict.evidence[0]
    assert line.startswith("timeline: 2 µs of kernel, 8 µs of gap: the GPU idles 80% of the time")
