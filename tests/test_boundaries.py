"""The boundaries never show a traceback (issue 26): the terminal's pipes and encodings, numbers past what a
float holds, and the bridge's answer, whatever the request."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hostile_inputs import HOSTILE
from regime_core.bridge.api import OPS, handle
from regime_core.catalogue.quantity import Dim, format_quantity, number, parse
from regime_core.errors import RegimeError
from regime_core.judgment.symptoms import OBSERVED_FIELDS
from regime_core.model import work
from regime_core.trace.reading import read_trace
from strategies import json_values
from trace_builder import as_bytes, picket_fence

SRC = str(Path(__file__).parents[1] / "src")
HUGE = "1" * 320  # past a float's 1.8e308
HUGER = "1" * 5000  # past Python's 4,300-digit int-string limit


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC, **extra}


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "regime_core", *args]


def run(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(*args), capture_output=True, text=True, input=stdin, timeout=60, check=False,
                          env=_env(**env))


def assert_one_line_refusal(out: subprocess.CompletedProcess[str] | subprocess.CompletedProcess[bytes],
                            fragment: str = "") -> None:
    stderr = out.stderr if isinstance(out.stderr, str) else out.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    assert out.returncode == 2, stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert fragment in stderr


def strict_json(text: str) -> Any:
    """JSON as a browser's JSON.parse reads it: NaN and Infinity are not JSON."""
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("files")
    symptoms = folder / "symptoms.json"
    symptoms.write_text(json.dumps({"observed": {"kernel_time": "2 us", "gap_time": "8 us", "launches": 40000}}))
    attempt = folder / "attempt.json"
    attempt.write_text(json.dumps({"part_a": {}, "part_b": {}, "part_c": ""}))
    return {"symptoms": str(symptoms), "attempt": str(attempt)}


#: Every subcommand, with arguments it answers.
COMMANDS = [
    ["gpus"], ["gpus", "--json"], ["ridge", "--gpu", "l4"], ["incident", "A4"], ["incident", "A4", "--json"],
    ["case"], ["practice", "--seed", "7"], ["place", "--flops", "1e12", "--bytes", "1e9", "--gpu", "l4"],
    ["kernel", "matmul", "--m", "64", "--n", "64", "--k", "64", "--gpu", "l4"],
    ["plot", "matmul", "--m", "64", "--n", "64", "--k", "64", "--gpu", "l4"],
    ["classify", "{symptoms}"], ["grade", "{attempt}"],
]


def _args(command: list[str], files: dict[str, str]) -> list[str]:
    return [a.format(**files) for a in command]


# --- 1. the terminal: pipes, a full disk, a closed stdin, an ASCII terminal ---------------------------------


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_writing_into_a_closed_pipe_exits_quietly(command: list[str], files: dict[str, str]) -> None:
    read, write = os.pipe()
    os.close(read)  # as `| head -1` does once it has its line: every write now fails with EPIPE
    try:
        out = subprocess.run(_command(*_args(command, files)), stdout=write, stderr=subprocess.PIPE, timeout=60,
                             check=False, env=_env())
    finally:
        os.close(write)
    assert b"Traceback" not in out.stderr, out.stderr
    assert out.stderr == b""
    assert out.returncode in (0, 2)


def test_head_one_takes_its_line_and_nothing_complains() -> None:
    out = subprocess.run(["bash", "-c", '"$@" | head -1', "_", *_command("gpus", "--json")], capture_output=True,
                         text=True, timeout=60, check=False, env=_env())
    assert out.stdout == "{\n"
    assert out.stderr == ""


@pytest.mark.parametrize("command", [["gpus"], ["incident", "A4", "--json"], ["classify", "{symptoms}"]], ids=" ".join)
def test_a_full_disk_is_one_line_and_exit_2(command: list[str], files: dict[str, str]) -> None:
    with open("/dev/full", "w") as full:
        out = subprocess.run(_command(*_args(command, files)), stdout=full, stderr=subprocess.PIPE, text=True,
                             timeout=60, check=False, env=_env())
    assert_one_line_refusal(out, "No space left on device")


