import pytest

from regime_core import drill
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
    assert any("6 B per element" in line for line in add.discrepancies())


def test_matmul_and_decode_rows_agree_with_the_drill() -> None:
    for row in drill.part_b():
        if row.id != "add":
            assert row.discrepancies() == []


def test_incident_lookup() -> None:
    assert drill.incident("A6").id == "a6"
    with pytest.raises(RegimeError, match="A1, A2"):
        drill.incident("A9")
