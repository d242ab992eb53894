"""Every profiler's file read to the same facts: Nsight Systems' SQLite export and CSV reports, rocprof's CSVs.

Real Nsight Systems and rocprof files (MIT-licensed, in the steering repository's ``shared/traces/real/``) are read
in ``test_real_exports.py``; they may not ship here, so these fixtures are written from the formats' documentation
and those real files: NVIDIA's "SQLite Export Schema Reference" (tables ``StringIds``,
``CUPTI_ACTIVITY_KIND_KERNEL``/``_MEMCPY``/``_MEMSET``/``_RUNTIME``, ``NVTX_EVENTS``, ``TARGET_INFO_GPU``; times in
ns; runtime names with their ``_v7000`` suffix), ``nsys stats``' ``cuda_gpu_trace`` columns, and rocprofv3's
``kernel_trace.csv`` header as ROCm's documentation prints it, and rocprofv3's JSON as a real run writes it. Each test writes a Kineto trace with trace_builder,
writes the same run in the other format, and holds the two readings' timelines equal; what a format cannot carry
(op shapes) its coverage says.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regime_core.errors import RegimeError
from regime_core.trace.reading import read_trace
from trace_builder import NSYS_SCHEMA, as_bytes, comm_exposed, gemm_bound, loader_starved, picket_fence, sync_stall

_TIMELINE = ("busy", "window", "kernels", "launches", "graph_launches", "steps", "syncs", "gaps", "comm_share",
             "loader_share", "card_name")


def as_nsys_sqlite(trace: dict[str, Any], path: Path) -> Path:
    """The run of a Kineto trace as ``nsys export --type sqlite`` writes it (ns; names in StringIds)."""
    con = sqlite3.connect(path)
    con.executescript(NSYS_SCHEMA)
    ids: dict[str, int] = {}

    def string(text: str) -> int:
        if text not in ids:
            ids[text] = len(ids) + 1
            con.execute("INSERT INTO StringIds VALUES (?, ?)", (ids[text], text))
        return ids[text]

    def ns(us: float) -> int:
        return round(us * 1000)

    for e in trace["traceEvents"]:
        start, end = ns(e["ts"]), ns(e["ts"] + e["dur"])
        args = e.get("args", {})
        if e["cat"] == "kernel":
            con.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,1,?,?,1,?,?,1,1)",
                        (start, end, args.get("device", 0), args.get("stream", 7), args.get("correlation"),
                         string(e["name"]), string(e["name"][:20])))
        elif e["cat"] == "cuda_runtime":
            con.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,0,?,?,?,0)",
                        (start, end, e.get("tid", 1), args.get("correlation"), string(e["name"] + "_v7000")))
        elif e["cat"] == "user_annotation":  # steps and the loader, as NVTX push/pop ranges (eventType 59)
            con.execute("INSERT INTO NVTX_EVENTS VALUES (?,?,59,0,0,0,?,?,?,NULL,0)",
                        (start, end, e["name"], e.get("tid", 1), e.get("tid", 1)))
    con.execute("INSERT INTO TARGET_INFO_GPU VALUES (0, ?, '0000:00:00.0', 85899345920)",
                (trace["deviceProperties"][0]["name"],))
    con.commit()
    con.close()
    return path


def as_gpu_trace_csv(trace: dict[str, Any], *, flavour: str) -> bytes:
    """The GPU's side of a Kineto trace as ``nsys stats --report cuda_gpu_trace`` or rocprofv3's kernel trace."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if flavour == "nsys":
        writer.writerow(["Start (ns)", "Duration (ns)", "CorrId", "GrdX", "Device", "Ctx", "Strm", "Name"])
    else:
        writer.writerow(["Kind", "Agent_Id", "Queue_Id", "Kernel_Id", "Kernel_Name", "Correlation_Id",
                         "Start_Timestamp", "End_Timestamp", "Private_Segment_Size", "Group_Segment_Size"])
    for e in trace["traceEvents"]:
        if e["cat"] != "kernel":
            continue
        start, took = round(e["ts"] * 1000), round(e["dur"] * 1000)
        corr = e["args"].get("correlation", 0)
        if flavour == "nsys":
            writer.writerow([start, took, corr, 1, 0, 1, e["args"].get("stream", 7), e["name"]])
        else:
            writer.writerow(["KERNEL_DISPATCH", "Agent 4", 1, 9, e["name"], corr, start, start + took, 0, 0])
    return out.getvalue().encode()