@pytest.mark.parametrize("command", [["classify", "-"], ["grade", "-"]])
def test_a_closed_stdin_is_one_line_and_exit_2(command: list[str]) -> None:
    out = subprocess.run(["bash", "-c", 'exec "$@" <&-', "_", *_command(*command)], capture_output=True, text=True,
                         timeout=60, check=False, env=_env())
    assert_one_line_refusal(out, "stdin")


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C"}], ids=str)
@pytest.mark.parametrize("command", [["incident", "A4"], ["incident", "A4", "--json"], ["gpus"], ["practice", "--seed", "3"],
                                     ["ridge", "--gpu", "l4", "--json"]], ids=" ".join)
def test_an_ascii_terminal_gets_its_answer_in_ascii(command: list[str], env: dict[str, str]) -> None:
    out = subprocess.run(_command(*command), capture_output=True, timeout=60, check=False, env=_env(**env))
    assert b"Traceback" not in out.stderr, out.stderr
    assert out.returncode == 0
    if env.get("PYTHONIOENCODING") == "ascii":
        text = out.stdout.decode("ascii")  # raises if anything else got through
        if "--json" in command:
            assert strict_json(text)


def test_an_ascii_terminal_keeps_the_meaning_of_the_signs() -> None:
    out = run("incident", "A4", PYTHONIOENCODING="ascii")
    assert "x below the ridge" in out.stdout
    data = strict_json(run("incident", "A4", "--json", PYTHONIOENCODING="ascii").stdout)
    assert data == strict_json(run("incident", "A4", "--json").stdout)  # the same answer, escaped


def test_an_ascii_terminal_still_reads_refusals() -> None:
    out = run("ridge", "--peak-flops", "12 µs", "--bandwidth", "1 TB/s", PYTHONIOENCODING="ascii")
    assert_one_line_refusal(out, "--peak-flops")


# --- 2. numbers past a float and past Python's int-string limit -------------------------------------------


@pytest.mark.parametrize("value", [10**400, -(10**400), int(HUGE)], ids=["10**400", "-10**400", "320 digits"])
def test_an_int_past_a_float_is_refused_by_name(value: int) -> None:
    with pytest.raises(RegimeError) as info:
        parse(value, "observed.bandwidth", Dim.BYTE_RATE)
    assert info.value.field == "observed.bandwidth"
    assert "bandwidth" in info.value.expected


@pytest.mark.parametrize("digits", [HUGE, HUGER], ids=["320 digits", "5000 digits"])
@pytest.mark.parametrize(("build", "field"), [
    (lambda d: f'{{"op": "ridge", "hardware": {{"id": "custom", "peak_flops": {d}, "bandwidth": "1 TB/s"}}}}',
     "hardware.peak_flops"),
    (lambda d: f'{{"op": "kernel", "hardware": {{"id": "l4"}}, "work": {{"kernel": "raw", "flops": 1, "bytes": {d}}}}}',
     "work.bytes"),
    (lambda d: f'{{"op": "kernel", "hardware": {{"id": "l4"}}, "work": {{"kernel": "matmul", "m": {d}, "n": 4, "k": 4}}}}',
     "work.m"),
    (lambda d: f'{{"op": "practice", "seed": {d}}}', "seed"),
    (lambda d: f'{{"op": "classify", "symptoms": {{"observed": {{"gap_time": "1 us", "kernel_time": {d}}}}}}}',
     "observed.kernel_time"),
], ids=["peak", "bytes", "m", "seed", "kernel_time"])
def test_a_json_integer_of_any_length_is_refused_by_name(build: Any, field: str, digits: str) -> None:
    answer = strict_json(handle(build(digits)))
    assert answer["ok"] is False
    assert answer["field"] == field, answer
    assert answer["error"].startswith(f"{field}: expected ")


@pytest.mark.parametrize("digits", [HUGE, HUGER], ids=["320 digits", "5000 digits"])
def test_a_file_with_a_huge_integer_is_refused_by_name(tmp_path: Path, digits: str) -> None:
    path = tmp_path / "huge.json"
    path.write_text(f'{{"observed": {{"gap_time": "1 us", "kernel_time": {digits}}}}}')
    assert_one_line_refusal(run("classify", str(path)), "observed.kernel_time: expected a time")


@pytest.mark.parametrize("args", [["--level", "²"], ["--seed", "²"], ["--seed", "٣"], ["--seed", HUGER],
                                  ["--level", HUGER]], ids=["level ²", "seed ²", "seed ٣", "seed 5000", "level 5000"])
