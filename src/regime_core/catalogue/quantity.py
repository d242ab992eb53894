"""Quantities written the way engineers write them: ``312 TFLOP/s``, ``8 µs``, ``70%``.

Every quantity is parsed into a float in base units (FLOP, byte, second, FLOP/s,
byte/s, FLOP/byte, token/s) and checked against the dimension the field expects.
Prefixes are decimal SI (1 TB = 1e12 bytes); binary ``KiB``..``PiB`` are accepted for
bytes and byte rates and stay distinct (1 GiB = 2**30 bytes).
"""

from __future__ import annotations

import math
import re
import sys
from enum import Enum
from functools import lru_cache

from regime_core.errors import RegimeError


class Dim(Enum):
    """Physical dimension of a quantity; the value is the base unit's symbol."""

    COUNT = ""
    FLOP = "FLOP"
    BYTE = "B"
    SECOND = "s"
    FLOP_RATE = "FLOP/s"
    BYTE_RATE = "B/s"
    INTENSITY = "FLOP/byte"
    TOKEN_RATE = "tok/s"
    FRACTION = "%"


_EXAMPLES = {
    Dim.COUNT: "a plain number like '40,000' or '1.4e10'",
    Dim.FLOP: "a FLOP count like '1.4e10' or '137 GFLOP'",
    Dim.BYTE: "a size like '14 GB', '5.03e7' or '80 GiB'",
    Dim.SECOND: "a time like '12 µs', '8 ms' or '0.18 s'",
    Dim.FLOP_RATE: "a compute rate like '312 TFLOP/s'",
    Dim.BYTE_RATE: "a bandwidth like '2.0 TB/s' or '300 GB/s'",
    Dim.INTENSITY: "an intensity like '156 FLOP/byte'",
    Dim.TOKEN_RATE: "a rate like '38 tok/s'",
    Dim.FRACTION: "a fraction between 0 and 1, or a percentage like '70%'",
}

_NAMES = {
    Dim.COUNT: "a plain number",
    Dim.FLOP: "a FLOP count",
    Dim.BYTE: "a size in bytes",
    Dim.SECOND: "a time",
    Dim.FLOP_RATE: "a compute rate",
    Dim.BYTE_RATE: "a bandwidth",
    Dim.INTENSITY: "an intensity",
    Dim.TOKEN_RATE: "a token rate",
    Dim.FRACTION: "a fraction",
}

# Unit spellings (lower-cased) to their dimension.
_UNITS: dict[str, Dim] = {
    "flop": Dim.FLOP, "flops": Dim.FLOP, "op": Dim.FLOP, "ops": Dim.FLOP,
    "flop/s": Dim.FLOP_RATE, "flops/s": Dim.FLOP_RATE, "op/s": Dim.FLOP_RATE,
    "ops/s": Dim.FLOP_RATE, "flop/sec": Dim.FLOP_RATE,
    "B": Dim.BYTE, "byte": Dim.BYTE, "bytes": Dim.BYTE,
    "B/s": Dim.BYTE_RATE, "byte/s": Dim.BYTE_RATE, "bytes/s": Dim.BYTE_RATE,
    "s": Dim.SECOND, "sec": Dim.SECOND, "second": Dim.SECOND, "seconds": Dim.SECOND,
    "flop/byte": Dim.INTENSITY, "flop/B": Dim.INTENSITY, "flops/byte": Dim.INTENSITY,
    # French's bytes ("0,334 FLOP/octet")
    "octet": Dim.BYTE, "octets": Dim.BYTE, "octet/s": Dim.BYTE_RATE, "octets/s": Dim.BYTE_RATE,
    "flop/octet": Dim.INTENSITY, "flops/octet": Dim.INTENSITY,
    "tok/s": Dim.TOKEN_RATE, "tokens/s": Dim.TOKEN_RATE, "token/s": Dim.TOKEN_RATE, "t/s": Dim.TOKEN_RATE,
    # Time per token (ms/token, ITL) is a time: the field it is given in says per what.
    "s/token": Dim.SECOND, "s/tok": Dim.SECOND,
    "%": Dim.FRACTION,
}
# "TFLOPS" and "TOPS" mean a rate when they carry a prefix, as on every datasheet.
_RATE_WHEN_PREFIXED = {"flops": Dim.FLOP_RATE, "ops": Dim.FLOP_RATE}

_DECIMAL = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_SUBUNIT = {"m": 1e-3, "µ": 1e-6, "μ": 1e-6, "u": 1e-6, "n": 1e-9, "p": 1e-12}
_BINARY = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}

