"""The same requests give the same answers under CPython and under Pyodide (in Node), with the wheel
and the trimmed standard library the site serves: a module the trimming left out fails here."""

from __future__ import annotations

import base64
import gzip
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from regime_core.bridge.api import handle
from regime_core.catalogue import hardware
from regime_core.content import drill
from regime_core.trace.ranks import digest
from regime_core.trace.reading import read_trace
from test_diff import stepped
from test_ranks import job
from test_trace_eras import in_2021_spelling
from test_trace_formats import as_gpu_trace_csv, as_nsys_sqlite, as_rocprof_json
from test_trace_ncu import ncu_details, raw_page
from trace_builder import as_bytes, loader_starved, picket_fence, sync_stall

ROOT = Path(__file__).resolve().parent.parent


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = {"a1": value}
    return value


def _requests() -> list[object]:
    reqs: list[object] = [{"op": "gpus"}]
    reqs += [{"op": "ridge", "hardware": {"id": card_id}} for card_id in hardware.catalogue()]
    reqs += [{"op": "ridge_table", "hardware": {"id": "l4"}},
             {"op": "ridge_table", "hardware": {"id": "custom", "peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}}]
    reqs += [{"op": "classify", "symptoms": item.symptoms_raw} for item in drill.incidents()]
    reqs += [
        {"op": "kernel", "hardware": {"id": "h100-sxm"}, "work": {"kernel": "prefill", "params": "8e9", "tokens": "4096"}},
        {"op": "kernel", "hardware": {"id": "custom", "peak_flops": "100 TFLOP/s", "bandwidth": "1 TB/s"},
         "work": {"kernel": "elementwise", "shape": "8x32x32", "ops": "4"}, "observed": {"time": "12 us"}},
        {"op": "part_b_attempt", "ridge": "156", "kernels": {"add": {"intensity": "0.33", "side": "below"},
                                                               "matmul": {"intensity": "1365", "side": "above"},
                                                               "decode": {"intensity": "1", "side": "below"}}},
        {"op": "ridge", "hardware": {"id": "custom", "peak_flops": "<img src=x onerror=alert(1)>", "bandwidth": "2 TB/s"}},
        {"op": "ridge", "hardware": {"id": "custom", "peak_flops": "1e400", "bandwidth": "2 TB/s"}},
        {"op": "nope"},
        "not an object",
        # Nested deeper than Pyodide's WebAssembly stack goes (a fatal error there; RecursionError here): both
        # refuse it by name before parsing, the import and the grade request alike.
        {"op": "import_attempt", "text": '{"part_a": ' * 3000 + "{}" + "}" * 3000},
        {"op": "import_attempt", "text": "[" * 20_000 + "]" * 20_000},
        {"op": "grade", "items": _nested(900)},  # json.dumps itself stops near 1,000
    ]
    # Practice: the generator must write the same incident from a seed under both (random.Random seeded by text).
    reqs += [{"op": "practice", "seed": seed, "level": 1 + seed % 3} for seed in range(0, 3000, 100)]
    reqs += [{"op": "practice_grade", "seed": 7, "level": 2, "lines": {"regime": "undecided", "helps": "time it"}}]
    # Every trace format, read by the page's worker as by the command line: Nsight Systems' SQLite export (the
    # browser's sqlite3), a GPU trace CSV, and a 2021 Kineto trace.
    with tempfile.TemporaryDirectory() as tmp:
        exported = as_nsys_sqlite(sync_stall(20), Path(tmp) / "run.sqlite").read_bytes()
    # And Nsight Compute's per-kernel counters, the details page and the raw one.
    for raw in (exported, as_gpu_trace_csv(picket_fence(50), flavour="rocprof"),
                gzip.compress(as_rocprof_json(picket_fence(50))),  # rocprofv3's JSON, its records streamed
                as_bytes(in_2021_spelling(loader_starved(5)), zipped=True),
                ncu_details([("sgemm", 500.0, 88, 30, 2), ("pointwise", 90.0, 9, 91, 3)]), raw_page()):
        reqs.append({"op": "trace", "data": base64.b64encode(raw).decode()})
    # The page's ranks: a rank's trace into its digest, and a straggler set's digests merged.
    straggler = job(4, compute={2: 2700.0})
    reqs.append({"op": "rank_digest", "data": base64.b64encode(as_bytes(straggler[0], zipped=True)).decode()})
    reqs.append({"op": "ranks", "refused": [{"file": "notes.json", "reason": "expected a JSON trace"}],
                 "digests": [{"file": f"rank{r}.json", "digest": digest(read_trace(as_bytes(t)).to_json())}
                             for r, t in enumerate(straggler)]})
    # The page's diff of two readings, as regime diff gives it.
    reqs += [{"op": "trace_diff", "before": read_trace(as_bytes(stepped(loader_us=6000))).to_json(),
              "after": read_trace(as_bytes(stepped())).to_json()}]
    reqs += [{"op": "class_entry", "file": "a.json", "text": json.dumps({"part_a": {"a3": {"regime": "memory"}}}),
              "bytes": 40}]
    return reqs


def test_cpython_and_pyodide_agree(tmp_path: Path, built_site: Path) -> None:
    assert shutil.which("node"), "Node.js is required (it comes with npm, which `make setup` needs)"
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    wheel = built_site / "assets/regime" / manifest["wheel"]
    stdlib = (built_site / "assets/regime" / manifest["stdlib"]).resolve()
    assert stdlib.stat().st_size < (ROOT / "node_modules/pyodide/python_stdlib.zip").stat().st_size / 2  # trimmed
    requests = _requests()
    requests_file = tmp_path / "requests.json"
    requests_file.write_text(json.dumps(requests))
    out = subprocess.run(["node", str(ROOT / "tests/pyodide_node.mjs"), str(wheel), str(requests_file), str(stdlib)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert result["python"].startswith("3.14")
    expected = [handle(json.dumps(r)) for r in requests]
    assert len(result["responses"]) == len(expected)
    for request, got, want in zip(requests, result["responses"], expected, strict=True):
        assert json.loads(got) == json.loads(want), request
