"""Part C read for what its numbers and clauses say: a drill number in another unit fails, a number from no part of
the drill is named as not checked, and two-sided arguments in plain words are read as two-sided."""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade


def _checks(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


BOTH = " and is wasted on A1 at 70% of peak FLOP/s, where the math sets the time."


@pytest.mark.parametrize(("paragraph", "passed"), [
    ("Fusion pays for A2, memory-bound at 1.7 TB/s of 2.0," + BOTH, True),
    ("Fusion pays for A2, memory-bound at 1.7 TFLOP/s of 2.0," + BOTH, False),
    ("Fusion pays when bytes set the time, as for our layernorm at 900 GB/s (2.5x)," + BOTH, None),
    ("Fusion pays where decode reads its weights at about 21 tok/s," + BOTH, True),  # A4's floor, rounded
])
def test_part_c_numbers_are_read_in_their_units(paragraph: str, passed: bool | None) -> None:
    number = _checks(paragraph)["number"]
    assert number["passed"] is passed, number


@pytest.mark.parametrize("paragraph", [
    "Fusion is right for A2, where 1.7 of 2.0 TB/s means bytes set the time and compile bought 3.8x. For A1, at 1365"
    " FLOP/byte, far above the 156 ridge, fusion removes bytes that are not the bottleneck.",
    "Write the fused kernel when the chain moves bytes for little math, like A2 at 85% of bandwidth (3.8x from"
    " compile); it is wrong for A1's matmul at 70% of peak tensor FLOP/s, whose time is set by arithmetic.",
    # "worth a week" is the week well spent; "don't … when the tensor pipe is the limiter"; "a costly mistake"
    "Fusion is worth a week when the kernel is waiting on memory: A2's chain moved 1.7 TB/s of 2.0. It is not worth"
    " a week when the arithmetic is the limit, as with a large matmul on tensor cores.",
    "Write the fused kernel when DRAM or launches are the limiter, as in A2 at 1.7 of 2.0 TB/s. Don't when the tensor"
    " pipe is the limiter: a fused relu epilogue saves bytes the kernel was never waiting on.",
    "Fusing pays off when the work waits on memory: A2 used 85% of the bandwidth and fusing made it 3.8x"
    " faster. It is a costly mistake when the work is limited by arithmetic: A1's matmul at 70% of peak.",
])
def test_two_sided_arguments_in_plain_words_are_two_sided(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is True


@pytest.mark.parametrize("paragraph", [
    "A fused kernel is always a waste: A1 is at 70% of peak and the tensor cores are the limit.",
    "Fusion always pays: A2 ran 3.8x faster under compile because fusion removes round trips.",
])
def test_one_sided_arguments_stay_one_sided(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is False
