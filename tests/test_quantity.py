import math
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regime_core.catalogue.quantity import Dim, counted, format_quantity, number, parse, parse_count
from regime_core.errors import RegimeError


@pytest.mark.parametrize(
    ("text", "dim", "expected"),
    [
        ("312 TFLOP/s", Dim.FLOP_RATE, 312e12),
        ("989 TFLOPS", Dim.FLOP_RATE, 989e12),
        ("624 TOPS", Dim.FLOP_RATE, 624e12),
        ("2.0 TB/s", Dim.BYTE_RATE, 2.0e12),
        ("300 GB/s", Dim.BYTE_RATE, 300e9),
        ("1.4e10", Dim.FLOP, 1.4e10),
        ("14 GB", Dim.BYTE, 14e9),
        ("80 GiB", Dim.BYTE, 80 * 2**30),
        ("8 µs", Dim.SECOND, 8e-6),
        ("8 μs", Dim.SECOND, 8e-6),
        ("8 us", Dim.SECOND, 8e-6),
        ("180 ms", Dim.SECOND, 0.18),
        ("40,000", Dim.COUNT, 40000),
        ("40k", Dim.COUNT, 40000),
        ("70%", Dim.FRACTION, 0.7),
        (0.62, Dim.FRACTION, 0.62),
        ("156 FLOP/byte", Dim.INTENSITY, 156),
        # bytes with a prefix: per thousand bytes, and thousands of FLOPs per megabyte
        ("1,356,000 FLOP/kB", Dim.INTENSITY, 1356),
        ("1.356 FLOP/kB", Dim.INTENSITY, 1.356e-3),
        ("1356 MFLOP/MB", Dim.INTENSITY, 1356),
        ("38 tok/s", Dim.TOKEN_RATE, 38),
        (7e9, Dim.COUNT, 7e9),
        # An estimate is read as the number written; a unit written out by hand is the same unit.
        ("~1360", Dim.INTENSITY, 1360),
        ("≈ 1 FLOP/byte", Dim.INTENSITY, 1),
        ("about 156 FLOP per byte", Dim.INTENSITY, 156),
        ("156 FLOP / byte", Dim.INTENSITY, 156),
        ("approx. 3.35 TB/s", Dim.BYTE_RATE, 3.35e12),
        ("roughly 70%", Dim.FRACTION, 0.7),
        ("1/12 FLOP/byte", Dim.INTENSITY, 1 / 12),  # a ratio written as one
        ("~1/3", Dim.INTENSITY, 1 / 3),
    ],
)
def test_parse_engineering_spellings(text: object, dim: Dim, expected: float) -> None:
    assert parse(text, "f", dim) == pytest.approx(expected)


def test_binary_and_decimal_prefixes_stay_distinct() -> None:
    assert parse("1 GiB", "f", Dim.BYTE) == 2**30
    assert parse("1 GB", "f", Dim.BYTE) == 1e9


@pytest.mark.parametrize(
    ("value", "dim", "fragment"),
    [
        ("", Dim.BYTE_RATE, "empty"),
        ("   ", Dim.BYTE_RATE, "empty"),
        ("abc", Dim.BYTE_RATE, "'abc'"),
        ("NaN", Dim.BYTE_RATE, "'NaN'"),
        ("1e400", Dim.BYTE_RATE, "not finite"),
        (float("inf"), Dim.BYTE_RATE, "not finite"),
        ("-2 TB/s", Dim.BYTE_RATE, "more than zero"),
        (0, Dim.BYTE_RATE, "more than zero"),
        ("5 ms", Dim.BYTE_RATE, "got a time"),
        ("5 furlongs", Dim.BYTE_RATE, "unknown unit"),
        ("2 Gb/s", Dim.BYTE_RATE, "unknown unit"),
        ("١٢", Dim.COUNT, "expected"),
        (True, Dim.COUNT, "got bool"),
        ([1], Dim.COUNT, "got list"),
        ("150%", Dim.FRACTION, "above 100%"),
        ("x" * 100_000, Dim.COUNT, "..."),
    ],
)
def test_bad_values_name_the_field(value: object, dim: Dim, fragment: str) -> None:
    with pytest.raises(RegimeError) as info:
        parse(value, "observed.bandwidth", dim)
    message = str(info.value)
    assert message.startswith("observed.bandwidth: ")
    assert fragment in message
    assert "\n" not in message
    assert len(message) < 300
    assert info.value.field == "observed.bandwidth"


