"""rocprofv3's JSON read a record at a time: its records never stand whole in memory, in whatever order its keys come.

rocprofv3 keeps its records four levels down (``rocprofiler-sdk-tool``, a run, ``buffer_records``, a kind); the
reader streams those lists past as it streams Kineto's ``traceEvents`` and keeps each record as the few fields it is
read for. The layout is the one ``test_trace_formats.as_rocprof_json`` writes (as real runs show it).
"""

from __future__ import annotations

import gzip
import json
import tracemalloc
from typing import Any

import pytest

from regime_core.errors import RegimeError
from regime_core.trace import source
from regime_core.trace.events import read_events
from regime_core.trace.reading import read_trace
from trace_builder import as_bytes, picket_fence


def _run(kernels: list[tuple[str, float, float]], *, records_first: bool = False) -> dict[str, Any]:
    """One rocprofv3 run of these kernels (name, start µs, duration µs), its keys in the order given."""
    names = sorted({name for name, _, _ in kernels})
    dispatches = [{"size": 96, "kind": 11, "operation": 1, "thread_id": 4242,
                   "correlation_id": {"internal": n + 1, "external": 0},
                   "start_timestamp": round(start * 1000), "end_timestamp": round((start + took) * 1000),
                   "dispatch_info": {"size": 64, "agent_id": {"handle": 7}, "queue_id": {"handle": 1},
                                     "kernel_id": names.index(name), "dispatch_id": n + 1,
                                     "grid_size": {"x": 1024, "y": 1, "z": 1}}}
                  for n, (name, start, took) in enumerate(kernels)]
    records = {"buffer_records": {"kernel_dispatch": dispatches, "memory_copy": [], "hip_api": [],
                                  "scratch_memory": [{"size": 1, "flags": [0, 1]}]}}  # a kind not read
    rest = {"metadata": {"pid": 1}, "agents": [{"id": {"handle": 6}, "type": 1, "product_name": "AMD EPYC"},
                                                {"id": {"handle": 7}, "type": 2, "gpu_index": 0,
                                                 "product_name": "AMD Instinct MI300X"}],
            "kernel_symbols": [{"kernel_id": i, "formatted_kernel_name": n} for i, n in enumerate(names)],
            "strings": {"buffer_records": [{"kind": "HIP_RUNTIME_API", "operations": ["hipLaunchKernel"]}]}}
    return {**records, **rest} if records_first else {**rest, **records}


def _kernels(trace: dict[str, Any]) -> list[tuple[str, float, float]]:
    return [(e["name"], e["ts"], e["dur"]) for e in trace["traceEvents"] if e["cat"] == "kernel"]


def _reading(document: Any) -> dict[str, Any]:
    return read_trace(json.dumps(document).encode()).to_json()["trace"]


def test_records_before_the_names_they_use_read_as_records_after_them() -> None:
    kineto = picket_fence()
    theirs = read_trace(as_bytes(kineto)).to_json()["trace"]
    after = _reading({"rocprofiler-sdk-tool": [_run(_kernels(kineto))]})
    before = _reading({"rocprofiler-sdk-tool": [_run(_kernels(kineto), records_first=True)]})
    assert before == after
    assert after["kernels"] == theirs["kernels"]
    assert after["busy"] == pytest.approx(theirs["busy"])
    assert after["card_name"] == "AMD Instinct MI300X 192 GB"
    one_run = _reading({"rocprofiler-sdk-tool": _run(_kernels(kineto), records_first=True)})  # a run, not a list
    assert one_run == after


def test_two_runs_keep_their_own_records_and_names() -> None:
    first = _run([("gemm_a", 100.0, 50.0), ("gemm_a", 200.0, 50.0)])
    second = _run([("relu_b", 400.0, 5.0)], records_first=True)
    events = read_events(json.dumps({"rocprofiler-sdk-tool": [first, second]}).encode())
    assert [s.name for s in events.gpu] == ["gemm_a", "gemm_a", "relu_b"]


def test_a_large_export_is_read_in_a_fraction_of_what_parsing_it_whole_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """10,000 dispatches (3.4 MB of JSON) in pieces of 64 KB, as a large file's are to the 4 MB pieces: the reading's
    peak stays under half of json.loads's (1.04× when the records were parsed whole; at 200,000 dispatches in 4 MB
    pieces, 0.17×)."""
    monkeypatch.setattr(source, "PIECE", 64 * 1024)
    kernels = [(f"k{n % 50}", 1000.0 + n * 10.0, 6.0) for n in range(10_000)]
    raw = gzip.compress(json.dumps({"rocprofiler-sdk-tool": [_run(kernels)]}).encode(), 1)
    tracemalloc.start()
    json.loads(gzip.decompress(raw))
    whole = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    events = read_events(raw)
    streamed = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(events.gpu) == 10_000
    assert streamed < whole / 2, (streamed, whole)


@pytest.mark.parametrize(("text", "says"), [
    (b'{"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [{"start_timestamp": 1, ',
     "stops being JSON at line 1"),
    (b'{"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [1, 2}}]}', "stops being JSON"),
    (b'{"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": {"a": 1}}}]}', "kernel_dispatch to be a list"),
    (b'{"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [' + b"[" * 150 + b"]" * 150 + b"]}}]}",
     "nested more than 100 levels"),
    (b'{"rocprofiler-sdk-tool": [{"agents": []}, 3]}', "no kernel dispatches"),
])
def test_a_broken_export_says_what_is_wrong_in_one_line(text: bytes, says: str) -> None:
    with pytest.raises(RegimeError, match=says) as caught:
        read_trace(text)
    assert "\n" not in str(caught.value)
