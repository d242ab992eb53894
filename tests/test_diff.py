"""`regime diff`: two traces, before and after a change; the verdict on the change and the gate for CI.

The traces are written for each test with trace_builder (steps marked as torch.profiler marks them), so each
test states the change it makes; the last reads a real pair from HolisticTraceAnalysis's TraceDiff tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from regime_core.trace.diff import diff, gate, markdown, per_step, step_time
from regime_core.trace.reading import read_trace
from trace_builder import (
    GEMM_US,
    Trace,
    as_bytes,
    bandwidth_bound,
    comm_exposed,
    gemm_bound,
    gemms_then_adds,
    graph_captured,
    picket_fence,
    sync_stall,
)

HTA = Path(__file__).resolve().parents[2] / "shared" / "traces" / "hta"


def stepped(steps: int = 8, *, loader_us: float = 0.0, gemms: int = 1, adds: int = 0, add_us: float = 400.0,
            jitter: float = 0.0, launches: int = 0) -> dict[str, object]:
    """``steps`` steps, each: a data-loader wait, ``gemms`` GEMMs, ``adds`` fp32 adds of 8×4096×4096 (each
    ``add_us``), and ``launches`` tiny kernels; step n lasts ``jitter`` × (n mod 3 − 1) longer (step-to-step
    noise). The first step is a warm-up twice as long."""
    t = Trace()
    at = 100.0
    for n in range(steps):
        start = at
        at += loader_us
        if n == 0:
            at += GEMM_US
        at = gemms_then_adds(t, at, gemms, adds, add_us)
        for _ in range(launches):
            t.kernel(at, 2, "void tiny_kernel")
            at += 10
        at += jitter * (n % 3 - 1)
        t.host(start, at - start, f"ProfilerStep#{n}", "user_annotation")
        if loader_us:
            t.host(start, loader_us, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation")
        at += 5
    return t.document()


def _read(trace: dict[str, object]) -> dict[str, object]:
    return read_trace(as_bytes(trace)).to_json()


def test_the_loader_fixed_moves_the_step_from_overhead_to_compute_and_says_so() -> None:
    result = diff(_read(stepped(loader_us=6000)), _read(stepped()))
    change = result["change"]
    assert change["regime"] == {"before": "overhead", "after": "compute"}
    assert change["verdict"] == "faster"
    assert change["step_time"]["ratio"] == pytest.approx((GEMM_US + 1 + 5) / (6000 + GEMM_US + 1 + 5), rel=0.02)
    assert change["step_time"]["steps"] == {"before": 7, "after": 7}  # the warm-up step left out
    assert change["per_step"]["loader"]["after"] < 0.01 * change["per_step"]["loader"]["before"]
    text = change["text"]
    assert "moved from overhead / host-bound to compute-bound" in text
    assert "idle waiting on the data loader" in text.split("What moved:", 1)[1]
    assert set(result) == {"before", "after", "change"}
    assert result["after"]["trace"]["busy"] > 0.9  # each side exactly what regime trace --json gives


def test_a_change_inside_the_step_to_step_spread_is_no_change_and_says_the_spread() -> None:
    before = _read(stepped(jitter=200))  # ±200 µs on a ~1.6 ms step: a spread of ~±12%
    after = _read(stepped(jitter=200, adds=0, loader_us=100))  # 100 µs longer: ~+6%, inside it
    change = diff(before, after)["change"]
    assert change["verdict"] == "no change"
    assert 0.1 < change["step_time"]["spread"] < 0.15
    assert "spread is ±1" in change["text"]
    assert gate(change, max_slowdown=0.05) == []  # no gate fails on noise
    slower = diff(before, _read(stepped(jitter=200, loader_us=600)))["change"]  # ~+38%: beyond it
    assert slower["verdict"] == "slower"
    assert len(gate(slower, max_slowdown=0.05)) == 1
    assert gate(slower, max_slowdown=0.5) == []  # slower, but within what the gate allows


def test_an_op_sped_up_that_held_little_of_the_step_is_said_with_amdahls_arithmetic() -> None:
    # Four GEMMs and one add a step; the add made twice as fast holds ~6% of the step: ~3% at most to gain.
    before, after = _read(stepped(gemms=4, adds=1, add_us=400)), _read(stepped(gemms=4, adds=1, add_us=200))
    change = diff(before, after)["change"]
    add = next(op for op in change["ops"] if op["name"] == "aten::add")
    assert add["time_per_call"]["before"] / add["time_per_call"]["after"] == pytest.approx(2, rel=0.01)
    assert "aten::add got 2.0× faster per call, but it held 6% of the step: at most 6% × (1 − 1/2.0) = 3." \
        in change["text"]
    comment = markdown(diff(before, after))
    assert "| op and shapes | GPU time a step | time a call | achieved FLOP/s · bandwidth |" in comment
    add_row = next(line for line in comment.splitlines() if line.startswith("| aten::add "))
    assert "400 µs → 200 µs" in add_row  # its time a call, before → after


def test_a_regression_names_its_launches() -> None:
    change = diff(_read(stepped()), _read(stepped(launches=400)))["change"]
    assert change["verdict"] == "slower"
    assert "Launches a step rose from 1 to 401." in change["text"]


def test_expect_regime_fails_the_gate_on_another_regime() -> None:
    change = diff(_read(stepped(loader_us=6000)), _read(stepped()))["change"]
    assert gate(change, expect_regime="compute") == []
    assert gate(change, expect_regime="memory") == ["the after trace reads compute-bound, not memory-bound"]


def test_markdown_is_a_pull_request_comment() -> None:
    text = markdown(diff(_read(stepped(loader_us=6000)), _read(stepped())))
    lines = text.splitlines()
    assert lines[0] == "### Regime: faster, step −79% (overhead / host-bound → compute-bound)"
    assert lines[2:4] == ["| | before | after | change |", "| --- | ---: | ---: | ---: |"]
    assert lines[5] == "| regime | overhead / host-bound | compute-bound |  |"
    paragraph = lines[lines.index("") + 1:].copy()
    assert any("moved from overhead / host-bound to compute-bound" in line for line in paragraph)
    assert lines[-1].startswith("| aten::mm [[8192, 8192], [8192, 8192]] |")  # then the ops that moved most


def test_step_time_is_the_median_of_the_steady_steps() -> None:
    trace = {"window": 1.0, "steps": [{"step": 0, "time": 9.0}, {"step": 1, "time": 1.0}, {"step": 2, "time": 3.0},
                                      {"step": 3, "time": 2.0}]}
    assert step_time(trace) == {"median": 2.0, "spread": 0.5, "steps": 3, "warmup": True}
    assert step_time({"window": 0.5, "steps": []}) == {"median": 0.5, "spread": None, "steps": 0, "warmup": False}


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", "diff", *args], capture_output=True, text=True,
                          timeout=120, check=False, cwd=cwd)


def test_the_command_gates_ci_with_exit_status(tmp_path: Path) -> None:
    (tmp_path / "before.json").write_bytes(as_bytes(stepped(loader_us=6000)))
    (tmp_path / "after.json.gz").write_bytes(as_bytes(stepped(), zipped=True))
    passed = _cli("before.json", "after.json.gz", "--max-slowdown", "5%", "--expect-regime", "compute", cwd=tmp_path)
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.startswith("faster: overhead / host-bound → compute-bound")
    failed = _cli("after.json.gz", "before.json", "--max-slowdown", "5%", "--json", cwd=tmp_path)
    assert failed.returncode == 1
    out = json.loads(failed.stdout)
    assert out["change"]["verdict"] == "slower"
    assert out["change"]["gate"]["failed"][0].startswith("the step is ")
    assert set(out["change"]["step_time"]) >= {"before", "after", "ratio", "spread"}
    md = _cli("before.json", "after.json.gz", "--markdown", cwd=tmp_path)
    assert md.stdout.startswith("### Regime: faster")
    (tmp_path / "notes.txt").write_text("not a trace")
    for args, field in ((("before.json", "notes.txt"), "AFTER"), (("nowhere.json", "before.json"), "BEFORE"),
                        (("before.json", "after.json.gz", "--max-slowdown", "lots"), "--max-slowdown"),
                        (("before.json", "after.json.gz", "--expect-regime", "fast"), "--expect-regime")):
        bad = _cli(*args, cwd=tmp_path)
        assert bad.returncode == 2
        assert bad.stderr.startswith(f"regime diff: {field}: expected") or f"{field}: cannot read" in bad.stderr
        assert "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not HTA.is_dir(), reason="the shared HTA traces are not placed here")
def test_a_real_pair_from_hta_trace_diff() -> None:
    before = read_trace((HTA / "trace_diff_control_control.json.gz").read_bytes()).to_json()
    after = read_trace((HTA / "trace_diff_test_test.json.gz").read_bytes()).to_json()
    change = diff(before, after)["change"]
    assert change["step_time"]["steps"] == {"before": 5, "after": 5}  # six steps each, the first left out
    assert change["verdict"] == "slower"
    assert change["step_time"]["ratio"] == pytest.approx(1.59, abs=0.01)
    assert change["per_step"]["launches"]["after"] < change["per_step"]["launches"]["before"]
    assert change["card"] == {"before": "NVIDIA A100-PG509-200", "after": "Tesla V100-SXM2-16GB"}  # as the traces say
    assert change["coverage"]["after"] > 0  # the 16 GB V100 is placed on the catalogue's V100 SXM2 roof
    assert change["per_step"]["other idle"]["before"] > 0.01  # 12.5 ms of launch gaps, not hidden by the collectives
    assert change["text"].startswith("The two traces ran on different GPUs")  # the hardware changed too: said
    assert diff(before, before)["change"]["verdict"] == "no change"


def _back_to_back(steps: int = 50) -> dict[str, object]:
    """sync_stall's kernels with its syncs removed: each 1 ms kernel launched as the last one ends."""
    t = Trace()
    for n in range(steps):
        t.kernel(100 + n * 1001, 1000)
    return t.document()


