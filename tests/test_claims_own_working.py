"""A number the incident does not give is accounted for by what the learner's own line says, and only so.

A right line's working is not marked wrong: that many of a figure counted in the same clause ("2 passes ≈ 1.07
GB"), a figure shared per item ("8.75 GB per token" for a batch of 8), a checked result said again in another
unit, an order of magnitude written as one ("~1e-8 s"), a multiplier that is the ratio of two of the line's own
times. Written arithmetic is held to the digits its result is written to: "14/8 = 1.5" is wrong where "14 / 300
≈ 0.05" is right. Each kind is held both ways.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.catalogue.levers import recognise
from regime_core.grading.claims import arithmetic_tolerance
from regime_core.grading.grade import grade

ANSWER = {"regime": "", "helps": "", "wastes": ""}


def _evidence(item: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, "evidence": text}}})["items"][item]["checks"]["evidence"]
    return check


# (incident, a right line, a wrong line of the same kind)
PAIRS = [
    # that many of a figure, counted in the claim's own clause
    ("a2", "1.7 of 2.0 TB/s. A pass is 537 MB; fused: 2 passes ≈ 1.07 GB",
     "1.7 of 2.0 TB/s. A pass is 537 MB; fused it moves ≈ 1.07 GB"),
    # a figure over one of the incident's counts, said per item
    ("a8", "70 GB read per step for a batch of 8: 8.75 GB of weight traffic per token",
     "70 GB read per step for a batch of 8: 8.75 GB of weights"),
    # a checked result said again in another unit, and a ratio of the line's own times
    ("a3", "Read and write at 4 B: 65,536 / 2e12 ≈ 3.3e-8 s = 0.033 µs; measured 12 µs is ~360× longer",
     "Read and write at 4 B: 65,536 / 2e12 ≈ 3.3e-8 s = 0.33 µs; measured 12 µs is ~360× longer"),
    ("a3", "12 µs per call, 1.08× from compile; the floor is 1.6e-8 s, and 12 µs is ~730× that",
     "12 µs per call, 1.08× from compile; the floor is 1.6e-8 s, and 12 µs is ~73× that"),
    # an order of magnitude written as one; the same figure a power of ten off is not one
    ("a3", "12 µs per call, 1.08× from compile; t_mem ~ 1e-8 s", "12 µs per call, 1.08× from compile; t_mem ~ 1e-2 s"),
    # written arithmetic to the digits its result is written to
    ("a7", "ITL went from 8 to 14 ms, 14/8 = 1.75x slower", "ITL went from 8 to 14 ms, that's 14/8 = 1.5x slower"),
]


@pytest.mark.parametrize(("item", "right", "wrong"), PAIRS)
def test_own_working_is_accounted_for_both_ways(item: str, right: str, wrong: str) -> None:
    assert _evidence(item, right)["passed"] is not False, _evidence(item, right)
    assert _evidence(item, wrong)["passed"] is not True, _evidence(item, wrong)


@pytest.mark.parametrize(("item", "right"), [(item, right) for item, right, _ in PAIRS])
def test_the_right_line_names_how_its_number_follows(item: str, right: str) -> None:
    marks = _evidence(item, right).get("claims", [])
    assert marks
    assert all(m["passed"] is True for m in marks), marks


@pytest.mark.parametrize(("written", "tolerance"), [
    ("1.5", 0.1 / 1.5), ("47", 1 / 47), ("0.05", 0.15), ("1,360", 0.02), ("2.5e-1", 0.04), ("3.3e-8 s", 0.1 / 3.3),
])
def test_arithmetic_is_held_to_the_digits_written(written: str, tolerance: float) -> None:
    assert arithmetic_tolerance(written) == pytest.approx(tolerance, rel=1e-6)


@pytest.mark.parametrize(("text", "levers"), [
    ("Loop fusion: one kernel that keeps the four ops in registers.", ["fusion"]),
    ("Fuse the chain so intermediates stay in registers.", ["fusion"]),
    ("Cut registers to raise occupancy.", ["raise_occupancy"]),
    ("Registers.", ["raise_occupancy"]),
])
def test_a_word_inside_a_longer_lever_phrase_is_that_phrase(text: str, levers: list[str]) -> None:
    assert recognise(text) == levers
