"""The trace reader: a Kineto / Chrome trace in, the classifier's verdict out, with what the trace measured."""

from __future__ import annotations

import gc
import gzip
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regime_core.bridge import trace_ops
from regime_core.bridge.api import handle
from regime_core.errors import RegimeError
from regime_core.grading.review import trace_review
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.trace import events as events_module
from regime_core.trace import source as trace_source
from regime_core.trace.events import Events, GpuSpan, read_events
from regime_core.trace.reading import card_of, read_trace, text
from regime_core.trace.timeline import coverage, timeline, union
from trace_builder import PATTERNS, Trace, as_bytes, gemm_bound, picket_fence

ROOT = Path(__file__).resolve().parent.parent
# Real traces from Meta's HolisticTraceAnalysis (MIT), where the steering repository's shared/ holds them
# (fetched data is not committed to this repository): shared/traces/hta/*.json.gz beside the checkout.
HTA = sorted(p for base in (ROOT / "shared", ROOT.parent / "shared") for p in (base / "traces" / "hta").glob("*.gz"))


def _reading(trace: dict[str, Any]) -> dict[str, Any]:
    return read_trace(as_bytes(trace)).to_json()


@pytest.mark.parametrize(
    ("pattern", "regime", "says"),
    [("picket_fence", "overhead", "idles 80%"), ("sync_stall", "overhead", "host syncs"),
     ("loader_starved", "overhead", "data loader"), ("comm_exposed", "communication", "interconnect"),
     ("gemm_bound", "compute", "70% of peak FLOP/s"), ("bandwidth_bound", "memory", "80% of peak bandwidth"),
     ("graph_captured", None, "record_shapes=True")],
)
def test_each_pattern_reads_as_its_regime(pattern: str, regime: str | None, says: str) -> None:
    out = _reading(PATTERNS[pattern]())
    assert out["regime"] == regime
    assert says in json.dumps(out), out


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_the_derived_symptoms_classify_to_the_same_regime(pattern: str) -> None:
    out = _reading(PATTERNS[pattern]())
    assert classify(parse_symptoms(out["trace"]["symptoms"])).regime == out["regime"]


def test_the_json_has_every_classify_key_and_the_trace_facts() -> None:
    out = _reading(picket_fence())
    classify_keys = set(classify(parse_symptoms({"observed": {"launches": 40000, "kernel_time": "2 µs",
                                                                "gap_time": "8 µs"}})).to_json())
    assert classify_keys <= set(out)
    assert {"busy", "kernels", "launches", "card", "steps", "syncs", "comm_share", "ops", "symptoms"} <= set(out["trace"])
    assert out["trace"]["card"] == "h100-sxm"
    assert out["trace"]["kernels"] == out["trace"]["launches"] == 2000
    assert out["trace"]["busy"] == pytest.approx(0.2, abs=0.001)


def test_a_gemm_with_recorded_shapes_gets_2mnk_flops_and_its_time() -> None:
    (op,) = _reading(gemm_bound(calls=10, m=4096, n=2048, k=1024))["trace"]["ops"]
    assert op["flops"] == 2 * 4096 * 2048 * 1024
    assert op["bytes"] == (4096 * 1024 + 1024 * 2048 + 4096 * 2048) * 2
    assert op["calls"] == 10
    assert op["regime"] == "compute"
    assert op["achieved_flops"] == pytest.approx(0.7 * 989.4e12, rel=0.01)


def test_the_trace_s_own_flop_count_is_used_and_said() -> None:
    t = Trace()
    op = t.op(0, 5, "aten::mm", [[1024, 1024], [1024, 1024]], ["c10::BFloat16", "c10::BFloat16"])
    op["args"]["flops"] = 4e9
    t.kernel(20, 100, op=op)
    (row,) = _reading(t.document())["trace"]["ops"]
    assert (row["flops"], row["source"]) == (4e9, "flops")