@pytest.mark.parametrize(("before", "after", "moved"), [
    (sync_stall(50), _back_to_back(50), "idle in host syncs"),  # a sync removed
    (picket_fence(2000), graph_captured(100), "other idle"),  # a picket fence replayed as a CUDA graph
    (bandwidth_bound(calls=150), bandwidth_bound(calls=50), "the GPU's busy time"),  # a chain of three adds fused
], ids=["sync-removed", "graph-captured", "chain-fused"])
def test_each_fix_reads_faster_and_names_what_moved(before: dict[str, object], after: dict[str, object],
                                                     moved: str) -> None:
    change = diff(_read(before), _read(after))["change"]
    assert change["verdict"] == "faster"
    assert change["step_time"]["spread_before"] is None  # no step marks: the whole window, said
    assert "no step-to-step spread measured" in change["text"]
    assert moved in change["text"].split("What moved:", 1)[1]


@pytest.mark.skipif(not HTA.is_dir(), reason="the shared HTA traces are not placed here")
def test_hta_trace_compare_pair_is_no_change_within_its_spread() -> None:
    before = read_trace((HTA / "trace_compare_base_base.json.gz").read_bytes()).to_json()
    after = read_trace((HTA / "trace_compare_test_test.json.gz").read_bytes()).to_json()
    change = diff(before, after)["change"]
    assert change["verdict"] == "no change"
    assert change["step_time"]["ratio"] == pytest.approx(1, abs=0.01)
    assert change["regime"] == {"before": "overhead", "after": "overhead"}
    assert "the step-to-step spread is ±10%" in change["text"]


