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
    # a quotient of the line's own quantities whose units make the claim's
    ("a2", "1.7 of 2.0 TB/s; ~4 FLOP × 1.34e8 ≈ 5.4e8 FLOP over 8 passes × 1.34e8 × 2 B ≈ 2.1e9 B: ≈ 2.5e-1 FLOP/B",
     "1.7 of 2.0 TB/s; ~4 FLOP × 1.34e8 ≈ 5.4e8 FLOP over 8 passes × 1.34e8 × 2 B ≈ 2.1e9 B: ≈ 2.5e-2 FLOP/B"),
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


# (incident, a right line, a wrong line of the same kind): arithmetic right as sums go, on figures in roles they do
# not have, and what a line says against the incident beyond its numbers.
ROLES = [
    # a share divides like by like
    ("a4", "14 GB at 300 GB/s: 14/300 ≈ 0.047 s, so 38 tok/s beats the 21 tok/s floor",
     "the L4 has 300 GB/s and we do 38 tok/s, so 38/300 = 13% of bandwidth used"),
    # a speed-up divides a time
    ("a3", "12 µs per call; compiled 12 / 1.08 = 11.1 µs", "12 µs per call; compiled 12 × 1.08 = 12.96 µs"),
    # a share of one roof times that roof's peak, not the other's
    ("a1", "70% of peak: 0.70 × 312 TFLOP/s ≈ 218 TFLOP/s achieved", "70% of peak: 0.70 × 2.0 TB/s = 1.4 TB/s of traffic"),
    # a time said as what a speed-up saves
    ("a3", "12 µs per call, 1.08× from compile: it saves about 0.9 µs", "12 µs per call: compile is 12 µs faster (1.08×)"),
    # the evidence's conclusion names the regime it argues for
    ("a3", "12 µs per call and compile buys only 1.08×, so it must be launch overhead",
     "12 µs per call and compile barely helps (1.08×), so it isn't memory; must be compute"),
    # fusion said to cut FLOPs in the evidence, as in Part C
    ("a2", "85% of peak bandwidth; compile fuses the chain and removes round trips, hence the 3.8×",
     "85% of peak bandwidth; compile fuses the chain and reduces the FLOPs from four per element to one, hence 3.8×"),
    # the incident's own measurement called unreal, where nothing in it is beyond a roof
    ("a2", "85% of peak bandwidth, and the 3.8× is what deleting the round trips buys",
     "85% of peak bandwidth, so at most 1.18× is left: the reported 3.8× cannot be real"),
]


@pytest.mark.parametrize(("item", "right", "wrong"), ROLES)
def test_roles_and_conclusions_are_checked_both_ways(item: str, right: str, wrong: str) -> None:
    assert _evidence(item, right)["passed"] is not False, _evidence(item, right)
    assert _evidence(item, wrong)["passed"] is False, _evidence(item, wrong)


@pytest.mark.parametrize("line", [
    "12 µs per call, and compile's 1.08× saves about 0.9 µs of it",  # what the speed-up saves: 12 − 12/1.08
    "12 µs per call; compiled is only 8% faster (1.08×)",  # the speed-up as a percent, quoted from the verdict
])
def test_what_a_speed_up_saves_is_accounted_for(line: str) -> None:
    check = _evidence("a3", line)
    assert check["passed"] is True, check


@pytest.mark.parametrize("text", [
    "Any work on the matmul or attention kernels.", "Touching the matmul or attention kernels.", "Make kernels faster.",
    "Réoptimiser les noyaux matmul/attention.", "Matmul/attention kernels tune karna.", "Tocar los kernels.",
    "don't touch the GEMMs",
])
def test_kernel_work_in_many_words_is_the_kernel_rewrite_lever(text: str) -> None:
    assert recognise(text) == ["rewrite_kernel"]


# (incident, a right line, a wrong line of the same kind): what a figure is said to be, and how it is written.
SAID = [
    # a figure said to be some regime's cost is checked against the incident's regime
    ("a3", "12 µs per call and compile bought 1.08×: the 12 µs is launch time", "12 µs per call: the 12 µs is arithmetic time"),
    ("a6", "2 µs on, 8 µs off, 40,000 of them is a lot of launches", "2 µs on, 8 µs off, 40,000 of them is a lot of traffic"),
    # occupancy measures no roof (Rule 4), said in words
    ("a8", "70 GB read every step, HBM saturated; the 55% occupancy measures resident warps, not bandwidth",
     "70 GB read every step, HBM saturated; occupancy tells you how much of the bandwidth is in use"),
    # a rate worked out beyond the card's roof
    ("a2", "1.7 of 2.0 TB/s: 1.7 / 2.0 = 85% of peak bandwidth", "3.8x faster, so it must pull 3.8 × 1.7 = 6.46 TB/s"),
    # a unit conversion and a dot for thousands are how a number is written, not slips
    ("a6", "2 µs on, 8 µs off: 40,000 × 10 µs = 400,000 µs, and 1,000 µs = 1 ms, so 400 ms",
     "2 µs on, 8 µs off: 40,000 × 10 µs = 400,000 µs, and 1,000 µs = 1 ms, so 40 ms"),
    ("a4", "7 billion × 2 bytes = 14 GB; at 300 GB/s that is about 47 ms a token",
     "7 billion × 1 byte = 14 GB; at 300 GB/s that is about 47 ms a token"),
    ("a6", "2 µs of work then 8 µs of nothing, repeat 40k times: 40.000 launches × 10 µs ≈ 400 ms",
     "2 µs of work and 8 µs of nothing: 40.000 launches × 10 µs ≈ 40 ms"),
]


@pytest.mark.parametrize(("item", "right", "wrong"), SAID)
def test_what_a_figure_is_said_to_be_both_ways(item: str, right: str, wrong: str) -> None:
    assert _evidence(item, right)["passed"] is True, _evidence(item, right)
    assert _evidence(item, wrong)["passed"] is False, _evidence(item, wrong)


def test_a_rate_beyond_the_roof_is_the_reading_where_the_incident_measures_one() -> None:
    # A4's 38 tok/s is beyond its card's floor: working that out is the anomaly read, not a slip.
    check = _evidence("a4", "14 GB at 300 GB/s: 38 tok/s × 14 GB = 532 GB/s, beyond the L4's 300 GB/s")
    assert check["passed"] is not False, check