def _timeline(reading: dict[str, Any]) -> dict[str, Any]:
    trace = reading["trace"]
    return {key: pytest.approx(trace[key], rel=1e-6) if isinstance(trace[key], float) else trace[key]
            for key in _TIMELINE}


@pytest.mark.parametrize("build", [picket_fence, sync_stall, loader_starved, comm_exposed],
                         ids=lambda b: b.__name__)
def test_an_nsys_export_reads_as_the_same_run_in_kineto(build: Any, tmp_path: Path) -> None:
    kineto = build()
    theirs = read_trace(as_bytes(kineto)).to_json()
    ours = read_trace(as_nsys_sqlite(kineto, tmp_path / "run.sqlite").read_bytes()).to_json()
    assert _timeline(ours) == _timeline(theirs)
    assert (ours["regime"], ours["evidence"]) == (theirs["regime"], theirs["evidence"])


def test_an_nsys_export_holds_no_shapes_and_its_coverage_says_so(tmp_path: Path) -> None:
    kineto = gemm_bound()
    assert read_trace(as_bytes(kineto)).to_json()["regime"] == "compute"
    ours = read_trace(as_nsys_sqlite(kineto, tmp_path / "gemm.sqlite").read_bytes()).to_json()
    assert ours["trace"]["card_name"] == "NVIDIA H100 SXM5 80 GB"  # from TARGET_INFO_GPU
    assert ours["regime"] is None  # the GPU is busy, but without shapes nothing places its kernels
    assert "shapes" in ours["needs"]
    assert ours["trace"]["coverage"]["placed"] == 0
    assert ours["trace"]["coverage"]["no_op"] == pytest.approx(1)


@pytest.mark.parametrize("flavour", ["nsys", "rocprof"])
@pytest.mark.parametrize("build", [picket_fence, comm_exposed], ids=lambda b: b.__name__)
def test_a_gpu_trace_csv_reads_as_the_gpus_side_of_the_run(build: Any, flavour: str) -> None:
    kineto = build()
    theirs = read_trace(as_bytes(kineto)).to_json()["trace"]
    ours = read_trace(as_gpu_trace_csv(kineto, flavour=flavour)).to_json()["trace"]
    for key in ("busy", "window", "kernels", "gaps", "comm_share"):
        assert ours[key] == (pytest.approx(theirs[key]) if isinstance(theirs[key], float) else theirs[key]), key
    assert ours["launches"] == 0  # a GPU trace holds no host calls


def as_rocprof_json(trace: dict[str, Any]) -> bytes:
    """A Kineto trace's kernels as rocprofv3 writes them with --output-format json (its layout as real runs show it)."""
    names = sorted({e["name"] for e in trace["traceEvents"] if e["cat"] == "kernel"})
    dispatches = [{"kind": 11, "correlation_id": {"internal": i, "external": 0},
                   "start_timestamp": round(e["ts"] * 1000), "end_timestamp": round((e["ts"] + e["dur"]) * 1000),
                   "dispatch_info": {"agent_id": {"handle": 7}, "queue_id": {"handle": 1},
                                     "kernel_id": names.index(e["name"])}}
                  for i, e in enumerate(e for e in trace["traceEvents"] if e["cat"] == "kernel")]
    run = {"agents": [{"id": {"handle": 6}, "type": 1, "product_name": "AMD EPYC"},
                      {"id": {"handle": 7}, "type": 2, "gpu_index": 0, "product_name": "AMD Instinct MI300X"}],
           "kernel_symbols": [{"kernel_id": i, "formatted_kernel_name": n} for i, n in enumerate(names)],
           "strings": {"buffer_records": [{"kind": "HIP_RUNTIME_API", "operations": ["hipLaunchKernel"]}]},
           "buffer_records": {"kernel_dispatch": dispatches, "memory_copy": [], "hip_api": []}}
    return json.dumps({"rocprofiler-sdk-tool": [run]}).encode()


