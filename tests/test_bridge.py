"""The bridge as a contract: every op refuses what it does not read, by name; one documented table; a version."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from regime_core.bridge import trace_ops
from regime_core.bridge.api import OPS, handle
from regime_core.bridge.protocol import PROTOCOL, table
from regime_core.trace.ranks import digest
from regime_core.trace.reading import read_trace
from trace_builder import as_bytes, picket_fence

CONTRIBUTING = Path(__file__).parents[1] / "CONTRIBUTING.md"


@pytest.mark.parametrize("op", list(OPS))
def test_every_op_refuses_an_unknown_field_by_name(op: str) -> None:
    answer = json.loads(handle(json.dumps({"op": op, "gpuu": "l4"})))
    assert answer["ok"] is False
    assert answer["field"] == "gpuu"
    assert f"not a field of the '{op}' request" in answer["error"]


def test_a_misspelt_card_field_is_named_not_read_as_an_empty_card() -> None:
    answer = json.loads(handle('{"op": "ridge", "gpuu": "l4"}'))
    assert answer["error"].startswith("gpuu: ")


@pytest.mark.parametrize("op", ["ridge", "ridge_table", "kernel"])
def test_a_card_in_the_old_top_level_shape_is_refused_by_name(op: str) -> None:
    answer = json.loads(handle(json.dumps({"op": op, "gpu": "l4"})))
    assert answer["field"] == "gpu"
    assert answer["error"].startswith(f"gpu: not a field of the '{op}' request; expected hardware, dtype")


@pytest.mark.parametrize("op", ["ridge", "ridge_table", "kernel"])
def test_every_card_op_reads_the_card_as_the_forms_hold_it(op: str) -> None:
    request = {"op": op, "hardware": {"id": "custom", "peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}}
    if op == "kernel":
        request["work"] = {"kernel": "matmul", "m": "4096", "n": "4096", "k": "4096"}
    answer = json.loads(handle(json.dumps(request)))
    assert answer["ok"] is True, answer
    ridge = answer["placement"]["ridge_text"] if op == "kernel" else answer["ridge_text"]
    assert ridge == "156 FLOP/byte"


def test_an_unknown_op_lists_the_ops() -> None:
    answer = json.loads(handle('{"op": "writeup", "items": {}}'))
    assert answer["field"] == "op"
    assert "grade" in answer["error"]


#: One request each op answers; the kernel twice, as it answers in two shapes.
_READING = read_trace(as_bytes(picket_fence(200))).to_json()
SAMPLES = [
    {"op": "gpus"},
    {"op": "ridge", "hardware": {"id": "l4"}},
    {"op": "ridge_table", "hardware": {"id": "l4"}, "dtype": "fp16"},
    {"op": "part_b_attempt", "ridge": "156 FLOP/byte"},
    {"op": "kernel", "hardware": {"id": "h100-sxm"}, "observed": {"time": "200 us"},
     "work": {"kernel": "matmul", "m": "4096", "n": "4096", "k": "4096"}},
    {"op": "kernel", "hardware": {"id": "h100-sxm"}, "work": {"kernel": "none"}},
    {"op": "classify", "symptoms": {"hardware": "l4", "observed": {"gap_time": "8 ms", "kernel_time": "2 ms"}}},
    {"op": "explore", "item": "a4", "form": {"hardware": {"id": "h100-sxm"}, "work": {"params": "7B"}}},
    {"op": "grade", "items": {"a1": {"regime": "compute"}}},
    {"op": "import_attempt", "text": json.dumps({"part_a": {"a1": {"regime": "compute"}}, "part_b": {}, "part_c": ""})},
    {"op": "hint", "item": "a1"},
    {"op": "trace", "data": base64.b64encode(as_bytes(picket_fence(200), zipped=True)).decode()},
    {"op": "practice", "seed": 4, "level": 1},
    {"op": "practice_check", "seed": 4, "level": 1, "lines": {"regime": "memory"}},
    {"op": "practice_hint", "seed": 4, "level": 1, "rung": 2},
    {"op": "practice_grade", "seed": 4, "level": 1, "lines": {"regime": "memory"}},
    {"op": "class_entry", "file": "ada.json", "text": json.dumps({"part_a": {"a1": {"regime": "compute"}}}), "bytes": 40},
    {"op": "class_report", "entries": [{"kind": "refused", "file": "x.json", "reason": "expected JSON"}]},
    {"op": "trace_diff", "before": _READING, "after": _READING},
    {"op": "rank_digest", "data": base64.b64encode(as_bytes(picket_fence(50))).decode()},
    {"op": "ranks", "digests": [{"file": "rank0.json", "digest": digest(_READING)}], "refused": []},
]


@pytest.mark.parametrize("request_", SAMPLES, ids=[f"{r['op']}-{i}" for i, r in enumerate(SAMPLES)])
def test_every_answer_has_the_keys_its_op_declares(request_: dict[str, object]) -> None:
    answer = json.loads(handle(json.dumps(request_)))
    assert answer["ok"] is True, answer
    assert OPS[str(request_["op"])].answer_problems(answer) == []


def test_every_op_has_a_sample_answer_checked() -> None:
    assert {r["op"] for r in SAMPLES} == set(OPS)


def test_an_answer_missing_a_key_or_carrying_another_is_told() -> None:
    ridge = OPS["ridge"]
    answer = json.loads(handle(json.dumps(SAMPLES[1])))
    assert ridge.answer_problems({**answer, "extra": 1}) == ["undeclared extra"]
    assert ridge.answer_problems({k: v for k, v in answer.items() if k != "ridge_line"}) == ["missing ridge_line"]


def test_the_contributors_guide_documents_every_op_as_the_registry_has_it() -> None:
    assert table(OPS) in CONTRIBUTING.read_text(encoding="utf-8")


def test_the_runtime_manifest_carries_the_protocol(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets" / "regime" / "runtime.json").read_text(encoding="utf-8"))
    assert manifest["protocol"] == str(PROTOCOL)


class _PageBuffer:
    """What a page's Uint8Array is to Python under Pyodide (a JsBuffer): its length, and one copy as bytes."""

    def __init__(self, data: bytes, *, claimed: int | None = None) -> None:
        self._data = data
        self.byteLength = len(data) if claimed is None else claimed
        self.copies = 0

    def to_bytes(self) -> bytes:
        self.copies += 1
        return self._data


