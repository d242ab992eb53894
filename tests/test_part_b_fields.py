"""Part B's fields as learners type them: expressions, LaTeX, sides in words; what cannot be read is one field's
"could not tell", never a refusal of the whole write-up."""

from __future__ import annotations

import json
from typing import Any

import pytest

from regime_core.bridge.api import handle
from regime_core.grading.grade import grade

ROWS = {"add": {"intensity": "0.33", "side": "below", "optimisation": "fusion"},
        "matmul": {"intensity": "1360", "side": "above", "optimisation": "fp8"},
        "decode": {"intensity": "1", "side": "below", "optimisation": "int4"}}


def _part_b(ridge: object = "156", **rows: dict[str, str]) -> dict[str, Any]:
    kernels = {k: {**v, **rows.get(k, {})} for k, v in ROWS.items()}
    result: dict[str, Any] = grade({"part_b": {"ridge": ridge, "kernels": kernels}})
    return result


@pytest.mark.parametrize("ridge", [
    ">>> 312e12 / 2.0e12\n156.0", "312 TFLOP/s / 2 TB/s", "312e12/2e12", "312 / 2", r"$\frac{312}{2}$", r"$\frac{312 \times 10^{12}}{2 \times 10^{12}}$",
    r"$\frac{312\,\mathrm{TFLOP/s}}{2\,\mathrm{TB/s}} \approx 156$", r"$1.56 \times 10^{2}$", "156 (FLOP per byte)",
])
def test_the_ridge_written_as_the_lesson_writes_it_passes(ridge: str) -> None:
    result = _part_b(ridge)
    assert result["items"]["part_b"]["checks"]["ridge"]["passed"] is True, result["items"]["part_b"]["checks"]["ridge"]
    assert result["criteria"][3]["passed"] is True


@pytest.mark.parametrize("ridge", ["312 TFLOP/s / 20 TB/s", "2e12/312e12", r"$\frac{2}{312}$"])
def test_a_wrong_ridge_written_as_an_expression_fails(ridge: str) -> None:
    assert _part_b(ridge)["items"]["part_b"]["checks"]["ridge"]["passed"] is False


@pytest.mark.parametrize(("side", "passed"), [
    ("under", True), ("Below the ridge", True), ("below (by ~156×)", True), ("far below", True), ("left of it", True),
    ("<", True), ("above", False), ("over", False),
])
def test_a_side_in_words_is_read(side: str, passed: bool) -> None:
    checks = _part_b(decode={"side": side})["items"]["part_b"]["checks"]
    assert checks["decode"]["passed"] is passed, checks["decode"]


def test_an_unreadable_field_is_could_not_tell_for_its_row_alone() -> None:
    result = _part_b("a lot", decode={"intensity": "one-ish"}, add={"side": "sideways"})
    checks = result["items"]["part_b"]["checks"]
    assert checks["ridge"]["passed"] is None
    assert "a lot" in checks["ridge"]["why"]
    assert checks["decode"]["passed"] is None
    assert "one-ish" in checks["decode"]["why"]
    assert checks["add"]["passed"] is None
    assert checks["matmul"]["passed"] is True


def test_an_unreadable_field_does_not_hide_what_is_wrong_in_its_row() -> None:
    checks = _part_b(decode={"intensity": "one-ish", "side": "above"})["items"]["part_b"]["checks"]
    assert checks["decode"]["passed"] is False


def test_the_learner_s_own_value_is_echoed_with_what_else_is_accepted() -> None:
    checks = _part_b(add={"intensity": "0.334"})["items"]["part_b"]["checks"]
    why = checks["add"]["why"]
    assert why.startswith("0.334 FLOP/byte"), why
    assert "0.167" in why, why


def test_the_other_class_said_to_return_nothing_is_refused_not_offered() -> None:
    checks = _part_b(add={"optimisation": "Bytes only: fuse, lower precision. Compute work has zero return."})
    assert checks["items"]["part_b"]["checks"]["add"]["passed"] is True


