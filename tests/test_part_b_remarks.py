"""A Part B intensity written with a remark after it: how far from the ridge, or a fraction of the unit.

"≈ 1/3 flop per byte (about 470× below the ridge)" was read as 3 FLOP/byte (off by more than 25%), and
"0.33, about 470× under the ridge" could not be read at all; the remark is how far the kernel sits, checked on its
own, and "1/3 FLOP/byte" is a third. "1, just under the ridge" puts decode, 156× below, near it.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

ROWS = {"add": ("0.33", "below", "cut bytes"), "matmul": ("1356", "above", "faster math"),
        "decode": ("1", "below", "cut bytes")}


def _checks(ridge: str = "156", **rows: tuple[str, str, str]) -> dict[str, Any]:
    kernels = {name: dict(zip(("intensity", "side", "optimisation"), rows.get(name, row), strict=True))
               for name, row in ROWS.items()}
    checks: dict[str, Any] = grade({"part_b": {"ridge": ridge, "kernels": kernels}})["items"]["part_b"]["checks"]
    return checks


@pytest.mark.parametrize(("row", "intensity"), [
    ("add", "≈ 1/3 flop per byte (about 470× below the ridge)"),
    ("add", "0.33, about 470× under the ridge"),
    ("add", "0.33 (about 470× below the ridge)"),
    ("matmul", "1356 (8.7× the ridge)"),
    ("matmul", "≈ 1,360 (≈ 8.7× above)"),
    ("decode", "≈ 1 (156× below)"),
    # the working after the result, in brackets
    ("add", "0.334 (1.68e7 ÷ 5.03e7)"),
    ("matmul", "1356 (1.37e11 ÷ 1.01e8)"),
])
def test_an_intensity_with_how_far_it_sits_is_read_and_passes(row: str, intensity: str) -> None:
    side = ROWS[row][1]
    check = _checks(**{row: (intensity, side, ROWS[row][2])})[row]
    assert check["passed"] is True, check


@pytest.mark.parametrize(("row", "intensity", "named"), [
    ("add", "0.33 (about 47× below the ridge)", "is not how far it sits from the ridge"),
    ("matmul", "1356 (87× the ridge)", "is not how far it sits from the ridge"),
    ("decode", "1, just under the ridge", "far from it"),
    ("decode", "1, slightly below the ridge", "far from it"),
    ("add", "0.0334 (1.68e7 ÷ 5.03e7)", "off by more than 25%"),
])
def test_a_wrong_how_far_or_near_the_ridge_fails(row: str, intensity: str, named: str) -> None:
    check = _checks(**{row: (intensity, ROWS[row][1], ROWS[row][2])})[row]
    assert check["passed"] is False, check
    assert named in check["why"], check["why"]


def test_a_ridge_with_a_decimal_comma_is_not_cut_as_a_remark() -> None:
    """"2,0 × 10¹²" is 2.0 TB/s written with a comma, not a how-far remark after 312 × 10¹² / 2."""
    assert _checks("312 × 10¹² / 2,0 × 10¹² = 156 FLOP/octet")["ridge"]["passed"] is True