def test_equal_shapes_are_kept_once_and_each_shape_is_its_own_row() -> None:
    """Ops recording equal shapes share one tuple (a trace repeats a few shapes call after call); the ops table
    still has a row per shape, and a list of shapes (aten::cat's, one level deeper) is kept as recorded."""
    t = Trace()
    for n, size in enumerate((1024, 2048, 1024, 2048, 1024)):
        op = t.op(100 * n, 5, "aten::mm", [[size, 64], [64, size]], ["float", "float"])
        t.kernel(100 * n + 10, 20 + size / 1024, op=op)
    cat = t.op(600, 5, "aten::cat", [[[2, 3], [2, 3]], []], ["TensorList", "Scalar"])
    t.kernel(610, 5, op=cat)
    events = read_events(as_bytes(t.document()))
    small, large, *_ = (op.dims for op in events.ops)
    assert [op.dims is small for op in events.ops[:5]] == [True, False, True, False, True]
    assert [op.dims is large for op in events.ops[:5]] == [False, True, False, True, False]
    assert events.ops[5].dims == ([[2, 3], [2, 3]], [])
    rows = {(op["shape"], op["calls"]) for op in _reading(t.document())["trace"]["ops"]}
    assert rows == {("[[1024, 64], [64, 1024]]", 3), ("[[2048, 64], [64, 2048]]", 2), ("[[[2, 3], [2, 3]]]", 1)}



def _launched_inside(op: dict[str, Any], *, older: bool) -> bytes:
    """A trace whose one kernel is launched while ``op`` runs, linked to no recorded op by its External id: as
    older Kineto traces write it (the External id is the launch's correlation id) or with an id of its own."""
    t = Trace()
    t.events.append(op)
    t.kernel(op["ts"] + 3, 50)
    launch, kernel = t.events[-2:]
    if older:
        for event in (launch, kernel):
            event["args"]["External id"] = event["args"]["correlation"]
    return as_bytes(t.document())


def test_kernels_no_recorded_op_launched_count_as_undecided_gpu_time() -> None:
    """The time share is of all kernel time: a kernel no op claims is time whose regime the trace cannot say."""
    t = Trace()
    op = t.op(0, 5, "aten::mm", [[8192, 8192], [8192, 8192]], ["c10::BFloat16", "c10::BFloat16"])
    t.kernel(10, 1500, op=op)  # 1.1 TFLOP in 1.5 ms: 74% of the H100's dense peak, compute
    t.kernel(1600, 500)  # launched by no op the trace recorded
    assert _reading(t.document())["trace"]["time_share"] == pytest.approx({"compute": 0.75, "undecided": 0.25})


@pytest.mark.parametrize("older", [True, False])
def test_a_kernel_is_found_its_op_by_when_it_was_launched_only_in_an_older_trace(older: bool) -> None:
    """An older trace links a kernel to its op by time alone; a kernel with an External id of its own names its op,
    and where that op was not recorded, the op around the launch is not its op (its shapes are not the work)."""
    op = {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10,
          "args": {"External id": 999, "Input Dims": [[64, 64], [64, 64]], "Input type": ["float", "float"]}}
    rows = read_trace(_launched_inside(op, older=older)).to_json()["trace"]["ops"]
    assert [(row["name"], row["calls"]) for row in rows] == ([("aten::mm", 1)] if older else [])

def test_busy_is_the_union_over_streams_and_devices() -> None:
    t = Trace()
    t.kernel(0, 100, stream=7)
    t.kernel(50, 100, stream=8)  # overlaps the first: counted once
    t.kernel(300, 100, stream=7)
    tl = timeline(read_events(as_bytes(t.document())))
    assert tl.busy == pytest.approx(250e-6)
    assert tl.length == pytest.approx(400e-6)
    assert tl.gaps == pytest.approx((150e-6,))


