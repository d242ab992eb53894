"""The packaged data files, read the same way on CPython and in Pyodide."""

from __future__ import annotations

import itertools
import json
import math
import operator
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from regime_core.errors import RegimeError


@cache
def load_json(name: str) -> dict[str, Any]:
    """Parse ``data/<name>`` from the installed package (cached)."""
    text = resources.files("regime_core").joinpath(f"data/{name}").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def warm_up() -> list[str]:
    """Read every packaged data file into memory; return their names.

    The browser keeps the started interpreter as a memory snapshot, which holds memory and no files:
    a data file first read after a restore would not be found. So all of them are read before.
    """
    names = sorted(p.name for p in resources.files("regime_core").joinpath("data").iterdir() if p.name.endswith(".json"))
    for name in names:
        load_json(name)
    return names


#: How deep JSON a user sends may nest. An attempt file nests four levels, a trace's event five; Pyodide's
#: WebAssembly stack overflows near 3,000 (a fatal error for the whole interpreter, where CPython raises
#: RecursionError), so the depth is checked before any parser sees the text, the same in both runtimes.
MAX_NESTING = 100
_OTHER_BYTES = bytes(b for b in range(256) if b not in b'[]{}"')
_AS_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")  # an opener counts 2, a closer 0: see too_deep
_PEAK = b"\x02\x00"  # an opener, then its closer
_PEEL_ROUNDS = 8


def too_deep(text: str | bytes, limit: int = MAX_NESTING) -> bool:
    """True when ``text``, read as JSON, may open more than ``limit`` brackets at once.

    Never true when it opens ``limit - 2`` or fewer. Linear, and in C nearly throughout, so a 100 MB trace
    costs a small part of its parse. Only brackets, quotes and backslashes are kept; escaped backslashes
    and quotes go, so every quote left opens or closes a string, and the text between every other quote
    is outside strings. The depth after the i-th bracket left is opened - closed = 2 * opened - i: the
    running sum of 2 per opener and 0 per closer, less i. An unclosed run counts too (a parser recurses
    into it before it finds the end missing).
    """
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    if b"\\" in raw:  # escapes go before anything else: ``\\n"`` ends a string
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = raw.translate(None, _OTHER_BYTES)
    if kept.count(b"[") + kept.count(b"{") <= limit - 2:
        return False  # too few openers to go that deep
    kept = kept.replace(b'""', b"")  # most strings hold no bracket: the split below then has little to do
    outside = b"".join(kept.split(b'"')[::2]) if b'"' in kept else kept
    steps = outside.translate(_AS_STEPS)
    # Peel first: each round drops every opener met at once by its closer (each peak of the depth), lowering
    # the deepest point by one at most, so a few rounds bound it from both sides. A trace's events nest a
    # few levels: they are gone in a few rounds of replace (C), and the sum below runs over what is left.
    peeled, rounds = steps, 0
    while rounds < _PEEL_ROUNDS and _PEAK in peeled:
        peeled, rounds = peeled.replace(_PEAK, b""), rounds + 1
    low = _deepest(peeled)  # low <= the deepest point <= low + rounds
    if low + rounds <= limit or low > limit - 2:
        return low > limit - 2
    return _deepest(steps) > limit - 2


def _deepest(steps: bytes) -> int:
    """The most brackets open at once in ``steps`` (see too_deep), 0 for none."""
    return max(0, max(map(operator.sub, itertools.accumulate(steps), range(1, len(steps) + 1)), default=0))


def check_nesting(text: str | bytes, field: str, expected: str) -> None:
    """Refuse ``text`` nested past MAX_NESTING levels, by ``field``, before a parser recurses into it."""
    if too_deep(text):
        raise RegimeError(field, f"expected {expected}, not nested more than {MAX_NESTING} levels deep")


def parse_json_text(text: object, field: str, *, limit: int, expected: str = "JSON") -> Any:
    """Parse JSON a user sent (a request, a file); a RegimeError names ``field`` and, where known, the line."""
    if not isinstance(text, str) or len(text) > limit:
        raise RegimeError(field, f"expected {expected} under {limit:,} characters")
    check_nesting(text, field, expected)
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise RegimeError(field, f"expected {expected} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise RegimeError(field, f"expected {expected}, not nested this deep") from None


def _json_int(digits: str) -> int | float:
    """A JSON integer; one past Python's int-string limit (4,300 digits) reads as the float it is.

    That float is infinite, so the field that receives it refuses it by name, as it refuses ``1e400``.
    """
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def dump_json_text(data: object, *, indent: int | None = None, ensure_ascii: bool = False) -> str:
    """``data`` as JSON a browser parses: a number JSON cannot carry (NaN, Infinity) is a RegimeError naming it.

    Args:
        data: The answer, made of dicts, lists, strings, numbers, booleans and None.
        indent: As ``json.dumps``.
        ensure_ascii: As ``json.dumps``.

    """
    try:
        return json.dumps(data, indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
    except ValueError:
        path = _not_finite(data)
        if path is None:
            raise
        raise RegimeError(path, "the result is too large or too small to represent; check the magnitudes") from None


def _not_finite(data: object, path: str = "") -> str | None:
    """The dotted path of the first number in ``data`` that is not finite, or None."""
    if isinstance(data, float):
        return None if math.isfinite(data) else path
    if isinstance(data, Mapping):
        items: list[tuple[str, object]] = [(str(k), v) for k, v in data.items()]
    elif isinstance(data, (list, tuple)):
        items = [(str(n), v) for n, v in enumerate(data)]
    else:
        return None
    for key, value in items:
        found = _not_finite(value, f"{path}.{key}" if path else key)
        if found is not None:
            return found
    return None