def test_a_file_beside_the_request_reads_as_the_same_file_inside_it() -> None:
    data = as_bytes(picket_fence(200), zipped=True)
    inside = json.loads(handle(json.dumps({"op": "trace", "data": base64.b64encode(data).decode()})))
    buffer = _PageBuffer(data)
    beside = json.loads(handle('{"op": "trace"}', buffer))
    assert inside["ok"] is True
    assert beside == inside
    assert buffer.copies == 1
    assert json.loads(handle('{"op": "trace"}', data)) == inside  # bytes, as CPython callers pass them


@pytest.mark.parametrize("op", ["trace", "rank_digest"])
def test_the_page_bounds_what_a_trace_unzips_to(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's tab holds the text: past the page's limit a trace is refused, gzipped or not (a gzip bomb stops)."""
    monkeypatch.setattr(trace_ops, "MAX_TRACE_BYTES", 1000)
    for zipped in (True, False):
        answer = json.loads(handle(json.dumps({"op": op}), as_bytes(picket_fence(200), zipped=zipped)))
        assert answer["ok"] is False
        assert "at most 0 MB of trace here" in answer["error"]


@pytest.mark.parametrize(
    ("request_", "data", "says"),
    [('{"op": "gpus"}', b"{}", "data: expected no file beside a 'gpus' request"),
     ('{"op": "trace", "data": "e30="}', b"{}", "data: expected the file once: beside the request, or in it"),
     ('{"op": "trace"}', 12, "data: expected the trace file's bytes"),
     ('{"op": "trace"}', "e30=", "data: expected the trace file's bytes"),
     ('{"op": "trace"}', _PageBuffer(b"{}", claimed=33 * 2**20), "data: expected a trace of at most 32 MB on this page"),
     ('{"op": "trace"}', b"", "trace: expected a JSON trace; the file is empty")],
    ids=["op-without-files", "both", "an-int", "text", "too-large", "empty"],
)
def test_a_file_beside_the_request_is_refused_by_name_where_it_does_not_fit(request_: str, data: object,
                                                                            says: str) -> None:
    answer = json.loads(handle(request_, data))
    assert answer["ok"] is False
    assert answer["error"].startswith(says), answer
    if isinstance(data, _PageBuffer):
        assert data.copies == 0  # refused before the copy


def test_the_stretch_says_an_unmeasured_kernels_leaning_as_the_lesson_places_it() -> None:
    # The lesson: below the ridge a kernel leans memory-bound; only a measured time decides. The stretch's
    # regime line says the same of a batch-1 decode with no time, and decides once a time on its roof is given.
    decode = {"op": "kernel", "hardware": {"id": "h100-sxm"}, "work": {"kernel": "decode", "params": "7B", "batch": "1"}}
    unmeasured = json.loads(handle(json.dumps(decode)))
    assert unmeasured["verdict"]["regime"] is None
    assert unmeasured["verdict"]["lines"][0]["text"] == "undecided, leaning memory-bound — measure this next"
    floor = unmeasured["verdict"]["placement"]["floor_seconds"]
    measured = json.loads(handle(json.dumps({**decode, "observed": {"time": f"{floor * 1.1 * 1e3:.3f} ms"}})))
    assert measured["verdict"]["regime"] == "memory"
    assert measured["verdict"]["lines"][0]["text"] == "memory-bound"
