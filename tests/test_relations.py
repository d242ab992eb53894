"""An incident's stated relations (drill.json ``grading.relations``), held to a line in any words.

Each kind is held both ways: a right line that says the relation, denies its opposite or puts it as a condition
passes, or at least is not failed on it; a wrong one that says the opposite fails, naming the relation. The data's
format is refused with its field when a relation names an unknown kind or entity.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.errors import RegimeError
from regime_core.grading.grade import grade
from regime_core.grading.relations import relations

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # faster, said the other way round
    ("a2", "evidence", "85% of peak bandwidth (1.7 of 2.0 TB/s); the eager chain becomes 3.8× faster once compiled.",
     "85% of peak bandwidth (1.7 of 2.0 TB/s); the eager version came out 3.8× faster than compile.",
     "3.8× faster than the eager chain"),
    # faster, as times: the faster side given the longer time
    ("a3", "evidence", "8,192 elements, tiny. Eager ~12 µs, and compiled is 1.08× faster, ~11.1 µs.",
     "8,192 elements, tiny. Eager ~12 µs, and compiled is 1.08× of that, ~13 µs.", "1.08× faster"),
    # faster, the faster side said to buy nothing
    ("a3", "evidence", "Both ~12 µs: tiny tensor, launch-scale; compile buys almost nothing (1.08×).",
     "Both ~12 µs: tiny tensor, launch-scale; compile buys nothing at all.", "not none"),
    # unchanged, said to have got slower
    ("a7", "evidence", "ITL 8 → 14 ms with the same kernels: the 6 ms is the host waiting on .item().",
     "ITL 8 → 14 ms: the matmuls now run 6 ms longer per token.", "unchanged"),
    # faster, the fast side called the slow one, or behind
    ("a2", "evidence", "1.7 TB/s on 2.0, 85%; the compiled version is the quick one, 3.8× ahead of eager.",
     "1.7 TB/s on 2.0, 85%. And the compiled version is the slow one, 3.8× behind eager.", "3.8× faster"),
    # unchanged, said to take longer
    ("a7", "evidence", "ITL 8 → 14 ms with the same kernels: the host spends 6 ms more waiting on .item().",
     "ITL from 8 ms to 14 ms, so the matmul and attention must be taking 6 ms longer each token.", "unchanged"),
    # unchanged, said to do more math
    ("a7", "evidence", "ITL 8 → 14 ms, +75%, and the kernels do no more math than before: it is the .item() sync.",
     "ITL 8 → 14 ms means the GPU is doing 75% more math per token now.", "unchanged"),
    # limit, said to be fine
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85%: bandwidth is the limit.",
     "1.7 of 2.0 TB/s = 85%, so bandwidth is fine; compile wins 3.8× by cutting launches.",
     "what holds the time is memory bandwidth"),
    # faster, a side's time held to the incident's: the faster side given a third of the time
    ("a3", "evidence", "Eager ~12 µs and compiled ~11 µs (1.08×, ≈0.9 µs saved): launch-scale.",
     "Eager ~12 µs and compiled ~4 µs, both tiny: launch-scale.", "about 11.1 µs"),
    # measured, the figure of one side given to another
    ("a2", "evidence", "Eager pulls 1.7 TB/s on a 2.0 TB/s card, 85%; compile is 3.8× faster.",
     "Compiled version gets 1.7 TB/s on a 2.0 TB/s card, and eager is 3.8× slower.", "not of the compiled chain"),
    ("a5", "evidence", "62% of peak TFLOP/s; TTFT for the 4,096 tokens is 180 ms.",
     "62% of peak TFLOP/s, and each of the 4,096 tokens takes 180 ms.", "not of each token"),
    # measured, the figure of the incident set beside given to this one's side
    ("a3", "evidence", "~12 µs both; unlike A2's eager chain at 1.7 TB/s, compile buys only 1.08× here.",
     "~12 µs both; the compiled kernel runs at 1.7 TB/s just like A2, only 1.08× faster.", "A2's eager chain"),
    # not_limit, said to hold the time
    ("a6", "evidence", "20% busy: 2 µs of every 10; the gaps are most of the time.",
     "20% busy: 2 µs of every 10, but the kernels are most of the time.",
     "the time is in the 8 µs gaps"),
    ("a6", "regime", "Overhead-bound: the GPU sits idle 80% of the time between launches.",
     "Overhead-bound — the GPU's saturated, running flat out and can't take any more.", "not saturated"),
    # limit, the card said to idle where it saturates HBM
    ("a8", "evidence", "HBM saturated; the 55% occupancy decides nothing (Rule 4).",
     "HBM saturated, and 55% occupancy means the card's half idle.", "memory bandwidth"),
    # not_limit, the limit named first
    ("a8", "evidence", "HBM saturated; the real limiter is bandwidth, and occupancy at 55% decides nothing.",
     "HBM saturated, but the real limiter is occupancy at 55% — half the machine idle.", "Rule 4"),
    # not_limit, the time said to be made of it
    ("a5", "evidence", "62% of peak tensor TFLOP/s: the 180 ms TTFT is mostly the tensor cores doing math.",
     "The 180 ms TTFT is mostly launch and scheduling latency; the 62% is just utilisation.", "launch overhead"),
    # not_limit, the time said to be spent on it
    ("a2", "evidence", "1.7 of 2.0 TB/s, 85%: eager spends its time on the memory round trips, not the arithmetic.",
     "Compile is 3.8× faster, so the eager version must be wasting time on the arithmetic.", "the tensor cores"),
    # not_limit, said to be a large part of the cost (A4's relations)
    ("a4", "evidence", "14 GB of weights ÷ 300 GB/s ≈ 47 ms a token: the weight reads are the big part of the cost.",
     "At batch 1 the math is a big part of the cost, so a faster MMA kernel pays.", "not the math"),
    # limit, said not to limit
    ("a1", "wastes", "Fusing the relu: the matmul is not limited by memory, so it saves nothing.",
     "Moving to FP8 or tuning the tensor core tiles, the math is not the limit.", "the tensor cores"),
]


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), PAIRS)
def test_a_relation_said_the_other_way_round_fails(item: str, field: str, right: str, wrong: str, named: str) -> None:
    assert _check(item, field, right)["passed"] is not False, right
    check = _check(item, field, wrong)
    assert check["passed"] is False, wrong
    assert named in check["why"], check["why"]


@pytest.mark.parametrize("text", [
    "85% of peak bandwidth; compile is 3.8× faster, and eager is not faster anywhere.",  # denied
    "Eager would be faster only if it skipped the round trips; 1.7 of 2.0 TB/s is 85%.",  # a condition
    "85% of 2.0 TB/s; compiling makes eager 3.8× faster.",  # the slow side as an object
    "1.7 of 2.0 TB/s (85%): FP8 tensor cores if the accuracy is fine would not help here.",  # a condition's "fine"
    "85% of 2.0 TB/s; the bottleneck is not the arithmetic but the bytes.",  # the limit named first, denied
    "85% of 2.0 TB/s; the real bottleneck is low arithmetic intensity.",  # intensity is no resource
    "85% of 2.0 TB/s: the chain's time is mostly the math units sitting idle while bytes move.",  # said idle
])
def test_a_relation_denied_or_conditional_is_not_a_contradiction(text: str) -> None:
    check = _check("a2", "evidence", text)
    assert "other way round" not in check["why"], check["why"]
    assert "what holds the time" not in check["why"], check["why"]


@pytest.mark.parametrize("text", [
    "Even eager's 8 full passes are ~262 KB, ≈ 0.13 µs at 2 TB/s, vs ~12 µs measured. Compiled 1.08× faster → ≈ 11.1 µs.",
    "12 µs ≈ 4 eager launches × ~3 µs; compile 1.08× → ~11.1 µs.",  # a per-launch time
    "~12 µs both ways; compile's 1.08× saves a few launches, under 1 µs.",  # a saving, not a time
    "Both ~12 µs; compiled only 1.08× (≈0.9 µs) better.",  # a saving beside its multiplier
    "~12 µs; a hand-written fusion expecting A2's 3.8× is wasted here.",  # "A2's": a name's digit
    "Eager 3.8× slower than compile, pulling 1.7 TB/s on a 2.0 TB/s card.",  # a side as a comparison's object
    "~12 µs for both; eager at 1.7 TB/s would move its 262 KB in 0.15 µs.",  # A2's rate, as a what-if
    "12 µs both ways; A2 ran at 1.7 TB/s, the compiled chain here gets nowhere near that.",  # A2's, named first
])
def test_a_figure_that_is_not_the_sides_own_is_not_held_to_it(text: str) -> None:
    """A floor, a per-launch time, a saving or another incident's figure beside a side's name is not its own."""
    item = "a2" if "pulling" in text else "a3"
    why = _check(item, "evidence", text)["why"]
    assert "The incident measures" not in why, text
    assert "A2's eager chain" not in why, text


@pytest.mark.parametrize(("grading", "field_words"), [
    ({"entities": {"x": ["x"]}, "relations": [{"kind": "bigger", "what": "x"}]}, "kind"),
    ({"entities": {"x": ["x"]}, "relations": [{"kind": "limit", "what": "y"}]}, "'y'"),
    ({"entities": {"x": ["x"], "y": ["y"]},
      "relations": [{"kind": "measured", "figure": "fast", "of": "x", "not_of": ["y"]}]}, "one quantity"),
])
def test_a_relation_of_an_unknown_kind_or_entity_is_refused_with_its_field(grading: dict[str, Any],
                                                                          field_words: str) -> None:
    with pytest.raises(RegimeError, match=field_words) as raised:
        relations(grading)
    assert "relations" in str(raised.value)