def test_practice_refuses_digits_int_does_not_read(args: list[str]) -> None:
    assert_one_line_refusal(run("practice", *args), args[0])


@pytest.mark.parametrize("field", ["seed", "level"])
@pytest.mark.parametrize("value", ["²", "٣", "１", HUGER])
def test_the_practice_op_refuses_them_by_name(field: str, value: str) -> None:
    request = {"op": "practice", "seed": 1, field: value}
    answer = strict_json(handle(json.dumps(request)))
    assert answer["ok"] is False
    assert answer["field"] == field


# --- 3. denormals and extremes ---------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "fragment"), [
    (["place", "--bytes", "5e-324", "--flops", "1", "--gpu", "l4"], "--bytes"),
    (["place", "--bytes", "1e-310", "--flops", "1", "--gpu", "l4"], "--bytes"),
    (["ridge", "--peak-flops", "1e308", "--bandwidth", "5e-324", "--json"], "--bandwidth"),
    (["ridge", "--peak-flops", "1e308", "--bandwidth", "1e-10", "--json"], "too large"),
    (["ridge", "--peak-flops", "1e-300", "--bandwidth", "1e300"], "too small"),
    (["place", "--flops", "1e300", "--bytes", "1e-300", "--gpu", "l4"], "too large"),
    (["place", "--flops", "1e300", "--bytes", "1", "--peak-flops", "1e-10", "--bandwidth", "1e-10"], "floor time"),
    (["place", "--flops", "1e-300", "--bytes", "1", "--peak-flops", "1e300", "--bandwidth", "1"], "from the ridge"),
    (["plot", "raw", "--flops", "1", "--bytes", "1", "--peak-flops", "1e308", "--bandwidth", "1e308"], "regime plot: "),
    (["plot", "raw", "--flops", "1", "--bytes", "1", "--peak-flops", "1e300", "--bandwidth", "1e300"], "draw"),
    (["plot", "raw", "--flops", "2e-301", "--bytes", "1", "--peak-flops", "1", "--bandwidth", "1"], "draw"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else a)
def test_extremes_are_one_line_and_exit_2(args: list[str], fragment: str) -> None:
    out = run(*args)
    assert_one_line_refusal(out, fragment)
    assert out.stdout == ""


def test_a_zero_flop_kernel_is_still_valid_json() -> None:
    out = run("place", "--flops", "0", "--bytes", "1 GB", "--gpu", "l4", "--json")
    assert out.returncode == 0, out.stderr
    data = strict_json(out.stdout)
    assert data["factor"] is None  # no finite factor below the ridge: zero FLOPs
    assert data["intensity"] == 0


@pytest.mark.parametrize("request_", [
    {"op": "ridge", "hardware": {"id": "custom", "peak_flops": "1e308 FLOP/s", "bandwidth": "1e-10 B/s"}},
    {"op": "ridge", "hardware": {"id": "custom", "peak_flops": 1e308, "bandwidth": 1e-10}},
    {"op": "ridge_table", "hardware": {"id": "custom", "peak_flops": 1e308, "bandwidth": 1e-10}},
    {"op": "kernel", "hardware": {"id": "custom", "peak_flops": 1e308, "bandwidth": 1e308},
     "work": {"kernel": "raw", "flops": 1, "bytes": 1}},
    {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "raw", "flops": 0, "bytes": 1}},
    {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "raw", "flops": 1e300, "bytes": 1e-300}},
    {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "raw", "flops": 1, "bytes": 1},
     "observed": {"time": 1e-300}},
], ids=["ridge text", "ridge numbers", "ridge_table", "kernel svg", "zero flops", "intensity", "measured"])
def test_the_bridge_answers_extremes_in_json(request_: dict[str, Any]) -> None:
    answer = strict_json(handle(json.dumps(request_)))
    assert set(answer) >= {"ok"}
    if not answer["ok"]:
        assert answer["field"] != ""  # a refusal by name, not an internal error
        assert "\n" not in answer["error"]
        assert "internal error" not in answer["error"]


# --- 4. the bridge never raises ------------------------------------------------------------------------------

