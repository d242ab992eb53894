"""The trace read a piece at a time: the same events whatever the pieces' size, the file never held whole,
and a file that stops being JSON said where it does, without reading the rest."""

from __future__ import annotations

import gc
import gzip
import io
import json
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regime_core.errors import RegimeError
from regime_core.trace import source as trace_source
from regime_core.trace import stream as trace_stream
from regime_core.trace.events import read_events
from regime_core.trace.reading import read_trace
from trace_builder import PATTERNS, Trace, as_bytes, picket_fence


def _forms(trace: dict[str, Any]) -> dict[str, bytes]:
    """One trace written the ways profilers and people write it."""
    events_last = {k: v for k, v in trace.items() if k != "traceEvents"} | {"traceEvents": trace["traceEvents"]}
    return {"compact": as_bytes(trace), "indented": json.dumps(trace, indent=2).encode(),
            "events-last": json.dumps(events_last).encode(), "bom": b"\xef\xbb\xbf" + as_bytes(trace),
            "bare-list": json.dumps(trace["traceEvents"]).encode(), "gzipped": as_bytes(trace, zipped=True),
            "unicode": json.dumps(trace, ensure_ascii=False).encode().replace(b"synthetic", "syntheé✓".encode())}


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("piece", [1, 2, 3, 7, 64, 4099])
def test_any_piece_size_reads_the_same_events(monkeypatch: pytest.MonkeyPatch, pattern: str, piece: int) -> None:
    trace = PATTERNS[pattern]()
    trace["traceEvents"] = trace["traceEvents"][:60]  # pieces of one byte: keep it small
    trace["traceEvents"].append({"ph": "X", "cat": "kernel", "name": "n" * 300, "ts": 12345678901234, "dur": 1.5e-3,
                                 "args": {"device": 0, "stream": 7, "note": 'a "quoted" ]}, [{ bracket \\ '}})
    whole = {name: read_events(data) for name, data in _forms(trace).items()}
    monkeypatch.setattr(trace_source, "PIECE", piece)
    for name, data in _forms(trace).items():
        assert read_events(data) == whole[name], name
        assert read_events(io.BytesIO(data)) == whole[name], name
    # Every form reads alike (a bare list has no header, so no card).
    assert all(events == whole["compact"] for name, events in whole.items() if name != "bare-list")
    assert whole["bare-list"].gpu == whole["compact"].gpu


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(min_value=1, max_value=400), piece=st.sampled_from([1, 5, 16, 333]),
       tail=st.sampled_from(["", ', "extra": 12345']))
def test_a_cut_short_file_is_said_at_the_place_it_stops(cut: int, piece: int, tail: str) -> None:
    text = json.dumps(picket_fence(10), indent=1)
    data = (text[:-1] + tail + "}").encode()[:-cut]  # a header value after the events may be what is cut
    with pytest.raises(RegimeError) as whole:
        read_events(data)
    original = trace_source.PIECE
    trace_source.PIECE = piece  # hypothesis reruns the body: no function-scoped monkeypatch here
    try:
        with pytest.raises(RegimeError) as pieced:
            read_events(data)
    finally:
        trace_source.PIECE = original
    assert str(pieced.value) == str(whole.value)
    assert "\n" not in str(whole.value)
    try:  # where the standard library's parser, reading the whole text at once, says it stops
        json.loads(data)
    except json.JSONDecodeError as exc:
        assert f"at line {exc.lineno}, column {exc.colno} " in str(whole.value)


class _Counting(io.BytesIO):
    """A file that counts what was read from it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size: int | None = -1, /) -> bytes:
        out = super().read(size)
        self.taken += len(out)
        return out


def test_a_file_that_stops_being_json_early_is_said_without_reading_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace_source, "PIECE", 4096)
    good = json.dumps(picket_fence(20_000), indent=1)
    broken = good[:3000] + "} oops {" + good[3000:]
    handle = _Counting(broken.encode())
    with pytest.raises(RegimeError, match="stops being JSON at line") as error:
        read_events(handle)
    assert handle.taken < 64 * 1024, handle.taken  # of a ~2.5 MB file
    line = broken[:broken.index("} oops")].count("\n") + 1
    assert f"at line {line}," in str(error.value)


def test_deep_nesting_in_a_later_piece_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace_source, "PIECE", 1024)
    trace = picket_fence(300)
    trace["traceEvents"].append({"ph": "X", "cat": "kernel", "name": "deep", "ts": 1, "dur": 1,
                                 "args": {"x": "PLACEHOLDER"}})
    text = json.dumps(trace).replace('"PLACEHOLDER"', "[" * 5000 + "]" * 5000)
    with pytest.raises(RegimeError, match="not nested more than 100 levels deep"):
        read_events(text.encode())
    with pytest.raises(RegimeError, match="not nested more than 100 levels deep"):
        read_events(gzip.compress(text.encode(), mtime=0))


def test_a_file_is_read_without_holding_it_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Events the reader does not keep pass through; what stays is what it keeps, not the file or its text."""
    monkeypatch.setattr(trace_source, "PIECE", 256 * 1024)  # what a piece costs is fixed: small beside this file
    t = Trace()
    t.kernel(100, 50)
    for n in range(120_000):
        t.events.append({"ph": "X", "cat": "python_function", "name": f"frame {n % 50}", "ts": 100 + n, "dur": 1,
                         "args": {"Python id": n, "Python parent id": n - 1}})
    path = tmp_path / "mostly-python.json"
    path.write_bytes(as_bytes(t.document()))
    size = path.stat().st_size
    tracemalloc.start()
    try:
        with path.open("rb") as handle:
            events = read_events(handle)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(events.gpu) == 1
    assert size > 10 * 2**20
    assert peak < 0.25 * size, (peak, size)  # whole, the bytes and their text alone were twice the file


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_a_reading_is_freed_by_reference_counting_alone(monkeypatch: pytest.MonkeyPatch, pattern: str) -> None:
    """No cycle is left behind, not even where an event straddles two pieces (the decoder stops at the window's
    edge there): one would hold every event read until the cycle collector ran, which, for a large trace in
    the browser, was seconds of its reading."""
    monkeypatch.setattr(trace_source, "PIECE", 1024)  # many window edges, some inside a string
    data = as_bytes(PATTERNS[pattern](), zipped=True)
    gc.collect()
    gc.disable()
    try:
        reading = read_trace(data)
        assert reading.timeline.kernels > 0
        del reading
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0


