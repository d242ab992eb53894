"""What an evidence line states in words beside its figures: read, or named as not checked.

Each reading is held both ways: a right line whose statement one reading accounts for passes, and the same line with
a statement nothing reads (said wrongly of the incident, in words no contradiction pattern knows) is could-not-tell,
quoting that statement, never a pass. Labels, questions, conditions and a resource named without anything said of it
state nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _evidence(item: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, "evidence": text}}})["items"][item]["checks"]["evidence"]
    return check


# (incident, a right line with a statement a reading accounts for, the same figures with one nothing reads, its words)
PAIRS = [
    # a limit said of the incident's limit (relation ``limit``)
    ("a8", "70 GB read every step; HBM saturated", "70 GB read every step; the weights are pushed near compute",
     "pushed near"),
    # a resource denied where the incident's relation says it does not hold the time (``not_limit``)
    ("a7", "8 → 14 ms a token; the GPU is idle while the host waits", "8 → 14 ms a token; so it's a bandwidth hit",
     "bandwidth hit"),
    # the incident's unchanged part said unchanged (``unchanged``)
    ("a7", "8 → 14 ms a token; nothing changed in the kernels", "8 → 14 ms a token; the kernels got reshuffled",
     "reshuffled"),
    # the side of the ridge the incident's facts give
    ("a4", "14 GB / 300 GB/s ≈ 47 ms a token; its intensity sits far left of the ridge",
     "14 GB / 300 GB/s ≈ 47 ms a token; its intensity sits hard by the ridge", "hard by the ridge"),
    # a regime denied by name, or ruled out
    ("a1", "70% of peak TFLOP/s; memory-bound is ruled out", "70% of peak TFLOP/s; the DRAM is gasping",
     "DRAM is gasping"),
    # one of the incident's true statements (drill.json ``grading.statements``)
    ("a2", "85% of peak bandwidth (1.7 of 2.0 TB/s); compile does one read", "85% of peak bandwidth (1.7 of 2.0 TB/s);"
     " compile shrinks the arithmetic", "shrinks the arithmetic"),
    # the regime described by what holds it
    ("a7", "8 → 14 ms a token; the host sits blocked every token", "8 → 14 ms a token; the attention kernels crawl",
     "kernels crawl"),
]


@pytest.mark.parametrize(("item", "right", "wrong", "named"), PAIRS)
def test_a_statement_read_passes_and_one_unread_is_named(item: str, right: str, wrong: str, named: str) -> None:
    good, bad = _evidence(item, right), _evidence(item, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is None, bad
    assert "not checked" in bad["why"], bad["why"]
    assert named in bad["why"], bad["why"]


@pytest.mark.parametrize(("item", "text"), [
    ("a6", "kernel_us: 2\ngap_us: 8\ngpu_busy_pct: 20"),  # labels before their figures
    ("a6", "2 µs of kernel then 8 µs of nothing, 40,000 times (400 ms): what is the GPU doing most of the time?"),
    ("a3", "~12 µs both ways, eager and compiled: launch-scale"),  # resources named, nothing said of them
    ("a8", "HBM saturated, so raising occupancy won't pull more bytes per second"),  # a prediction: the levers' to judge
    ("a1", "70% of peak TFLOP/s; if it were memory-bound fusing would pay"),  # a condition
    ("a6", "2 µs on, 8 off: tuning the kernels, the best any fix of them can do is 1.25×"),  # a task named
])
def test_what_states_nothing_of_the_incident_is_not_held_against_a_line(item: str, text: str) -> None:
    check = _evidence(item, text)
    assert check["passed"] is True, check


def test_a_statement_alone_does_not_make_a_line_cite() -> None:
    """A statement read is accounted for, not evidence: without a deciding figure or fact the line still cannot pass."""
    check = _evidence("a2", "compile does one read")
    assert check["passed"] is not True, check