def _pairs() -> dict[str, tuple[bytes, bytes]]:
    """Every pair the diff is tested on: the synthetic patterns, and HTA's two real pairs where they are placed."""
    pairs = {"loader fixed": (as_bytes(stepped(loader_us=6000)), as_bytes(stepped(adds=1))),
             "sync removed": (as_bytes(sync_stall(50)), as_bytes(_back_to_back(50))),
             "graph captured": (as_bytes(picket_fence(2000)), as_bytes(graph_captured(100))),
             "chain fused": (as_bytes(bandwidth_bound(calls=150)), as_bytes(bandwidth_bound(calls=50))),
             "steps on one side": (as_bytes(stepped()), as_bytes(gemm_bound()))}
    if HTA.is_dir():
        pairs["hta trace_diff"] = ((HTA / "trace_diff_control_control.json.gz").read_bytes(),
                                   (HTA / "trace_diff_test_test.json.gz").read_bytes())
        pairs["hta trace_compare"] = ((HTA / "trace_compare_base_base.json.gz").read_bytes(),
                                      (HTA / "trace_compare_test_test.json.gz").read_bytes())
    return pairs


@pytest.mark.parametrize("pair", list(_pairs()))
def test_the_pages_diff_and_the_commands_are_the_same_words(pair: str, tmp_path: Path) -> None:
    import base64

    from regime_core.bridge.api import handle

    files = dict(zip(("before.json", "after.json"), _pairs()[pair], strict=True))
    readings = {}
    for name, raw in files.items():
        (tmp_path / name).write_bytes(raw)
        answer = json.loads(handle(json.dumps({"op": "trace", "data": base64.b64encode(raw).decode()})))
        readings[name] = {**answer["verdict"], "trace": answer["trace"]}  # what the page keeps of each
    page = json.loads(handle(json.dumps({"op": "trace_diff", "before": readings["before.json"],
                                         "after": readings["after.json"]})))
    command = _cli("before.json", "after.json", "--markdown", cwd=tmp_path)
    assert command.stdout == page["markdown"]
    assert page["headline"] == _cli("before.json", "after.json", cwd=tmp_path).stdout.splitlines()[0]