def test_a_step_is_read_alone() -> None:
    t = Trace()
    for n in range(3):
        t.host(n * 1000, 1000, f"ProfilerStep#{n + 7}", "user_annotation")
        t.kernel(n * 1000 + 100, 100 if n != 1 else 800)
    out = read_trace(as_bytes(t.document()), step=8).to_json()
    assert out["trace"]["busy"] == pytest.approx(0.8, abs=0.01)
    with pytest.raises(RegimeError, match=r"ProfilerStep#99.*7, 8, 9"):
        read_trace(as_bytes(t.document()), step=99)


def test_the_facts_count_in_words_that_agree_with_the_number() -> None:
    one = Trace()
    one.kernel(100, 50)
    reading = read_trace(as_bytes(one.document()))
    assert "1 kernel, 1 launch (0 graph launches)" in text(reading)
    assert "(GPU busy 100.0% of a 50 µs window, 1 kernel, on NVIDIA H100 SXM5 80 GB)" in trace_review(reading.verdict, reading.facts, "u")
    assert "2,000 kernels, 2,000 launches (0 graph launches)" in text(read_trace(as_bytes(picket_fence())))


@pytest.mark.parametrize(("device", "says"), [
    ("NVIDIA H100 80GB HBM3", "card: NVIDIA H100 SXM5 80 GB (the trace's 'NVIDIA H100 80GB HBM3')"),
    ("AMD Instinct MI300X VF", "card: AMD Instinct MI300X 192 GB (the trace's 'AMD Instinct MI300X VF')"),
    ("Mystery GPU", "card: unknown ('Mystery GPU')"),
    ("", "card: not named in the trace")])
def test_the_card_is_said_by_its_name_beside_the_trace_s_own(device: str, says: str) -> None:
    t = Trace(device)
    t.kernel(100, 50)
    assert says in text(read_trace(as_bytes(t.document())))


def test_rocm_names_and_gzip_read_the_same() -> None:
    t = Trace("AMD Instinct MI300X VF")
    for n in range(100):
        t.kernel(n * 10, 2, launch="hipLaunchKernel")
    out = read_trace(as_bytes(t.document(), zipped=True)).to_json()
    assert out["trace"]["card"] == "mi300x"
    assert out["trace"]["launches"] == 100
    assert out["regime"] == "overhead"


@pytest.mark.parametrize(("name", "card"), [("NVIDIA H100 80GB HBM3", "h100-sxm"), ("NVIDIA A100-SXM4-80GB", "a100-80gb-sxm"),
                                            ("NVIDIA GeForce RTX 4090", "rtx-4090"), ("AMD Radeon Graphics", None),
                                            ("NVIDIA A100", None), ("", None)])
def test_a_device_name_maps_to_the_catalogue_or_is_said_unknown(name: str, card: str | None) -> None:
    found, said = card_of((name,))
    assert (found.id if found else None, said) == (card, name)


