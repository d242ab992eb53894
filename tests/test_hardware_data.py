"""Checks on the catalogue's figures themselves (issue 18): sparse rule, sources, names, arithmetic."""

import pytest

from regime_core.catalogue import hardware
from regime_core.resources import load_json

CARDS = list(hardware.catalogue().values())
#: How far a stored dense figure may sit from units x clock x operations per clock: vendors round
#: (AMD prints 5 PFLOPS for the MI355X's 5.03) and a few quote a slightly different clock.
ARITHMETIC_TOLERANCE = 0.02


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.id)
def test_every_sparse_figure_is_exactly_twice_its_dense_one(card: hardware.Hardware) -> None:
    for dtype, fig in card.peaks.items():
        if fig.sparse_printed is not None:
            assert fig.sparse_printed == pytest.approx(2 * fig.value, rel=1e-12), (card.id, dtype)


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.id)
def test_every_figure_has_a_source(card: hardware.Hardware) -> None:
    for figure in card.figures():
        assert figure.source.url.startswith("https://"), (card.id, figure)
        assert figure.source.title


def test_every_listed_source_is_used() -> None:
    raw = load_json("hardware.json")
    used = {f.source.key for c in CARDS for f in c.figures()}
    used |= {c.arithmetic.source.key for c in CARDS if c.arithmetic}
    assert used == set(raw["sources"])


def test_ids_and_aliases_are_unique_and_no_alias_is_another_cards_id() -> None:
    keys: dict[str, str] = {}
    for card in CARDS:
        for name in (card.id, *card.aliases):
            key = hardware.name_key(name)
            assert key, name
            assert keys.setdefault(key, card.id) == card.id, f"{name!r} of {card.id} is taken by {keys[key]}"
    ambiguous = [k for k in load_json("hardware.json")["ambiguous"] if k != "format"]
    assert not {hardware.name_key(k) for k in ambiguous} & set(keys)


WITH_ARITHMETIC = [c for c in CARDS if c.arithmetic]


def test_the_arithmetic_covers_the_main_cards() -> None:
    assert {"h100-sxm", "a100-80gb-sxm", "l40s", "rtx-4090", "rtx-5090", "mi300x", "mi355x", "gaudi3"} <= {
        c.id for c in WITH_ARITHMETIC}


@pytest.mark.parametrize("card", WITH_ARITHMETIC, ids=lambda c: c.id)
def test_dense_figures_match_units_times_clock_times_ops(card: hardware.Hardware) -> None:
    arithmetic = card.arithmetic
    assert arithmetic is not None
    for dtype in arithmetic.ops_per_clock:
        assert card.peak(dtype) == pytest.approx(arithmetic.peak(dtype), rel=ARITHMETIC_TOLERANCE), (card.id, dtype)


def test_the_l40s_is_not_the_l40() -> None:
    # The L40S datasheet's 362.05 is the L40's clock: 142 SMs x 1,024 x 2.49 GHz; the L40S runs 2.52 GHz.
    l40s = hardware.get("l40s")
    assert l40s.arithmetic is not None
    assert l40s.peak("bf16") == pytest.approx(142 * 1024 * 2.52e9, rel=0.001)
    assert l40s.peaks["bf16"].sparse_printed == pytest.approx(733e12)
    assert hardware.get("l40").peak("bf16") < l40s.peak("bf16") / 2 + 1e12  # the L40 runs half the tensor rate


def test_fp4_where_the_vendors_sell_it() -> None:
    for card_id in ("b200", "gb200", "b300", "rtx-5090", "mi355x"):
        assert "fp4" in hardware.get(card_id).peaks, card_id
    for card_id in ("b200", "gb200", "b300", "mi355x"):
        assert "fp6" in hardware.get(card_id).peaks, card_id


def test_derived_figures_say_how() -> None:
    derived = [f for c in CARDS for f in c.figures() if f.derived]
    assert derived, "the catalogue marks its derived figures"
    for fig in derived:
        assert len(fig.derived) > 10
    gcd = hardware.get("mi250x-gcd")
    assert all(f.derived for f in gcd.figures())
