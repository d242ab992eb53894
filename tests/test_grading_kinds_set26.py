"""Kinds of answer the twenty-sixth blind set found misread (issue 40), each held both ways.

A right line of the kind passes; a wrong line of the same kind does not. The set is spent
(``bench/grading/fresh-2026-12-05o.json``): these lines are written anew, in the set's kinds.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names or "")
PAIRS = [
    # a product said of each of the items named before it counts them ("A, B, C at 4096² × 2 bytes each")
    ("a1", "evidence", "70% of peak. Data: A, B, C at 4096^2 × 2 bytes each ≈ 100.7 MB",
     "70% of peak. Data: A, B, C at 4096^2 × 2 bytes each ≈ 33.6 MB", "not 33.6 MB"),
    ("a1", "evidence", "70% of peak. Data: A, B and C at 4096^2 × 2 bytes each ≈ 100.7 MB",
     "70% of peak. Data: 4096^2 × 2 bytes each ≈ 100.7 MB", "not 100.7 MB"),
    # the far end of a range whose near end is the incident's own figure, within a factor of 3 of it
    ("a2", "evidence", "85% of peak; intensity ≈ 0.125–0.25 FLOP/B", "85% of peak; intensity ≈ 0.125–25 FLOP/B", ""),
    # "nowhere near a ridge" puts the kernel far from it, on its own side
    ("a2", "evidence", "85% of peak; intensity ≈ 0.125 FLOP/B, nowhere near a ridge",
     "85% of peak; intensity ≈ 0.125 FLOP/B, right at the ridge", ""),
]


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), PAIRS, ids=[p[3][:40] for p in PAIRS])
def test_a_kind_passes_right_and_does_not_pass_wrong(item: str, field: str, right: str, wrong: str, named: str) -> None:
    good, bad = _check(item, field, right), _check(item, field, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is not True, bad
    assert named in bad["why"], bad["why"]


def _part_b(add_intensity: str) -> dict[str, Any]:
    attempt = {"ridge": "312 / 2.0 = 156 FLOP/byte", "kernels": {
        "add": {"intensity": add_intensity, "side": "below", "optimisation": "cut bytes"},
        "matmul": {"intensity": "1356 FLOP/B", "side": "above", "optimisation": "faster math"},
        "decode": {"intensity": "~1 FLOP/B", "side": "below", "optimisation": "cut bytes"}}}
    checks: dict[str, Any] = grade({"part_b": attempt})["items"]["part_b"]["checks"]
    return checks["add"]


def test_a_part_b_intensity_keeps_its_unit_against_working_beside_it() -> None:
    # a field that opens with an intensity in its unit is that intensity, whatever time is worked out beside it
    assert _part_b("0.33 FLOP/B (memory time ≈ 5.03e7 / 2e12 ≈ 25 µs)")["passed"] is True
    assert _part_b("3.3 FLOP/B (memory time ≈ 5.03e7 / 2e12 ≈ 25 µs)")["passed"] is False
    # a field whose working ends in an intensity is read for that result, as before
    assert _part_b("1.68e7/5.03e7 ≈ 0.33 FLOP/B")["passed"] is True