def test_a_step_is_split_into_parts_that_add_up_to_it_with_collectives_taken_out_of_the_busy_time() -> None:
    """Exposed collectives are GPU time: taken out of the busy time, never out of the idle (else gaps vanish)."""
    trace = read_trace(as_bytes(comm_exposed(20))).to_json()["trace"]
    parts = per_step(trace)
    window = trace["window"] / max(1, len(trace["steps"]))
    assert sum(parts[k] for k in ("busy", "syncs", "loader", "collectives", "other idle")) == pytest.approx(window)
    assert parts["collectives"] == pytest.approx(trace["comm_share"] * window)
    assert parts["busy"] == pytest.approx((trace["busy"] - trace["comm_share"]) * window)
    assert parts["other idle"] == pytest.approx((1 - trace["busy"]) * window - parts["syncs"] - parts["loader"])


def test_steps_on_one_side_only_are_said_first_and_the_step_gate_refuses_to_pass() -> None:
    stepped_side, bare = _read(stepped()), _read(gemm_bound())
    change = diff(stepped_side, bare)["change"]
    assert change["comparable"] is False
    assert change["text"].startswith("Only the before trace marks its steps (ProfilerStep#); the after trace has none")
    assert gate(change, max_slowdown=0.05) == ["the step time cannot be gated: only one of the two traces marks its"
                                               " steps, so a step is set against a whole window"]
    assert gate(change, expect_regime=change["regime"]["after"]) == []  # the regime can still be gated
    same = diff(stepped_side, stepped_side)["change"]
    assert same["comparable"] is True
    assert same["differences"] == []


def test_two_traces_with_few_ops_in_common_are_said_to_be_maybe_different_models() -> None:
    def model(names: list[str]) -> dict[str, object]:
        t = Trace()
        for n, name in enumerate(names * 10):
            op = t.op(100 + n * 50 - 10, 5, name, [[1024, 1024], [1024, 1024]], ["float", "float"])
            t.kernel(100 + n * 50, 20, "void some_kernel", op=op)
        return t.document()

    one = _read(model(["aten::mm", "aten::add", "aten::mul", "aten::relu"]))
    other = _read(model(["aten::conv2d", "aten::max_pool2d", "aten::batch_norm", "aten::relu"]))
    said = diff(one, other)["change"]["differences"]
    assert said == ["The two traces share 1 of their op names (4 before, 4 after): they may run different models, and"
                    " the change compares them as they are."]
    assert diff(one, _read(model(["aten::mm", "aten::add", "aten::mul", "aten::gelu"])))["change"]["differences"] == []


