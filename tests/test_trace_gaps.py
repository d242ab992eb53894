"""What a trace reading says beside its verdict: the gaps' mean as a mean, and collectives that hold a quarter.

A trace's gaps are unequal: their mean is said beside their median, and launch overhead is told from a GPU waiting on
something else by where the idle time lies, not by the mean or the count. HTA's sampled trace (930 gaps, 427 of them
launch-sized, a mean of 726 µs and a median of 64 µs) read "gaps of 726 µs are far longer than a launch": a mean said
as every gap's length; its collectives no compute overlaps, 27.5% of the window, went unsaid.
"""

from __future__ import annotations

from regime_core.grading.review import trace_review
from regime_core.trace.reading import read_trace, text
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


def _idle_with_collectives() -> bytes:
    """Each 10 ms step: 1 ms of compute, a 3 ms all-reduce no compute overlaps, then 6 ms of nothing (the window
    ends with the last all-reduce: 60 of 194 ms)."""
    t = Trace()
    for n in range(20):
        start = 100 + n * 10_000
        t.kernel(start, 1000, "ampere_sgemm_128x64_nn")
        t.kernel(start + 1000, 3000, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                 stream=20)
    return as_bytes(t.document())


def test_exposed_collectives_of_a_quarter_of_the_window_are_said_beside_the_verdict_and_in_the_comment() -> None:
    reading = read_trace(_idle_with_collectives())
    assert reading.verdict.regime == "overhead"  # the GPU idles 60% of each step
    assert "collectives no compute overlaps hold 30.9% of the window" in reading.verdict.notes
    comment = trace_review(reading.verdict, reading.to_json()["trace"], "https://example.org/reference/traces/")
    assert "- **Also:** collectives no compute overlaps hold 30.9% of the window" in comment
    assert "collectives" not in read_trace(_timeline([8.0] * 50)).verdict.notes  # none: nothing said


def test_one_gap_that_holds_most_of_the_window_is_named_and_the_kernel_time_line_says_what_it_measures() -> None:
    reading = read_trace(_timeline([8.0] * 20 + [5_000_000.0] + [8.0] * 20))  # two bursts around a 5 s wait
    assert reading.verdict.regime == "overhead"
    assert "one gap of 5 s holds 100% of the window" in reading.verdict.notes
    assert "read one step (--step N)" in reading.verdict.notes
    assert {"label": "Also in the trace", "text": reading.verdict.notes} in reading.verdict.lines()  # not "from the source"
    facts = text(reading).splitlines()
    assert "the verdict is the timeline's, on the time no kernel runs" in next(
        line for line in facts if line.startswith("the kernels' time by their ops' regime"))
    assert "one gap of" not in read_trace(_timeline([8.0] * 50)).verdict.notes