@pytest.mark.parametrize(
    ("data", "says"),
    [(b"", "the file is empty"), (b" \n", "the file is empty"), (gzip.compress(b"", mtime=0), "empty once unzipped"), (b"{\"traceEvents\": [", "stops being JSON"), (b"\xff\xfe\x00", "neither"),
     (b"[1, 2]", "no GPU activity"), (b"{\"traceEvents\": 5}", "traceEvents"), (gzip.compress(b"{}", mtime=0)[:-9], "cut short"),
     (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 20, "damaged"), (b"[" * 100_000, "nested"),
     (json.dumps({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 0, "dur": 5}]}).encode(),
      "no GPU activity"),
     (json.dumps({"schema": "1.0.1", "pid": 7, "nodes": [{"name": "aten::mm", "id": 5, "input_shapes": [[2, 3]]}],
                  "finish_ts": 9}).encode(), "a PyTorch execution trace .* the profiler's own trace"),
     (json.dumps({"traceEvents": [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 0, "dur": 5,
                                   "args": {"correlation": 9}}] * 2}).encode(),
      "records 2 kernel launches on the host but no GPU activity"),
     (json.dumps({"traceEvents": [{"ph": "X", "cat": "cuda_profiler_range", "name": "gemm", "ts": 0, "dur": 900,
                                   "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 4}}]}).encode(),
      "CUPTI range-profiler counters for 1 kernel, not the kernels' times")],
    ids=["empty", "blank", "empty-gzip", "cut-json", "not-utf8", "bare-list", "no-events-list", "cut-gzip", "damaged-gzip", "deep", "cpu-only",
         "execution-trace", "launches-only", "range-profiler"],
)
def test_bad_traces_are_one_line_naming_what_is_wrong(data: bytes, says: str) -> None:
    with pytest.raises(RegimeError, match=says) as error:
        read_trace(data)
    assert "\n" not in str(error.value)


def test_events_without_usable_times_are_counted_and_left_out() -> None:
    t = Trace()
    t.kernel(0, 10)
    t.events += [{"ph": "X", "cat": "kernel", "name": "k", "ts": 5, "dur": -3},
                 {"ph": "X", "cat": "kernel", "name": "k", "ts": "x", "dur": 1},
                 {"ph": "X", "cat": "kernel", "name": "k", "ts": 5},
                 {"ph": "X", "cat": "strange_category", "name": "k", "ts": 5, "dur": 1}, "not an event", 7]
    t.events += [{"ph": "X", "cat": "kernel", "name": "k", "ts": 10**400, "dur": 1},  # beyond any float
                 {"ph": "X", "cat": "kernel", "name": "k", "ts": 5, "dur": float("nan")},
                 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 5, "dur": 1, "args": {"flops": 10**400}}]
    out = _reading(t.document())
    assert out["trace"]["skipped_events"] == 5
    assert out["trace"]["kernels"] == 1


_ODD = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.integers(10**300, 10**400),
                 st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["5", "x", "1e400", "-2"]),
                 st.lists(st.integers(0, 4), max_size=2))
_TIME = st.one_of(st.floats(-10, 1e9, allow_nan=False), st.integers(-10, 10**9), st.integers(10**300, 10**400),
                  st.integers(-10**400, -10**300),
                  st.sampled_from([math.nan, math.inf, -math.inf, 1e301, -0.0]))
_ARGS = st.fixed_dictionaries({}, optional={
    "correlation": st.one_of(st.integers(0, 10), _ODD), "External id": st.one_of(st.integers(0, 10), _ODD),
    "device": _ODD, "stream": _ODD, "flops": _ODD, "Input Dims": st.just([[2, 3], [3, 4]]),
    "Input type": st.just(["float", "float"])})
# Events of the shape the shortcut takes, with every value that must send it the careful way.
_WELL_FORMED = {"ph": st.just("X"), "ts": _TIME, "dur": _TIME,
                "cat": st.sampled_from(["kernel", "cpu_op", "cuda_runtime", "gpu_memcpy", "cuda_sync", "user_annotation",
                                        "python_function", ""]),
                "name": st.sampled_from(["aten::mm", "cudaLaunchKernel", "ncclAllReduce", "ProfilerStep#3",
                                         "cudaDeviceSynchronize", "aten::item", "enumerate(DataLoader)#x.__next__",
                                         "k" * 600]),
                "args": _ARGS}
_ANY = {key: st.one_of(value, _ODD) for key, value in _WELL_FORMED.items()}


@given(st.one_of(st.fixed_dictionaries(_WELL_FORMED), st.fixed_dictionaries(_ANY),
                 st.fixed_dictionaries({}, optional=_ANY), _ODD))
@settings(max_examples=500)
def test_the_fast_and_the_careful_reading_of_an_event_keep_the_same(event: dict[str, Any]) -> None:
    """``add`` takes a shortcut for well-formed events and hands the rest to ``_add``: each event, either way,
    leaves the same things kept."""
    fast, careful = events_module._Collector(), events_module._Collector()
    fast.add(event)
    careful._add(event)
    kept = ("gpu", "launches", "syncs", "ops", "steps", "loader", "graphs", "skipped")
    assert repr([getattr(fast, k) for k in kept]) == repr([getattr(careful, k) for k in kept])


