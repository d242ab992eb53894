import pytest

from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.content import drill
from regime_core.errors import RegimeError


def test_part_b_places_decode_and_add_below_and_matmul_above() -> None:
    rows = {row.id: row for row in drill.part_b()}
    assert rows["add"].placement.side == "below"
    assert rows["decode"].placement.side == "below"
    assert rows["decode"].placement.factor >= 100
    assert rows["matmul"].placement.side == "above"
    assert rows["matmul"].placement.ridge == pytest.approx(156)


def test_the_drills_add_row_is_explained_not_copied() -> None:
    add = next(row for row in drill.part_b() if row.id == "add")
    assert add.drill_intensity == pytest.approx(0.33, abs=0.01)
    assert add.placement.intensity == pytest.approx(1 / 6)
    lines = add.discrepancies()
    assert lines[0].startswith("the drill gives 5.03e7 bytes; the shape gives 1.01e8 (2×)")
    assert lines[-1] == "either way the add sits below the ridge of 156 FLOP/byte, so the verdict stands"


def test_drill_figures_that_would_cross_the_ridge_say_the_verdict_follows_the_shape() -> None:
    matmul = next(row for row in drill.part_b() if row.id == "matmul")
    crossed = drill.PartBKernel("matmul", matmul.label, matmul.drill_flops, matmul.drill_bytes * 100, matmul.placement)
    assert crossed.discrepancies()[-1] == ("the drill's figures would put the matmul below the ridge of 156 FLOP/byte,"
                                           " the shape's above it: the verdict follows the shape")


def test_matmul_and_decode_rows_agree_with_the_drill() -> None:
    for row in drill.part_b():
        if row.id != "add":
            assert row.discrepancies() == []


def test_incident_lookup() -> None:
    assert drill.incident("A6").id == "a6"
    with pytest.raises(RegimeError, match="A1, A2"):
        drill.incident("A9")


def test_the_part_c_model_answer_quotes_the_cores_figures_and_leaves_no_placeholder() -> None:
    text = drill.part_c_model_answer()
    assert "{" not in text
    assert "}" not in text
    a2 = drill.incident("a2").symptoms.observed
    assert a2.bandwidth is not None
    assert f"runs at {format_quantity(a2.bandwidth, Dim.BYTE_RATE)} on a" in text
    matmul = next(r for r in drill.part_b() if r.id == "matmul").placement
    assert f"ridge of {format_quantity(matmul.ridge, Dim.INTENSITY)}" in text


@pytest.mark.parametrize(
    ("text", "claims", "field", "said"),
    [
        ("A1 is {a1.flops_fraction} of peak.", {"a1": "memory"}, "part_c.model_answer.claims.a1", "reads compute"),
        ("A4 runs at {a4.bandwidth}.", {}, "part_c.model_answer.text", "{a4.bandwidth} names no figure"),
        ("{part_b.add.speed}", {}, "part_c.model_answer.text", "{part_b.add.speed} names no figure"),
        ("{a9.time}", {}, "part_c.model_answer.text", "{a9.time} names no figure"),
        ("A1's cycle is {a1.cycle}.", {}, "part_c.model_answer.text", "{a1.cycle} names no figure"),  # no gaps given
    ],
)
def test_a_model_answer_whose_claim_or_figure_no_longer_holds_fails_the_build_naming_it(
        text: str, claims: dict[str, str], field: str, said: str) -> None:
    with pytest.raises(RegimeError) as error:
        drill.fill_model_answer(text, claims)
    assert error.value.field == field
    assert said in str(error.value)


def test_a_picket_fence_s_figures_are_the_core_s_sums_of_what_the_incident_gives() -> None:
    """A6's arithmetic rung quotes its cycle, busy share and what 40,000 launches add up to, none typed by hand."""
    o = drill.incident("a6").symptoms.observed
    assert (o.kernel_time, o.gap_time, o.launches) == (pytest.approx(2e-6), pytest.approx(8e-6), 40_000)
    said = drill.fill_model_answer("{a6.cycle} {a6.busy} {a6.total} {a6.gaps} {a6.kernels}", {})
    assert said == "10 µs 20% 400 ms 320 ms 80 ms"
