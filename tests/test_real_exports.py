"""Real profiler exports that this project did not write, read to what an independent count of their rows gives.

The files come from public, permissively licensed repositories (their sources, commits and licences are in
``PROVENANCE.md`` beside them). Fetched data is not committed here: the steering repository's
``shared/traces/real/`` holds them, in folders by kind (``ncu``, ``nsys``, ``rocprof``, ``kineto``,
``kineto_multirank``), and a kind not yet placed is skipped with that reason.

Each count here is made from the file's own rows, without the reader: a sweep over the GPU intervals for the busy
share (within one percentage point), the kernel rows for the kernel count (equal), ncu's Speed of Light rows for
each kernel's shares.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from regime_core.cli.main import main as cli_main
from regime_core.errors import RegimeError
from regime_core.trace.reading import read_profile, read_trace
from test_trace import _independent_busy

ROOT = Path(__file__).resolve().parent.parent
REAL = next((base / "traces" / "real" for base in (ROOT / "shared", ROOT.parent / "shared")
             if (base / "traces" / "real").is_dir()), None)


def _files(kind: str, pattern: str = "*") -> list[Path]:
    return sorted((REAL / kind).glob(pattern)) if REAL is not None and (REAL / kind).is_dir() else []


def _skip_unless(files: list[Path], kind: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not files, reason=f"real {kind} exports live in the steering repository's"
                                                f" shared/traces/real/{kind}/ (fetched data is not committed here)")


def _busy(intervals: Iterable[tuple[float, float]]) -> tuple[float, int]:
    """The busy share of the intervals' own window, by a sweep over their union, and how many there are."""
    ordered = sorted(intervals)
    busy, (start, end) = 0.0, ordered[0]
    for a, b in ordered[1:]:
        if a > end:
            busy, start, end = busy + end - start, a, b
        else:
            end = max(end, b)
    busy += end - start
    return busy / (max(b for _, b in ordered) - ordered[0][0]), len(ordered)


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def _reading(path: Path) -> dict[str, Any]:
    out: dict[str, Any] = read_trace(path.read_bytes()).to_json()["trace"]
    return out


NSYS = _files("nsys", "*.sqlite")