def test_a_trace_past_a_callers_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """The page bounds what it reads (a browser tab); a limit given is held to the file's size, then the text's."""
    plain = as_bytes(picket_fence())
    with pytest.raises(RegimeError, match=f"got {len(plain) / 2**20:.0f} MB"):
        read_trace(trace_source.Pieces(plain, 1000))
    path = tmp_path / "big.json"
    path.write_bytes(plain)
    with path.open("rb") as handle, pytest.raises(RegimeError, match="at most"):
        read_trace(trace_source.Pieces(handle, 1000))
    with pytest.raises(RegimeError, match="once unzipped"):
        read_trace(trace_source.Pieces(as_bytes(picket_fence(), zipped=True), 1000))
    with pytest.raises(RegimeError, match="got more"):  # a pipe has no size to check first: it stops at the limit
        read_trace(trace_source.Pieces(io.BufferedReader(io.BytesIO(plain)), 1000))  # type: ignore[arg-type]


def test_without_a_limit_a_trace_of_any_size_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line and the profiler handler give none: the page's limit does not apply to them."""
    monkeypatch.setattr(trace_source, "MAX_TRACE_BYTES", 1000)
    plain = as_bytes(picket_fence())
    assert len(plain) > 1000
    assert read_trace(plain).verdict.regime == read_trace(io.BufferedReader(io.BytesIO(plain))).verdict.regime  # type: ignore[arg-type]


def test_clock_skew_between_streams_does_not_make_negative_gaps() -> None:
    t = Trace()
    t.kernel(1000, 100, stream=7)
    t.kernel(-500, 100, stream=8)  # a stream whose clock runs behind
    tl = timeline(read_events(as_bytes(t.document())))
    assert all(g >= 0 for g in tl.gaps)
    assert tl.busy + sum(tl.gaps) == pytest.approx(tl.length)


@pytest.mark.parametrize("step", [None, 1])
def test_a_kernel_that_lasted_no_time_does_not_split_a_gap(step: int | None) -> None:
    t = Trace()
    t.host(0, 1000, "ProfilerStep#1", cat="user_annotation")
    for start, duration in ((0, 100), (300, 0), (600, 100), (800, 0), (800, 50), (1000, 0)):
        t.kernel(start, duration)
    events = read_events(as_bytes(t.document()))
    tl = timeline(events, window=None if step is None else events.steps[0][1][1:])
    assert tl.gaps == pytest.approx((500e-6, 100e-6, 150e-6))  # none split at 300 µs or ended at 800
    assert tl.kernels == (6 if step is None else 5)  # the step's window ends as the last kernel starts


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "regime_core", "trace", *args], input=stdin, capture_output=True,
                          timeout=120, check=False)


