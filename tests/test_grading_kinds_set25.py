"""Kinds of answer the twenty-fifth blind set found misread (issue 40), each held both ways.

A right line of the kind passes, or at least is not failed; a wrong line of the same kind fails, naming why. The set
is spent (``bench/grading/fresh-2026-12-05n.json``): these lines are written anew, in the set's kinds.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


def _part_c(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # "8×32×32 is 16,384× less data": a ratio said of two shapes, not the product's result
    ("a3", "evidence", "~12 µs either way; going from 8×4096×4096 to 8×32×32 is 16,384× less data",
     "~12 µs either way; going from 8×4096×4096 to 8×32×32 is 1,000× less data", "16,384×"),
    # a time said out of reach is not a time said at the roof
    ("a5", "evidence", "62% of tensor peak. Max from tuning = 1/0.62 ≈ 1.6×, that is ~112 ms at 100% peak - still no"
                       " reach 80 ms.",
     "62% of tensor peak. Max from tuning = 1/0.62 ≈ 1.6×, that is ~80 ms at 100% peak.", "112 ms"),
    # a wider format, said in words the upcast lever's synonyms do not hold, is the upcast: it slows every regime
    ("a1", "helps", "Use FP8 on the tensor cores instead of fp16",
     "Run it in fp32 instead so the tensor cores get more work per byte.", "higher precision cannot move"),
    ("a2", "helps", "Fuse the chain with torch.compile", "Switch the chain to fp64 for accuracy",
     "higher precision cannot move"),
    # the GPU said to be kept flat out, where it idles 80% of the time
    ("a6", "regime", "Overhead-bound: the launches can't keep the card flat out",
     "Overhead-bound, because the kernels are keeping the card flat out and the host can't feed it any quicker",
     "not saturated"),
    # the extra time said to be the unchanged kernels' own work
    ("a7", "evidence", "The extra 6 ms (8 → 14 ms) is the host waiting on .item(); the kernels are unchanged.",
     "The extra 6 ms (8 → 14 ms) is attention reading a bigger KV cache every token.", "unchanged"),
]


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), PAIRS, ids=[p[3][:40] for p in PAIRS])
def test_a_kind_passes_right_and_fails_wrong(item: str, field: str, right: str, wrong: str, named: str) -> None:
    good, bad = _check(item, field, right), _check(item, field, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


# (a right paragraph, a wrong one of the same kind, the aspect, words the wrong one's feedback names)
PART_C_PAIRS = [
    # fusion said to get a compute-bound kernel "the rest of the way to peak"
    ("Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8× faster. For the A1 matmul at 70% of"
     " peak, putting the relu inside it won't get the rest of the way to peak: the math sets its time.",
     "Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8× faster. Even the A1 matmul at 70% of"
     " peak should be fused — putting the relu inside it gets the rest of the way to peak.", "fusion",
     "fusion cannot help A1"),
    # a Part B row given the ridge's figure
    ("Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8×. It can't help where the math does: A1"
     " at 70% of peak. Decode sits at about 1 FLOP/byte, far below the 156 ridge.",
     "Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8×. It can't help where the math does: A1"
     " at 70% of peak. Decode sits at about 156 FLOP/byte, right on the ridge.", "number", "is the ridge"),
    # a decode said to go "to well over" twice its rate under fusion
    ("Fusion pays for A2 (1.7 of 2.0 TB/s, compile 3.8× faster), not for A1 at 70% of peak. In A4, fusing attention"
     " would barely move decode from 38 tok/s: the weights are nearly all its bytes.",
     "Fusion pays for A2 (1.7 of 2.0 TB/s, compile 3.8× faster), not for A1 at 70% of peak. In A4, fusing attention"
     " into a faster kernel would take decode from 38 tok/s to well over 76 tok/s.", "fusion", "cannot speed A4 up much"),
]


@pytest.mark.parametrize(("right", "wrong", "aspect", "named"), PART_C_PAIRS, ids=[p[3] for p in PART_C_PAIRS])
def test_a_part_c_kind_is_not_failed_right_and_fails_wrong(right: str, wrong: str, aspect: str, named: str) -> None:
    good, bad = _part_c(right)[aspect], _part_c(wrong)[aspect]
    assert good["passed"] is not False, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


def test_a_row_named_after_its_figure_in_brackets_keeps_its_figure() -> None:
    checks = _part_c("Fusion pays for A2 at 1.7 of 2.0 TB/s and not for A1 at 70% of peak. The number that decides it"
                     " is intensity against the ridge: 0.33 FLOP/byte (the add) says 'fuse', ~1360 FLOP/byte (the"
                     " matmul) against a ridge of 156 says 'don't bother'.")
    assert checks["number"]["passed"] is True, checks["number"]