_NUMBER = re.compile(
    r"""^(?P<num>[+-]?(?:[1-9]\d{0,2}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][+-]?\d+)?
         |[+-]?\.\d+(?:[eE][+-]?\d+)?)
         \s*(?P<unit>.*)$""",
    re.VERBOSE | re.ASCII,
)
_MAX_TEXT = 64
# A ratio written as one ("1/12 FLOP/byte", "1/3"): two plain numbers around a slash, then the unit.
_RATIO = re.compile(r"^(?P<a>\d+(?:\.\d+)?)\s*/\s*(?P<b>\d+(?:\.\d+)?)(?![\d.])\s*(?P<unit>.*)$", re.ASCII)
# How people mark an estimate ("~1360", "≈ 1", "about 156"): the number is read as written.
_ESTIMATE = re.compile(r"^(?:~|≈|≃|about\b|approx\.?|approximately\b|around\b|roughly\b|circa\b|ca\.)\s*", re.I)


# Scientific notation as people write it by hand: "1.56×10^2", "1.56 x 10²", "1.56*10**2", "1.4·10^10",
# with a Unicode minus or superscript digits; read as "1.56e2". A full stop may end the sentence after it.
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_TIMES_TEN = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?[×x*·]\s?10(?:\s?(?:\^|\*\*)\s?([+-]?\d{1,3})|([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))(?![\d⁰¹²³⁴⁵⁶⁷⁸⁹]|\.\d)")
# Spaces inside a number ("40 000", with a thin or narrow no-break space) and the Unicode minus.
_NUMBER_SPACES = re.compile(r"(?<=\d)[\u2009\u202f](?=\d{3}\b)")


def plain_numbers(text: str) -> str:
    """``text`` with hand-written numbers in one form: ``1.56×10^2`` → ``1.56e2``, ``−3`` → ``-3``, ``40 000`` → ``40000``.

    Every reader of quantities (fields and free text) goes through this, so a number reads the same everywhere.
    """
    text = text.replace("\u2212", "-").replace("\u00a0", " ")
    text = _NUMBER_SPACES.sub("", text)
    return _TIMES_TEN.sub(lambda m: f"{m[1]}e{m[2] if m[2] is not None else m[3].translate(_SUPERSCRIPTS)}", text)


# An intensity whose bytes carry a prefix ("FLOP/kB", "GFLOP/MB").
_PER_PREFIXED_BYTE = re.compile(r"^(?P<top>[kKmMgGtT]?)(?:flops?|FLOPS?|FLOP|Flops?)/(?P<bottom>[kKmMgGtT])(?:[Bb]|bytes?)$")


def _unit_text(unit: str) -> str:
    """A unit as written by hand, in the table's form: "FLOP per byte" and "FLOP / byte" are "FLOP/byte"."""
    return re.sub(r"\s*/\s*", "/", re.sub(r"\s+per\s+", "/", unit, flags=re.I))


def _lookup(unit: str) -> Dim | None:
    """The dimension of an unprefixed unit; a lower-case ``b`` is a bit, so it is refused."""
    if unit in _UNITS:
        return _UNITS[unit]
    lower = unit.lower()
    if lower.startswith("b") and not lower.startswith("byte"):
        return None
    return _UNITS.get("flop/B" if lower == "flop/b" else lower)


def _split_unit(unit: str) -> tuple[float, Dim]:
    """Split ``TFLOP/s`` into (1e12, FLOP_RATE); raise KeyError when unknown."""
    if unit == "":
        return 1.0, Dim.COUNT
    direct = _lookup(unit)
    if direct is not None:
        return 1.0, direct
    per_prefixed = _PER_PREFIXED_BYTE.match(unit)
    if per_prefixed:  # "1.356 FLOP/kB" is 1.356 FLOP per thousand bytes: 0.001356 FLOP/byte
        top, bottom = per_prefixed["top"], per_prefixed["bottom"]
        return _DECIMAL[top.upper() if top else ""] / _DECIMAL[bottom.upper()], Dim.INTENSITY
    for table in (_BINARY, _DECIMAL, _SUBUNIT):
        for prefix, scale in table.items():
            if not prefix or not unit.startswith(prefix):
                continue
            rest = unit[len(prefix):]
            if rest == "":
                if table is _DECIMAL:  # "40k": a count with a multiplier
                    return scale, Dim.COUNT
                continue
            dim = _RATE_WHEN_PREFIXED.get(rest.lower()) or _lookup(rest)
            if dim is None:
                continue
            if table is _BINARY and dim not in (Dim.BYTE, Dim.BYTE_RATE):
                continue
            if table is _SUBUNIT and dim is not Dim.SECOND:
                continue
            return scale, dim
    raise KeyError(unit)


def parse(value: object, field: str, dim: Dim, *, allow_zero: bool = False, beyond_one: bool = False) -> float:
    """Parse ``value`` into base units of ``dim``, or raise a RegimeError naming ``field``.

    Args:
        value: A number (taken as base units) or a string with an optional unit.
        field: The field's name, used in the error message.
        dim: The dimension the field expects.
        allow_zero: Accept 0 (otherwise values must be strictly positive).
        beyond_one: Accept a fraction above 100% (a share of a peak that was measured beyond it: an anomaly
            the classifier reads, not an input error).

    Returns:
        The value in base units; a fraction in 0..1 for ``Dim.FRACTION``.

    """
    expected = _EXAMPLES[dim]
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise RegimeError(field, f"expected {expected}, got {type(value).__name__}")
    if isinstance(value, str):
        text = _ESTIMATE.sub("", plain_numbers(value.strip()))
        if not text:
            raise RegimeError(field, f"expected {expected}, got an empty value")
        ratio = _RATIO.match(text) if len(text) <= _MAX_TEXT else None
        match = ratio or (_NUMBER.match(text) if len(text) <= _MAX_TEXT else None)
        if match is None:
            raise RegimeError(field, f"expected {expected}, got {_quote(value)}")
        if ratio is not None and float(ratio["b"]) == 0:
            raise RegimeError(field, f"expected {expected}; got {_quote(value)}, a division by zero")
        unit = _unit_text(match["unit"].strip())
        try:
            scale, found = _split_unit(unit)
        except KeyError:
            raise RegimeError(field, f"unknown unit {_quote(unit)}; expected {expected}") from None
        if found is not dim and found is not Dim.COUNT:
            raise RegimeError(field, f"expected {expected}, got {_NAMES[found]} ({_quote(value)})")
        written = float(match["a"]) / float(match["b"]) if ratio is not None else float(match["num"].replace(",", ""))
        number = written * scale
        if found is Dim.FRACTION:
            number /= 100.0
    else:
        number = _as_float(value, field, expected)
    if not math.isfinite(number):
        raise RegimeError(field, f"expected {expected}, got a value that is not finite")
    if 0 < abs(number) < sys.float_info.min:  # a subnormal: it divides into infinity
        raise RegimeError(field, f"expected {expected}; got {_quote(value)}, a number too small to represent")
    if number < 0 or (number == 0 and not allow_zero):
        bound = "zero or more" if allow_zero else "more than zero"
        raise RegimeError(field, f"expected {expected}, {bound}; got {_quote(value)}")
    if dim is Dim.FRACTION and number > 1 and not beyond_one:
        raise RegimeError(field, f"expected {expected}; got {_quote(value)}, which is above 100%")
    return number


def _as_float(value: int | float, field: str, expected: str) -> float:
    """A JSON number as a float; an integer past a float's 1.8e308 is refused by name, not an OverflowError."""
    try:
        return float(value)
    except OverflowError:
        raise RegimeError(field, f"expected {expected}, got a number too large to represent") from None


def parse_count(value: object, field: str, *, minimum: int = 1, maximum: int = 10**15) -> int:
    """Parse a whole count (shape dimension, batch, launches) within bounds."""
    number = parse(value, field, Dim.COUNT, allow_zero=minimum <= 0)
    if number != int(number) or not minimum <= number <= maximum:
        raise RegimeError(field, f"expected a whole number from {minimum:,} to {maximum:,}; got {_quote(value)}")
    return int(number)


def _quote(value: object) -> str:
    text = str(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


_FORMAT_PREFIXES = [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
_TIME_PREFIXES = [(1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")]


#: Below it a number prints in scientific notation, as it does from 1e6 up.
_SMALLEST_DECIMAL = 1e-4


def _scientific(value: float, digits: int) -> str:
    """``value`` as ``1.37e11`` or ``3.3e-5``: ``digits`` significant figures, no trailing zeros."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def number(value: float, digits: int = 3) -> str:
    """Format a number with ``digits`` significant figures, no trailing zeros."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    if abs(value) >= 1e6:  # 1.37e11, as the drill writes big counts
        return _scientific(value, digits)
    if abs(value) < _SMALLEST_DECIMAL:  # 3.3e-5, not a row of zeros (1e-300 would print 300 of them)
        return _scientific(value, digits)
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    # Half up, as a reader rounds the decimal they see: 1.035 is stored as 1.03499…, which round()
    # would take down; the tiny nudge takes it to 1.04.
    if decimals <= 15:  # beyond, a double has no digits left to round
        scaled = abs(value) * 10.0**decimals
        value = math.copysign(math.floor(scaled + 0.5 + 1e-9 * scaled), value) / 10.0**decimals
    text = f"{round(value, decimals):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_quantity(value: float, dim: Dim, digits: int = 3) -> str:
    """Format ``value`` (base units) with a readable prefix: ``47 ms``, ``1.7 TB/s``."""
    if dim is Dim.FRACTION:
        # Under 1% two figures say all a reader uses ("0.41% of peak", not "0.409%").
        return f"{number(value * 100, min(digits, 2) if abs(value) < 0.01 else digits)}%"
    if dim is Dim.SECOND:
        for scale, prefix in _TIME_PREFIXES:
            if abs(value) >= scale * 0.9995:
                return f"{number(value / scale, digits)} {prefix}s"
        return f"{number(value / 1e-9, digits)} ns"
    if dim in (Dim.INTENSITY, Dim.TOKEN_RATE) or abs(value) < 1e3:
        unit = f" {dim.value}" if dim.value else ""
        return f"{number(value, digits)}{unit}"
    for scale, prefix in _FORMAT_PREFIXES:
        if abs(value) >= scale * 0.9995:
            if dim is Dim.COUNT:
                return f"{number(value / scale, digits)}{prefix}"
            return f"{number(value / scale, digits)} {prefix}{dim.value}"
    return f"{number(value, digits)} {dim.value}"


def counted(count: int, noun: str) -> str:
    """``count`` things, the noun agreeing with it: ``1 kernel``, ``2,000 kernels``, ``0 launches``."""
    if count == 1:
        return f"1 {noun}"
    return f"{count:,} {noun}{'es' if noun.endswith(('s', 'x', 'ch', 'sh')) else 's'}"


_IN_TEXT = re.compile(
    r"(?<![\w.])(?P<num>[1-9]\d{0,2}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)"
    r"(?:[ \u00a0]?(?P<unit>%|[A-Za-zµμ][A-Za-zµμ/]*))?",
    re.ASCII,
)


@lru_cache(maxsize=1024)
def _known_unit(unit: str) -> tuple[float, Dim] | None:
    """``_split_unit``, remembered (free text repeats its units), and None for a word that is no unit."""
    try:
        return _split_unit(unit)
    except KeyError:
        return None


def quantity_spans(text: str, limit: int | None = None) -> list[tuple[float, Dim, int, int]]:
    """Every number in free text with its unit and where it stands: ``(value, dim, start, end)``.

    The text is read as written (call :func:`plain_numbers` first for hand-written scientific notation).
    A number followed by an unknown word is kept as a plain count, and its span ends at the number.
    With ``limit``, only the first ``limit`` numbers are read (the rest of a long text is not scanned).
    """
    found: list[tuple[float, Dim, int, int]] = []
    for match in _IN_TEXT.finditer(text):
        if limit is not None and len(found) >= limit:
            break
        value = float(match["num"].replace(",", ""))
        unit = (match["unit"] or "").rstrip("/")
        end = match.end() - (len(match["unit"] or "") - len(unit))
        known = _known_unit(unit)
        if known is None:
            scale, dim, end = 1.0, Dim.COUNT, match.end("num")
        else:
            scale, dim = known
        value *= scale
        if dim is Dim.FRACTION:
            value /= 100.0
        if math.isfinite(value):
            found.append((value, dim, match.start(), end))
    return found


def quantities_in(text: str) -> list[tuple[float, Dim]]:
    """Every number in free text with its unit when it has a known one: ``1.7 TB/s``, ``70%``, ``40k``.

    A number followed by an unknown word is kept as a plain count.
    """
    return [(value, dim) for value, dim, _, _ in quantity_spans(plain_numbers(text))]


def same_quantity(a: tuple[float, Dim], b: tuple[float, Dim], rel: float = 0.02) -> bool:
    """Whether two quantities agree within ``rel``; a plain count matches any unit with the same value."""
    if a[1] is not b[1] and Dim.COUNT not in (a[1], b[1]):
        return False
    return math.isclose(a[0], b[0], rel_tol=rel)