@_skip_unless(NSYS, "nsys")
@pytest.mark.parametrize("path", NSYS, ids=[p.stem[:40] for p in NSYS])
def test_an_nsys_export_reads_to_its_own_kernel_and_copy_rows(path: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "export.sqlite"
        copy.write_bytes(path.read_bytes())
        con = sqlite3.connect(copy)
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        kernels = con.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchall()
        others = [row for table in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET") if table in tables
                  for row in con.execute(f"SELECT start, end FROM {table}")]
        names = [name for (name,) in con.execute("SELECT name FROM TARGET_INFO_GPU")]
        con.close()
    reading = _reading(path)
    busy, _ = _busy([*kernels, *others])
    assert reading["kernels"] == len(kernels)
    assert reading["busy"] == pytest.approx(busy, abs=0.01)
    assert reading["device"] in names


ROCPROF_V1 = [p for p in _files("rocprof", "*.csv") if {"BeginNs", "EndNs"} <= set(_rows(p)[0])]
ROCPROF_V3 = [p for p in _files("rocprof", "*.csv") if {"Start_Timestamp", "Kernel_Name"} <= set(_rows(p)[0])]


@_skip_unless(ROCPROF_V1 + ROCPROF_V3, "rocprof")
@pytest.mark.parametrize("path", ROCPROF_V1 + ROCPROF_V3, ids=[p.stem[:40] for p in ROCPROF_V1 + ROCPROF_V3])
def test_a_rocprof_kernel_trace_reads_to_its_own_dispatch_rows(path: Path) -> None:
    begin, end = ("BeginNs", "EndNs") if path in ROCPROF_V1 else ("Start_Timestamp", "End_Timestamp")
    busy, count = _busy((float(r[begin]), float(r[end])) for r in _rows(path))
    reading = _reading(path)
    assert reading["kernels"] == count
    assert reading["busy"] == pytest.approx(busy, abs=0.01)


ROCPROF_JSON = _files("rocprof", "*.json.gz")


@_skip_unless(ROCPROF_JSON, "rocprof")
@pytest.mark.parametrize("path", ROCPROF_JSON, ids=[p.stem[:40] for p in ROCPROF_JSON])
def test_rocprofv3_json_reads_to_its_own_dispatches_and_names_its_gpu(path: Path) -> None:
    run = json.loads(gzip.decompress(path.read_bytes()))["rocprofiler-sdk-tool"][0]
    dispatches = run["buffer_records"]["kernel_dispatch"]
    busy, count = _busy((r["start_timestamp"], r["end_timestamp"]) for r in dispatches)
    reading = _reading(path)
    assert reading["kernels"] == count
    assert reading["busy"] == pytest.approx(busy, abs=0.01)
    used = {r["dispatch_info"]["agent_id"]["handle"] for r in dispatches}
    assert reading["device"] in {a["product_name"] for a in run["agents"] if a["id"]["handle"] in used}


SUMMARIES = [p for kind in ("nsys", "rocprof") for p in _files(kind, "*.csv")
             if p not in ROCPROF_V1 + ROCPROF_V3]


@_skip_unless(SUMMARIES, "nsys")
@pytest.mark.parametrize("path", SUMMARIES, ids=[p.stem[:40] for p in SUMMARIES])
def test_a_report_without_a_timeline_is_named_with_the_export_that_has_one(path: Path) -> None:
    with pytest.raises(RegimeError, match=r"^trace: this is an? .*(?:totals|ranges).*(?:timeline|export)"):
        read_trace(path.read_bytes())


NCU = _files("ncu")


def _speed_of_light(path: Path) -> dict[str, dict[str, float]]:
    """Each kernel launch's Speed of Light shares and duration, from the rows of that section alone."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("==")]
    header = next(i for i, line in enumerate(lines) if '"Kernel Name"' in line)
    found: dict[str, dict[str, float]] = {}
    for row in csv.DictReader(lines[header:]):
        if row.get("Section Name") == "GPU Speed Of Light Throughput" and row.get("Metric Unit") in ("%", "ns", "us"):
            value = float(row["Metric Value"].replace(",", ""))
            scale = {"%": 0.01, "ns": 1e-9, "us": 1e-6}[row["Metric Unit"]]
            found.setdefault(row["ID"], {})[row["Metric Name"]] = value * scale
    return found


@_skip_unless(NCU, "ncu")
@pytest.mark.parametrize("path", NCU, ids=[p.stem[:40] for p in NCU])
def test_an_ncu_report_reads_each_kernel_from_its_speed_of_light_rows(path: Path) -> None:
    expected = _speed_of_light(path)
    if not expected:  # a section of another kind alone (the roofline chart's points): named, with the export
        with pytest.raises(RegimeError, match="--page details"):
            read_profile(path.read_bytes())
        return
    facts = read_profile(path.read_bytes()).to_json()["trace"]
    assert facts["launches"] == len(expected)
    for op, launch in zip(facts["ops"], expected.values(), strict=False):
        assert op["sm_throughput"] == pytest.approx(launch["Compute (SM) Throughput"])
        assert op["memory_throughput"] == pytest.approx(launch["Memory Throughput"])  # the section's %, not GB/s
        assert op["time"] == pytest.approx(launch["Duration"])
        peak = max(launch["Compute (SM) Throughput"], launch["Memory Throughput"])
        assert (op["regime"] is None) == (peak < 0.6)


KINETO = _files("kineto", "*.json.gz")


@_skip_unless(KINETO, "kineto")
@pytest.mark.parametrize("path", KINETO, ids=[p.stem[:40] for p in KINETO])
def test_a_kineto_trace_of_any_era_reads_to_its_own_gpu_events(path: Path) -> None:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    events = raw["traceEvents"] if isinstance(raw, dict) else raw
    reading = _reading(path)
    assert reading["kernels"] == sum(1 for e in events if isinstance(e, dict) and e.get("ph") == "X"
                                     and e.get("cat") in ("kernel", "Kernel"))
    assert reading["busy"] == pytest.approx(_independent_busy(path), abs=0.01)  # the HTA traces' own sweep


RANKS = _files("kineto_multirank", "*.json.gz")


@_skip_unless(RANKS, "kineto_multirank")
def test_ranks_of_one_run_are_read_together_and_the_missing_ones_named(capsys: pytest.CaptureFixture[str]) -> None:
    infos = [json.loads(gzip.decompress(p.read_bytes()))["distributedInfo"] for p in RANKS]
    assert cli_main(["ranks", "--json", *map(str, RANKS)]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert sorted(r["rank"] for r in merged["ranks"]) == sorted(i["rank"] for i in infos)
    missing = infos[0]["world_size"] - len(RANKS)
    assert any(note.startswith(f"{missing} of {infos[0]['world_size']} ranks missing") for note in merged["notes"])
