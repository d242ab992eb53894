"""JSON nested past what a parser can recurse into is refused by name before any parser sees it.

Pyodide's WebAssembly stack overflows near 3,000 levels, a fatal error for the whole interpreter; the
same limit holds in both runtimes (tests/test_parity.py sends the deep requests to Pyodide too).
"""

from __future__ import annotations

import gzip
import json
import time

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from regime_core.bridge.api import handle
from regime_core.errors import RegimeError
from regime_core.resources import MAX_NESTING, parse_json_text, too_deep
from regime_core.trace.events import read_events

_LEAVES = st.none() | st.booleans() | st.integers() | st.text(alphabet="ab[]{}\"\\\n/é", max_size=5)
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                           max_size=3), max_leaves=40)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


def _wrapped(value: object, depth: int) -> object:
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


@given(_VALUES, st.integers(min_value=0, max_value=3 * MAX_NESTING))
def test_the_check_counts_the_depth_as_the_parser_meets_it_within_two_levels(value: object, extra: int) -> None:
    # Brackets, quotes and backslashes inside strings are text: only the structure counts.
    nested = _wrapped(value, extra)
    depth = _depth(nested)
    if depth > MAX_NESTING:
        assert too_deep(json.dumps(nested))
    if depth <= MAX_NESTING - 2:
        assert not too_deep(json.dumps(nested))


def _opened(text: str) -> int:
    """The most brackets open at once, counted a character at a time (the text holds no string)."""
    depth = deepest = 0
    for char in text:
        depth += 1 if char in "[{" else -1 if char in "]}" else 0
        deepest = max(deepest, depth)
    return deepest


_NESTS = st.recursive(st.just(""), lambda inner: st.lists(inner, max_size=3).map("".join).flatmap(
    lambda body: st.sampled_from([f"[{body}]", f"{{{body}}}", f"[{body}}}"])), max_leaves=80)
_NOISE = st.text(alphabet="[{]}a", max_size=40)


@given(st.lists(_NESTS | _NOISE, max_size=4).map("".join), st.integers(min_value=2, max_value=24))
@example("[[[]]]]", 2)  # closed past where it began: what is left after peeling must not count below zero
def test_any_run_of_brackets_is_judged_by_its_deepest_point(text: str, limit: int) -> None:
    # Nested, unbalanced, mismatched, cut short: the check peels empty pairs a few rounds at a time, then must
    # still bound the deepest point from both sides (limits this low meet the rounds' own bounds).
    deepest = _opened(text)
    if deepest > limit:
        assert too_deep(text, limit)
    if deepest <= limit - 2:
        assert not too_deep(text, limit)


@pytest.mark.parametrize("text", ["[" * 50_000 + "]" * 50_000, '{"a": ' * 3000 + "1" + "}" * 3000,
                                  "[{" * 2000 + "}]" * 2000])
def test_deep_text_is_one_line_naming_the_field(text: str) -> None:
    with pytest.raises(RegimeError) as caught:
        parse_json_text(text, "file", limit=10**7, expected="an attempt file")
    assert caught.value.field == "file"
    assert f"not nested more than {MAX_NESTING} levels deep" in str(caught.value)
    answer = json.loads(handle(json.dumps({"op": "import_attempt", "text": text})))
    assert (answer["ok"], answer["field"]) == (False, "file")


def test_a_deep_trace_is_refused_plain_or_gzipped() -> None:
    deep = ('{"traceEvents": [' + '{"args": ' * 4000 + "1" + "}" * 4000 + "]}").encode()
    for data in (deep, gzip.compress(deep)):
        with pytest.raises(RegimeError, match="nested more than"):
            read_events(data)


def test_an_unclosed_run_counts_and_a_shallow_cut_short_file_is_left_to_the_parser() -> None:
    assert too_deep("[" * 5000)  # a parser recurses into the run before it finds the end missing
    assert too_deep('["' + "]" * 200 + '", ' + "[" * 200)  # the closers are inside a string
    assert not too_deep('{"a": [' + "[1], " * 50_000)
    with pytest.raises(RegimeError, match="line 1"):
        parse_json_text('{"a": [' + "[1], " * 50_000, "file", limit=10**6)


def test_the_check_is_linear() -> None:
    # A trace-sized text of shallow events: the check is a translate and a few replaces, all in C.
    text = json.dumps({"traceEvents": [{"args": {"grid": [1, 2, 3]}, "name": "k[0]"}] * 200_000})
    started = time.perf_counter()
    assert not too_deep(text)
    assert time.perf_counter() - started < 5.0  # a hang guard on a busy machine, not a speed target