#: Values meant to hurt: past a float, under a float's smallest normal, not finite, long, unicode, hostile.
EXTREMES = ["1e308", "1e308 FLOP/s", "5e-324", "1e-310 B", "1e-10 B/s", "1e300", "1e-300", "-0", "NaN", "Infinity",
            "\x1b[31m", "\u202e", "é" * 70, "🙂" * 50, "<big>", "<huger>", "<nested>"]
extremes = st.sampled_from(EXTREMES) | st.sampled_from([1e308, -1e308, 5e-324, 1e-300, 2.2e-308, 0.0, 10**309])
values = st.recursive(
    extremes | extremes | extremes | st.sampled_from(HOSTILE[:40]) | st.floats()
    | st.integers(min_value=-(10**400), max_value=10**400) | json_values,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
cards = st.fixed_dictionaries({"id": st.sampled_from(["custom", "l4", "h100-sxm", "tpu-v6e", "none", ""])},
                              optional={"peak_flops": values, "bandwidth": values, "count": values})
work_specs = st.sampled_from(work.KINDS).flatmap(
    lambda kind: st.fixed_dictionaries({"kernel": st.just(kind)},
                                       optional=dict.fromkeys(work.FIELDS[kind], values)))
observations = st.dictionaries(st.sampled_from([*OBSERVED_FIELDS, "launches"]), values, max_size=4)
_READING = read_trace(as_bytes(picket_fence(50))).to_json()
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "hardware": cards | values, "dtype": st.sampled_from(["fp16", "bf16", "fp8", "", "<x>"]) | values,
    "work": work_specs | values, "observed": observations | values,
    "symptoms": st.fixed_dictionaries({}, optional={"hardware": cards, "work": work_specs, "observed": observations,
                                                    "notes": values, "proposal": values}) | values,
    "form": st.fixed_dictionaries({}, optional={"hardware": cards, "work": work_specs, "observed": observations,
                                                "dtype": values}) | values,
    "item": st.sampled_from(["a1", "a4", "a8", "part-b", "part-c", "a9"]) | values,
    "rung": st.integers(-2, 5) | values,
    "items": st.dictionaries(st.sampled_from(["a1", "a4", "part-b", "part-c"]), values, max_size=3) | values,
    "kept": st.lists(st.sampled_from(["a1", "a6", "part-b", "part-c", "a9", "x" * 40]), max_size=4) | values,
    "ridge": values, "kernels": values, "text": values | values.map(json.dumps), "seed": values, "level": values,
    "missed": values, "lines": values,
    # A trace: base64 of garbage, of JSON that is no trace, or of a small real one; or any value at all.
    "data": st.binary(max_size=200).map(lambda b: base64.b64encode(b).decode()) | st.sampled_from(
        [base64.b64encode(b'{"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1e308, "dur": 1e308}]}').decode(),
         base64.b64encode(b'{"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 0, "dur": 5}]}').decode()]) | values,
    "step": values, "gpu": cards | values,
    # Two readings for the page's diff: a real one, one with its numbers damaged, or anything.
    "before": st.sampled_from([_READING, {**_READING, "trace": {**_READING["trace"], "steps": [{"step": 1}]}},
                               {"regime": None, "trace": {}}]) | values,
    "after": st.sampled_from([_READING, {**_READING, "trace": {**_READING["trace"], "window": "long"}}]) | values,
    # The page's ranks: digests (a real reading's, damaged, or anything) with their files' names; files not read.
    "digests": st.lists(st.fixed_dictionaries({"file": st.text(max_size=9) | values}, optional={
        "digest": st.sampled_from([{"format": "regime-digest", "version": 1, "reading": _READING},
                                   {"format": "regime-digest", "version": 1, "reading": {"trace": {}}}]) | values}),
        max_size=3) | values,
    "refused": st.lists(st.fixed_dictionaries({"file": st.text(max_size=9)}, optional={"reason": values}),
                        max_size=2) | values,
    # A class's file and its entries: a name, a size, a place in the class; entries of every kind, damaged or not.
    "file": st.text(max_size=30) | values, "bytes": st.integers(-1, 10**9) | values, "index": values,
    "entries": st.lists(st.fixed_dictionaries(
        {"kind": st.sampled_from(["attempt", "practice", "refused", "x"]) | values, "file": st.text(max_size=9)},
        optional={"reason": values, "name": values, "practice": values, "passed": values, "receipt": values,
                  "criteria": values, "attempted": values, "right": values, "wrong": values,
                  "could_not_tell": values, "items": values}) | values, max_size=4) | values,
}
requests = st.sampled_from(list(OPS)).flatmap(
    lambda op: st.fixed_dictionaries({"op": st.just(op)},
                                     optional={f: FIELD_VALUES[f] for f in OPS[op].fields}))