def test_a_ratio_over_zero_is_refused_by_name() -> None:
    with pytest.raises(RegimeError, match=r"ridge: .*division by zero"):
        parse("1/0 FLOP/byte", "ridge", Dim.INTENSITY)


def test_unicode_minus_is_a_minus() -> None:
    with pytest.raises(RegimeError, match="more than zero"):
        parse("\u22123 GB", "f", Dim.BYTE)


def test_parse_count_rejects_fractions_and_bounds() -> None:
    assert parse_count("4,096", "n") == 4096
    with pytest.raises(RegimeError, match="whole number"):
        parse_count("2.5", "n")
    with pytest.raises(RegimeError, match="more than zero"):
        parse_count(0, "n")


@pytest.mark.parametrize(
    ("value", "dim", "text"),
    [
        (156.0, Dim.INTENSITY, "156 FLOP/byte"),
        (14e9 / 300e9, Dim.SECOND, "46.7 ms"),
        (1.7e12, Dim.BYTE_RATE, "1.7 TB/s"),
        (312e12, Dim.FLOP_RATE, "312 TFLOP/s"),
        (12e-6, Dim.SECOND, "12 µs"),
        (0.7, Dim.FRACTION, "70%"),
        (40000, Dim.COUNT, "40k"),
    ],
)
def test_format_picks_a_readable_prefix(value: float, dim: Dim, text: str) -> None:
    assert format_quantity(value, dim) == text


@pytest.mark.parametrize(("value", "text"), [(1.035, "1.04"), (2.675, "2.68"), (1.005, "1.01"), (-1.035, "-1.04"),
                                             (1.034, "1.03"), (2.25, "2.25")])
def test_number_rounds_half_up_as_the_decimal_reads(value: float, text: str) -> None:
    assert number(value) == text  # 1.035 is stored as 1.0349999…: round() alone would print 1.03


def test_number_uses_exponents_for_big_counts() -> None:
    assert number(1.37438953472e11) == "1.37e11"
    assert number(0.3339) == "0.334"


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_regime_error(text: str) -> None:
    for dim in Dim:
        try:
            value = parse(text, "f", dim, allow_zero=True)
        except RegimeError as exc:
            assert str(exc).startswith("f: ")
        else:
            assert math.isfinite(value)
            assert value >= 0


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_any_float_parses_or_raises_regime_error(value: float) -> None:
    try:
        parsed = parse(value, "f", Dim.SECOND)
    except RegimeError:  # a subnormal (under 2.2e-308) is refused too: it divides into infinity
        assert not (math.isfinite(value) and value >= sys.float_info.min)
    else:
        assert parsed == value


@given(st.floats(min_value=1e-12, max_value=1e20, allow_nan=False))
def test_format_then_parse_round_trips_within_rounding(value: float) -> None:
    for dim in (Dim.BYTE_RATE, Dim.FLOP_RATE, Dim.SECOND, Dim.BYTE):
        text = format_quantity(value, dim)
        assert parse(text, "f", dim) == pytest.approx(value, rel=6e-3)


@pytest.mark.parametrize(("value", "text"), [(0.00409, "0.41%"), (0.00125, "0.13%"), (0.203, "20.3%"), (0.7, "70%"),
                                             (0.0000154, "0.0015%")])
def test_a_share_under_one_percent_gives_two_figures(value: float, text: str) -> None:
    assert format_quantity(value, Dim.FRACTION) == text


@pytest.mark.parametrize(("count", "noun", "text"), [(1, "kernel", "1 kernel"), (0, "kernel", "0 kernels"),
                                                     (2000, "kernel", "2,000 kernels"), (1, "launch", "1 launch"),
                                                     (3, "graph launch", "3 graph launches"), (2, "host sync", "2 host syncs")])
def test_a_count_and_its_noun_agree(count: int, noun: str, text: str) -> None:
    assert counted(count, noun) == text