_TRAPS = ("},", "}, {", "}],", "\"},\"", "\\},", "{", "]", ",", " ")


def _trapped_trace(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A trace whose names, args and later keys are full of '},': a batch cut at a wrong one is not JSON."""
    rng = random.Random(seed)
    t = Trace()
    for n in range(1500):
        trapped = rng.random() < 0.05  # as in a kernel's name (...{lambda(float)#1}, 4>): now and then
        name = "".join(rng.choice(_TRAPS) if trapped and rng.random() < 0.5 else "k" for _ in range(rng.randrange(12)))
        if n % 500 == 250:  # a name longer than a stretch, all '},': a stretch ends inside it
            name = "}, {" * 5000
        t.kernel(100 + 20 * n, 5, name or "kernel")
        if rng.random() < 0.05:  # an op whose args nest objects ('},' inside an event) and lists
            op = t.op(100 + 20 * n - 10, 4, "aten::mm", [[64, 32], [32, 64]], ["float", "float"])
            op["args"]["nested"] = {"a": {"b": {}}, "c": [{}, {"d": name}], "e": name}
    document = t.document() | {"after": {"x": {"y": {}}, "z": [{}, {}]}}  # '},' past the array's end too
    return document, t.events


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("piece", [65536, 2**20, trace_source.PIECE])
def test_events_decoded_many_at_a_time_are_the_events_decoded_one_by_one(monkeypatch: pytest.MonkeyPatch,
                                                                         seed: int, piece: int) -> None:
    """Whole events are decoded a stretch at a time, cut at a '},'; cut where that is not an event's end, the
    stretch is read event by event: the events kept are the same either way."""
    document, events = _trapped_trace(seed)
    data = json.dumps(document, indent=rng_indent if (rng_indent := seed % 2 + 1) > 1 else None).encode()
    monkeypatch.setattr(trace_source, "PIECE", piece)
    whole = trace_stream._whole_elements
    batches: list[int] = []  # events decoded in each stretch; -1 for a stretch refused (cut at no event's end)

    def counted(text: str, at: int) -> tuple[list[Any] | None, int] | None:
        found = whole(text, at)
        if found is not None:
            batches.append(-1 if found[0] is None else len(found[0]))
        return found

    monkeypatch.setattr(trace_stream, "_whole_elements", counted)
    handed: list[Any] = []
    reader = trace_stream.Reader(trace_source.Pieces(data))
    reader.read(handed.append)
    assert handed == events  # every event, once, in order, as json decodes it
    assert reader.header["after"] == document["after"]
    assert sum(n for n in batches if n > 0) > len(events) / 2  # most of them a stretch at a time
    assert -1 in batches  # and some stretches refused: a cut inside a string or an event
    batched = read_events(data)
    monkeypatch.setattr(trace_stream, "_whole_elements", lambda _text, _at: None)
    assert read_events(data) == batched


def test_lists_and_objects_where_numbers_belong_are_read_as_text() -> None:
    t = Trace()
    t.kernel(100, 50)
    t.events.append({"ph": "X", "cat": "kernel", "name": "odd", "pid": [0], "tid": {"x": 1}, "ts": 200, "dur": 5,
                     "args": {"device": [0], "stream": {"s": 7}, "correlation": [3], "External id": {"e": 1}}})
    t.events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "tid": [1], "ts": 190, "dur": 2,
                     "args": {"correlation": 3}})
    t.events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "tid": [1], "ts": 180, "dur": 30,
                     "args": {"Input Dims": [[2, 2], [2, 2]], "Input type": [["float"], "float"]}})
    events = read_events(as_bytes(t.document()))
    odd = next(span for span in events.gpu if span.name == "odd")
    assert (odd.device, odd.stream, odd.correlation, odd.external) == ("[0]", "{'s': 7}", None, None)
    assert [call.thread for call in events.launches] == ["1", "[1]"]
    assert events.ops[0].types == (["float"], "float")