@pytest.mark.parametrize("intensity", ["0.334", "0.33", "0.167"])
def test_the_feedback_names_the_arithmetic_not_the_program(intensity: str) -> None:
    """The accepted figures are the drill's and the shape's arithmetic's, said in a learner's words."""
    why = _part_b(add={"intensity": intensity})["items"]["part_b"]["checks"]["add"]["why"]
    assert "the shape's arithmetic gives 0.167 FLOP/byte" in why, why
    assert "core" not in why, why


def test_the_form_s_own_check_of_a_field_still_says_what_is_wrong() -> None:
    answer = json.loads(handle(json.dumps({"op": "part_b_attempt", "ridge": "a lot"})))
    assert answer["ok"] is False
    assert "ridge" in json.dumps(answer)
    good = json.loads(handle(json.dumps({"op": "part_b_attempt", "ridge": "312 TFLOP/s / 2 TB/s"})))
    assert good["ok"] is True
    assert good["ridge"] == pytest.approx(156)


@pytest.mark.parametrize(("row", "intensity", "passed"), [
    # emoji beside the number, the unit and fractions spelt out, working with a remark after its result
    ("add", "0.33 ⬇️", True), ("matmul", "~1356 ⬆️", True), ("add", "About a third", True),
    ("matmul", "some 1,360 FLOP per byte", True), ("decode", "about one FLOP per byte", True),
    ("add", "roughly a third of a FLOP per byte", True), ("add", "1 FLOP / 6 B ≈ 0.167 (per element, fp16 a+b→c)", True),
    # a hedge after the number, a comment after it or before it, "X over Y is Z", the number said twice
    ("add", "~0.33 I think", True), ("matmul", "like 1360", True), ("add", "# 0.334", True),
    ("matmul", "1356  # 1.37e11 / 1.01e8", True), ("add", "1.68e7 over 5.03e7 is like 0.33", True),
    ("add", "a third, 0.33", True), ("decode", "about one", True), ("decode", "one", True),
    # the same shapes with the wrong number fail
    ("add", "33 ⬇️", False), ("matmul", "some 136 FLOP per byte", False), ("add", "about three FLOP per byte", False),
    ("add", "~3.3 I think", False), ("add", "about one", False), ("matmul", "136  # 1.37e11 / 1.01e8", False), ("add", "1.68e7 over 5.03e7 is 3.3", False),
])
def test_an_intensity_in_the_words_people_type_is_read(row: str, intensity: str, passed: bool) -> None:
    check = _part_b(**{row: {"intensity": intensity}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check


@pytest.mark.parametrize("ridge", ["156 FLOP per byte (312 divided by 2)", "156 FLOP per byte: 312 TFLOP/s divided by 2.0 TB/s."])
def test_a_ridge_with_its_working_after_it_passes(ridge: str) -> None:
    assert _part_b(ridge)["items"]["part_b"]["checks"]["ridge"]["passed"] is True


def test_a_result_said_after_i_e_and_a_side_after_how_far_are_read() -> None:
    # "log10(156) ≈ 2.19, i.e. 156 FLOP/byte" states 156; "≈ 2.7 decades below the ridge" names below.
    checks = _part_b("log10(312e12 / 2.0e12) = log10(156) ≈ 2.19, i.e. 156 FLOP/byte",
                     decode={"side": "≈ 2.2 decades below the ridge: memory-bound"},
                     matmul={"side": "~9× above it"})["items"]["part_b"]["checks"]
    assert checks["ridge"]["passed"] is True, checks["ridge"]
    assert checks["decode"]["passed"] is True
    assert checks["matmul"]["passed"] is True
    wrong = _part_b("log10(312e12 / 2.0e12) ≈ 2.19, i.e. 2.19 FLOP/byte",
                    decode={"side": "≈ 2.2 decades above the ridge"})["items"]["part_b"]["checks"]
    assert wrong["ridge"]["passed"] is False
    assert wrong["decode"]["passed"] is False


@pytest.mark.parametrize(("ridge", "passed"), [
    ("156 F/B", True), ("312 over 2.0, so 156 FLOP per byte.", True), ("ridge\t156\tFLOP/byte\t(312e12/2.0e12)", True),
    ("Machine balance: 312e12 flop/s over 2.0e12 bytes/s, 156 flops per byte", True),
    ("Isn't it just 312e12 / 2.0e12 = 156 FLOP per byte?", True),
    ("ridge_flop_per_byte: 156  # 312e12 / 2.0e12", True), ("312 TFLOP/s over 2.0 TB/s: 156 FLOP for every byte hauled.", True),
    ("About 156 — at peak the card can do 156 math operations in the time it moves one byte.", True),
    ("ridge_flop_per_byte: 1.56  # 312 / 2.0", False), ("Ridge = 2.0e12 / 312e12 ≈ 0.0064 byte/FLOP.", False),
    ("312 over 2.0, so 15.6 FLOP per byte.", False), ("56 F/B", False),
    # "one fifty six" is 156 as people say it ("thirteen fifty six" is 1356): the result is read, and it is right
    ("three twelve tera over two tera is one fifty six flops per b", True),
])
def test_the_ridge_in_the_ways_people_write_it(ridge: str, passed: bool | None) -> None:
    check = _part_b(ridge)["items"]["part_b"]["checks"]["ridge"]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("row", "intensity", "side", "passed"), [
    ("add", "1.68e7 / 5.03e7, about a third of a flop per byte", "I < R", True),
    ("add", "about point three three flops per byte", "So isn't it far below the ridge, memory-bound?", True),
    ("add", "I = 1.68e7 / 5.03e7 ≈ 1/3", "I << R", True),
    ("matmul", "~1.36k flop/b", "I > R", True),
    ("add", "1.68e7 / 5.03e7 = 0.334 — check: 0.334 × 5.03e7 ≈ 1.68e7, yes", "below", True),  # its check aside
    ("matmul", "1.37e11 / 1.01e8, about 1,360 flops per byte", "I < R", False),
    ("matmul", "~136 flop/b", "I > R", False),
])
def test_an_intensity_and_a_side_in_the_ways_people_write_them(row: str, intensity: str, side: str,
                                                                  passed: bool) -> None:
    check = _part_b(**{row: {"intensity": intensity, "side": side}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("ridge", "passed"), [
    ("312e12 / 2.0e12 = 156 FLOP/byte; anything with intensity above 156 is memory-bound.", False),
    ("156 FLOP/byte; below it a kernel is compute-bound, above it memory-bound", False),
    ("156 FLOP/byte; above it a kernel is compute-bound, below it memory-bound", True),
    ("156: a kernel above it is not memory-bound", True),
])
def test_a_ridge_whose_words_turn_the_sides_round_fails(ridge: str, passed: bool) -> None:
    check = _part_b(ridge)["items"]["part_b"]["checks"]["ridge"]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("row", "optimisation", "passed"), [
    # a class named by its roof alone is the class
    ("matmul", "compute", True), ("matmul", "↑FLOP rate (TCs)", True), ("matmul", "raise tensor-pipe throughput", True),
    ("add", "reduce_bytes", True), ("decode", "memory side", True),
    ("decode", "compute", False), ("add", "raise tensor-pipe throughput", False), ("matmul", "reduce_bytes", False),
    # both roofs, or a roof denied, is not one class
    ("matmul", "compute, not memory", None),
])
def test_a_class_named_by_its_roof_alone_is_read(row: str, optimisation: str, passed: bool | None) -> None:
    check = _part_b(**{row: {"optimisation": optimisation}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("row", "side", "passed"), [
    # how far from the ridge a side says the kernel is, held to intensity ÷ ridge, said roughly
    ("matmul", "above the ridge, by roughly 9×", True),
    ("matmul", "above, ~8.7x", True),
    ("matmul", "above the ridge, by roughly 87×", False),
    ("add", "below, ~470 times", True),
    ("add", "below, about 47×", False),
    ("decode", "below the ridge", True),
])
def test_how_far_a_side_says_the_kernel_is_is_checked(row: str, side: str, passed: bool) -> None:
    check = _part_b(**{row: {"side": side}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check
    if passed is False:
        assert "is not how far it sits from the ridge" in check["why"]