def test_the_command_reads_a_file_or_stdin_and_prints_json(tmp_path: Path) -> None:
    path = tmp_path / "trace.pt.trace.json.gz"
    path.write_bytes(as_bytes(gemm_bound(), zipped=True))
    out = _cli(str(path), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["regime"] == "compute"
    piped = _cli("-", stdin=as_bytes(picket_fence()))
    assert piped.returncode == 0
    assert b"GPU busy 20.0%" in piped.stdout


@pytest.mark.parametrize(("args", "says"), [(("missing.json",), b"cannot read"), (("-", "--step", "x"), b"--step"),
                                            (("-",), b"this file is none of them")])
def test_the_command_refuses_in_one_line_with_status_2(args: tuple[str, ...], says: bytes) -> None:
    out = _cli(*args, stdin=b"not json")
    assert out.returncode == 2
    assert says in out.stderr
    assert out.stderr.count(b"\n") == 1


def _independent_busy(path: Path) -> float:
    """Busy share by a sweep over the raw events: +1 at each GPU activity's start, -1 at its end."""
    raw = json.loads(gzip.decompress(path.read_bytes()))
    edges = sorted(edge for e in (raw["traceEvents"] if isinstance(raw, dict) else raw)
                   if isinstance(e, dict) and e.get("ph") == "X"
                   and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset")  # 2021 too
                   for edge in ((float(e["ts"]), 1), (float(e["ts"]) + float(e["dur"]), -1)))
    depth, busy, last = 0, 0.0, edges[0][0]
    for at, step in edges:
        if depth > 0:
            busy += at - last
        depth, last = depth + step, at
    return busy / (edges[-1][0] - edges[0][0])


@pytest.mark.skipif(not HTA, reason="the HTA traces live in the steering repository's shared/traces/hta/"
                                    " (fetched data is not committed here); none are there yet")
@pytest.mark.parametrize("path", HTA, ids=[p.name[:40] for p in HTA])
def test_real_traces_read_to_an_independent_busy_share(path: Path) -> None:
    data = path.read_bytes()
    if b'"nodes"' in gzip.GzipFile(fileobj=io.BytesIO(data)).read(4096):  # an execution trace (HTA reads one beside)
        with pytest.raises(RegimeError, match="execution trace"):
            read_trace(data)
        return
    if not read_events(data).gpu:
        with pytest.raises(RegimeError, match=r"no GPU activity|range-profiler counters"):
            read_trace(data)
        return
    out = read_trace(data).to_json()
    assert out["trace"]["busy"] == pytest.approx(_independent_busy(path), abs=0.01)
    assert classify(parse_symptoms(out["trace"]["symptoms"])).regime == out["regime"]


def test_union_merges_touching_and_nested_intervals() -> None:
    assert union([(5, 6), (0, 2), (1, 3), (3, 4), (0.5, 0.6)]) == [(0, 4), (5, 6)]


_spans = st.lists(st.tuples(st.integers(0, 200), st.integers(0, 40)).map(lambda p: (float(p[0]), float(p[0] + p[1]))),
                  max_size=30)


@settings(max_examples=300, deadline=None)
@given(intervals=_spans, windows=_spans)
def test_coverage_in_one_sweep_is_the_overlap_window_by_window(intervals: list[tuple[float, float]],
                                                                 windows: list[tuple[float, float]]) -> None:
    merged, ordered = union(intervals), union(windows)  # coverage asks for ordered windows that do not overlap
    naive = [sum(max(0.0, min(b, end) - max(a, start)) for a, b in merged) for start, end in ordered]
    assert coverage(merged, ordered) == pytest.approx(naive)


@settings(max_examples=300, deadline=None)
@given(intervals=_spans)
def test_the_timeline_merges_spans_in_start_order_as_union_does(intervals: list[tuple[float, float]]) -> None:
    # Events keeps spans sorted by start only: equal starts come in any order of their ends.
    gpu = tuple(sorted((GpuSpan("k", a, b) for a, b in intervals), key=lambda s: s.start))
    if not gpu:
        return
    tl = timeline(Events(gpu, (), 0, (), (), (), (), ()))
    assert tl.other_spans == union(intervals)
    assert tl.busy == pytest.approx(sum(b - a for a, b in union(intervals)))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_is_off_until_the_reading_is_freed_and_then_as_found(
        enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Back on beside the millions of objects a read made while it was off, it would walk them all.
    held: list[bool] = []
    real = trace_ops.read_profile

    def watched(*args: Any) -> Any:
        reading = real(*args)
        held.append(gc.isenabled())
        return reading

    monkeypatch.setattr(trace_ops, "read_profile", watched)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        read = json.loads(handle('{"op": "trace"}', as_bytes(gemm_bound())))
        refused = json.loads(handle('{"op": "trace"}', b"{not a trace"))
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert (read["ok"], refused["ok"]) == (True, False)
    assert held == [False]
    assert after is enabled