def test_a_new_host_sync_and_an_op_that_lost_bandwidth_are_named_as_regressions() -> None:
    synced = diff(_read(_back_to_back(50)), _read(sync_stall(50)))["change"]
    assert "Host syncs rose from 0 to 50." in synced["text"]
    slowed = diff(_read(bandwidth_bound(efficiency=0.8)), _read(bandwidth_bound(efficiency=0.4)))["change"]
    assert "fell from 2.68 TB/s to 1.34 TB/s of bandwidth." in slowed["text"]
    assert "fell from" not in diff(_read(bandwidth_bound()), _read(bandwidth_bound()))["change"]["text"]


def test_ops_that_appear_or_vanish_are_said_in_words_with_their_time() -> None:
    change = diff(_read(stepped()), _read(stepped(adds=3)))["change"]
    assert "New after the change: aten::add [[8, 4096, 4096], [8, 4096, 4096]] (1.2 ms a step)." in change["text"]
    back = diff(_read(stepped(adds=3)), _read(stepped()))["change"]
    assert "Gone after it: aten::add" in back["text"]
    assert "New after" not in diff(_read(stepped()), _read(stepped()))["change"]["text"]


def test_step_reads_that_step_of_both_and_expect_regime_fails_the_exit_status(tmp_path: Path) -> None:
    (tmp_path / "before.json").write_bytes(as_bytes(stepped(loader_us=6000, jitter=300.0)))
    (tmp_path / "after.json").write_bytes(as_bytes(stepped(jitter=300.0)))
    one = _cli("before.json", "after.json", "--step", "2", "--json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    change = json.loads(one.stdout)["change"]
    steps = {s["step"]: s["time"] for s in read_trace(as_bytes(stepped(loader_us=6000, jitter=300.0))).to_json()
             ["trace"]["steps"]}
    assert change["step_time"]["before"] == pytest.approx(steps[2])  # that step alone, not the median of all
    assert _cli("before.json", "after.json", "--step", "99", cwd=tmp_path).returncode == 2
    expected = _cli("before.json", "after.json", "--expect-regime", "memory", cwd=tmp_path)
    assert expected.returncode == 1
    assert expected.stdout.rstrip().splitlines()[-1] == "gate: the after trace reads compute-bound, not memory-bound"
    assert _cli("before.json", "after.json", "--expect-regime", "compute", cwd=tmp_path).returncode == 0


def test_one_card_named_two_ways_is_the_same_card() -> None:
    """PG509 is the A100 SXM4 40 GB's board: a trace of each name is one card, and the paragraph says no change of it."""
    named = [gemm_bound(), gemm_bound()]
    named[0]["deviceProperties"] = [{"id": 0, "name": "NVIDIA A100-PG509-200"}]
    named[1]["deviceProperties"] = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB"}]
    change = diff(_read(named[0]), _read(named[1]))["change"]
    assert change["same_card"] is True
    assert "different GPUs" not in change["text"]
    named[1]["deviceProperties"] = [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}]
    assert diff(_read(named[0]), _read(named[1]))["change"]["text"].startswith("The two traces ran on different GPUs")


def test_ops_of_the_same_names_but_no_same_shapes_are_said_to_compare_nothing_one_to_one() -> None:
    def model(size: int) -> dict[str, object]:
        t = Trace()
        for n, name in enumerate(["aten::mm", "aten::add", "aten::mul", "aten::relu"] * 5):
            op = t.op(100 + n * 50 - 10, 5, name, [[size, 1024], [1024, size]], ["float", "float"])
            t.kernel(100 + n * 50, 20, "void some_kernel", op=op)
        return t.document()

    said = diff(_read(model(1024)), _read(model(2048)))["change"]["differences"]
    assert said == ["No op runs with the same shapes in both traces (another batch size or sequence length?): the ops'"
                    " rows set nothing side by side, and the step times compare different work."]
    assert diff(_read(model(1024)), _read(model(1024)))["change"]["differences"] == []