def _request_text(request: dict[str, Any]) -> str:
    """The request as text, with the values JSON cannot carry from Python spliced in as raw JSON."""
    text = json.dumps(request, ensure_ascii=False)  # NaN and Infinity go in as Python writes them
    return (text.replace('"<big>"', HUGE).replace('"<huger>"', HUGER)
            .replace('"<nested>"', "[" * 50_000 + "]" * 50_000))


@settings(max_examples=200)
@given(requests)
@example({"op": "ridge", "hardware": {"id": "custom", "peak_flops": 1e308, "bandwidth": 1e-10}})  # the probe
@example({"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "raw", "flops": 0, "bytes": 1}})
@example({"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "matmul", "m": "<huger>", "n": 4, "k": 4}})
@example({"op": "practice", "seed": "²"})
@example({"op": "class_entry", "file": "0", "text": "1e308", "bytes": 2 * 10**311})  # a size past a float's range
def test_the_bridge_always_answers_valid_json_with_ok(request_: dict[str, Any]) -> None:
    try:
        text = _request_text(request_)
    except ValueError:  # an int past 4,300 digits cannot be written by json.dumps: send the huge one instead
        text = _request_text({"op": request_["op"], "seed": "<huger>"})
    answer = strict_json(handle(text))
    assert isinstance(answer, dict)
    assert isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert isinstance(answer["field"], str)
        assert "\n" not in answer["error"]
        assert "Traceback" not in answer["error"]
        assert "internal error" not in answer["error"], answer  # every refusal names what to fix


def test_the_bridge_answers_a_result_json_cannot_hold() -> None:
    answer = strict_json(handle(json.dumps({"op": "ridge", "hardware": {"id": "custom", "peak_flops": 1e308,
                                                                         "bandwidth": 1e-10}})))
    assert answer["ok"] is False
    assert answer["field"] == "hardware"
    assert "too large" in answer["error"]


# --- 5. what reaches the terminal ------------------------------------------------------------------------------


def test_notes_reach_the_terminal_with_control_characters_escaped(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    notes = "\x1b[2J\x1b[31mred\x07 \x9b31m \u202eevil\ttab"
    path.write_text(json.dumps({"observed": {"kernel_time": "2 us", "gap_time": "8 us", "launches": 40000},
                                "notes": notes}))
    text = run("classify", str(path))
    assert text.returncode == 0, text.stderr
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in text.stdout
    assert "\\x1b[31mred" in text.stdout
    data = run("classify", str(path), "--json")
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in data.stdout
    assert strict_json(data.stdout)["notes"] == notes  # the JSON still carries them, escaped


@pytest.mark.parametrize(("value", "text"), [(1e-300, "1e-300"), (3.3e-5, "3.3e-5"), (5e-324, "4.94e-324"),
                                             (0.000123, "0.000123"), (0.5, "0.5"), (-2.5e-7, "-2.5e-7")])
def test_tiny_numbers_print_in_scientific_notation(value: float, text: str) -> None:
    assert number(value) == text


def test_tiny_quantities_print_in_a_line_a_person_reads() -> None:
    assert format_quantity(8.26e-304, Dim.SECOND) == "8.26e-295 ns"
    out = run("place", "--flops", "1e-280", "--bytes", "1e-280", "--gpu", "l4")
    assert out.returncode == 0, out.stderr
    assert max(len(line) for line in out.stdout.splitlines()) < 200
    assert "FLOPs = 1e-280" in out.stdout


def test_a_file_starting_with_a_bom_is_read(tmp_path: Path) -> None:
    symptoms = json.dumps({"observed": {"kernel_time": "2 us", "gap_time": "8 us", "launches": 40000}})
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + symptoms.encode())
    for out in (run("classify", str(path), "--json"), run("classify", "-", "--json", stdin="\ufeff" + symptoms)):
        assert out.returncode == 0, out.stderr
        assert strict_json(out.stdout)["regime"] == "overhead"