@pytest.mark.parametrize("zipped", [False, True])
@pytest.mark.parametrize("build", [picket_fence, comm_exposed], ids=lambda b: b.__name__)
def test_rocprofv3_json_reads_as_the_gpus_side_of_the_run_and_names_its_card(build: Any, zipped: bool) -> None:
    kineto = build()
    theirs = read_trace(as_bytes(kineto)).to_json()["trace"]
    raw = as_rocprof_json(kineto)
    ours = read_trace(gzip.compress(raw) if zipped else raw).to_json()["trace"]
    for key in ("busy", "window", "kernels", "gaps", "comm_share"):
        assert ours[key] == (pytest.approx(theirs[key]) if isinstance(theirs[key], float) else theirs[key]), key
    assert ours["card_name"] == "AMD Instinct MI300X 192 GB"  # agents of type 2, by their product name


@pytest.mark.parametrize(("document", "says"), [
    ({"rocprofiler-sdk-tool": [{"agents": []}]}, "no kernel dispatches"),
    ({"rocprofiler-sdk-tool": "run"}, "no kernel dispatches"),
    ({"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": {}}}]}, "kernel_dispatch to be a list"),
    ({"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": []}}]}, "no kernel dispatches: run it with"),
])
def test_a_rocprofv3_json_that_cannot_be_read_says_what_it_lacks(document: dict[str, Any], says: str) -> None:
    with pytest.raises(RegimeError, match=says) as caught:
        read_trace(json.dumps(document).encode())
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("text", "says"), [
    (b'"Time (%)","Total Time (ns)","Instances","Avg (ns)","Name"\n61.2,1000,3,333,"gemm"\n',
     "cuda_gpu_trace"),
    (b'"Name","Calls","TotalDurationNs","AverageNs","Percentage"\n"gemm",3,1000,333,100\n', "results.csv"),
    (b'"Start (ns)","End (ns)","Duration (ns)","DurChild (ns)","Name"\n1,2,1,0,"step"\n', "no kernels"),
    (b'==PROF== Connected to process 1\n"ID","Kernel Name","Section Name","Metric Name","Metric Unit",'
     b'"Metric Value"\n0,"gemm","SOL","Duration","ns",100\n', "Nsight Compute"),
    (b"a,b,c\n1,2,3\n", "none of them"),
    (b"\x00\x01PK\x03\x04 binary report", "none of them"),
    (b"\x00\x01NVIDIA Nsight report", r"an Nsight Compute CSV \(ncu --csv\)"),  # every format read is named
    (b"SQLite format 3\x00" + b"\x00" * 200, "SQLite"),
])
def test_a_file_of_another_kind_is_named_with_what_to_export(text: bytes, says: str) -> None:
    with pytest.raises(RegimeError, match=says) as caught:
        read_trace(text)
    assert "\n" not in str(caught.value)


def test_a_sqlite_database_that_is_no_nsys_export_is_told_apart(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (id INT)")
    con.commit()
    con.close()
    with pytest.raises(RegimeError, match="has neither"):
        read_trace(other.read_bytes())


def test_the_command_reads_an_nsys_export_by_its_content_not_its_name(tmp_path: Path) -> None:
    path = as_nsys_sqlite(sync_stall(), tmp_path / "report.json")  # a misleading name: the content decides
    run = subprocess.run([sys.executable, "-m", "regime_core", "trace", str(path)], capture_output=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert b"host syncs: 50" in run.stdout


def test_an_nsys_export_s_rows_without_whole_times_are_skipped_and_counted(tmp_path: Path) -> None:
    """Rows read a block at a time: one kernel that ends before it starts and one launch that ends before it starts are left
    out and counted, as the Kineto reader counts its events without whole times; the rest read as before."""
    path = as_nsys_sqlite(picket_fence(), tmp_path / "run.sqlite")
    whole = read_trace(path.read_bytes()).to_json()["trace"]
    con = sqlite3.connect(path)
    con.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (5000000, 4000000, 0, 1, 7, NULL, 1, 1, 1, 1, 1)")
    con.executescript("CREATE TABLE r AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 1;"
                      " UPDATE r SET end = start - 1; INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM r;")
    con.commit()
    con.close()
    skipped = read_trace(path.read_bytes()).to_json()["trace"]
    assert skipped["skipped_events"] == whole["skipped_events"] + 2
    assert (skipped["kernels"], skipped["launches"], skipped["busy"]) == (whole["kernels"], whole["launches"],
                                                                          whole["busy"])
