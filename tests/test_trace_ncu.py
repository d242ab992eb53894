"""Nsight Compute's per-kernel counters (``ncu --csv``) read to each kernel's regime, and the set's, by duration.

Real reports (MIT-licensed, in the steering repository's ``shared/traces/real/ncu/``) are read in
``test_real_exports.py``; they may not ship here, so these reports are written from the format as Nsight Compute
writes it and as its documentation, public parsers and those real reports show it: the details page (one row per
launch and metric: ``ID``, ``Kernel Name``, ``Block Size``, ``Grid Size``, ``Section Name``, ``Metric Name``,
``Metric Unit``, ``Metric Value``; values with thousands separators; ``==PROF==`` lines before the table), the same
page as 2020-era versions write it (a ``Kernel Time`` column, no sizes, ``SM [%]`` and ``Memory [%]``), the
per-kernel summary (``Invocations``, ``Average``) and the raw page (a column per metric name, the units in the row
under the header). The thresholds are ncu's own: its Speed of Light rule calls a unit under 60% of its peak not
the limit ("below 60.0% of peak typically indicate latency issues").
"""

from __future__ import annotations

import base64
import csv
import io
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from regime_core.bridge.api import OPS, handle
from regime_core.errors import RegimeError
from regime_core.trace.counters import CounterReading, read_counters
from regime_core.trace.reading import read_profile, read_trace

ROOT = Path(__file__).resolve().parent.parent
_HEAD = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
         "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value"]
#: A kernel: name, duration in µs, SM throughput %, memory throughput %, launches.
Kernel = tuple[str, float, float, float, int]


def _csv(rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    return out.getvalue()


def ncu_details(kernels: Sequence[Kernel], *, unit: str = "usecond", preamble: bool = True) -> bytes:
    """``ncu --csv`` as a current Nsight Compute writes it: a row per launch and metric, ``==PROF==`` lines first."""
    rows: list[list[object]] = [_HEAD]
    launch = 0
    scale = {"usecond": 1, "nsecond": 1000, "msecond": 1e-3}[unit]
    for name, us, sm, memory, calls in kernels:
        for _ in range(calls):
            where = [launch, 4242, "python3", "127.0.0.1", name, 1, 7, "(128, 1, 1)", "(264, 1, 1)", 0, "9.0",
                     "GPU Speed Of Light Throughput"]
            rows += [[*where, "DRAM Frequency", "cycle/nsecond", "2.62"],
                     [*where, "Duration", unit, f"{us * scale:,.2f}"],
                     [*where, "Memory Throughput", "%", f"{memory:.2f}"],
                     [*where, "DRAM Throughput", "%", f"{memory * 0.9:.2f}"],
                     [*where, "Compute (SM) Throughput", "%", f"{sm:.2f}"],
                     [*where[:-1], "Occupancy", "Achieved Occupancy", "%", "61.02"],
                     [*where[:-1], "Memory Workload Analysis", "Mem Busy", "%", "n/a"],
                     # the same label in a later section, in GB/s (real reports have it): not the Speed of Light share
                     [*where[:-1], "Memory Workload Analysis", "Memory Throughput", "Gbyte/s", "1,345.14"]]
            launch += 1
    prof = "".join(f'==PROF== Profiling "{k[0]}" - {i}: 0%....50%....100% - 9 passes\n' for i, k in enumerate(kernels))
    return ((("==PROF== Connected to process 4242 (/usr/bin/python3)\n" + prof) if preamble else "")
            + _csv(rows)).encode()


def _kinds(reading: CounterReading) -> dict[str, str | None]:
    return {op["name"]: op["regime"] for op in reading.facts["ops"]}


@pytest.mark.parametrize(("sm", "memory", "regime"),
                         [(80, 30, "compute"), (30, 80, "memory"), (20, 20, None), (59, 59, None),
                          (60, 10, "compute"), (85, 90, "memory")])
def test_a_kernel_is_on_the_roof_whose_unit_is_near_its_peak(sm: float, memory: float, regime: str | None) -> None:
    reading = read_counters(ncu_details([("k", 100.0, sm, memory, 1)]))
    assert _kinds(reading) == {"k": regime}
    assert reading.verdict.regime == regime


def test_a_kernel_on_neither_roof_is_undecided_with_what_to_look_at() -> None:
    verdict = read_counters(ncu_details([("small_gemm", 22.5, 21, 18, 4)])).verdict
    assert verdict.regime is None
    assert "on neither roof" in verdict.needs
    assert "latency" in verdict.needs
    assert "waves per SM" in verdict.needs


def test_the_details_page_reads_every_launch_with_its_duration_and_shares() -> None:
    reading = read_counters(ncu_details([("ampere_sgemm_128x64_nn", 1025.34, 87.01, 45.12, 1),
                                         ("vectorized_elementwise_kernel", 300.0, 12.0, 91.0, 3)]))
    facts = reading.facts
    assert (facts["launches"], facts["kernels"]) == (4, 2)
    assert facts["time"] == pytest.approx(1025.34e-6 + 3 * 300e-6)  # "1,025.34" read through its separator
    gemm, pointwise = facts["ops"]  # most time first
    assert (pointwise["name"], pointwise["calls"], pointwise["regime"]) == ("vectorized_elementwise_kernel", 3, "memory")
    assert (gemm["sm_throughput"], gemm["memory_throughput"], gemm["regime"]) == pytest.approx((0.8701, 0.4512, "compute"))
    assert gemm["shape"] == "grid (264, 1, 1) × block (128, 1, 1)"
    assert gemm["occupancy"] == pytest.approx(0.6102)
    # The set's verdict is the regime holding most of the time: the pointwise kernel's 900 µs against 1,025 µs.
    assert facts["time_share"] == pytest.approx({"compute": 1025.34 / 1925.34, "memory": 900 / 1925.34})
    assert reading.verdict.regime == "compute"


def test_the_set_is_weighted_by_duration_not_by_kernel_count() -> None:
    # Forty short compute-bound kernels against one long memory-bound one.
    reading = read_counters(ncu_details([("tiny_gemm", 5.0, 90, 20, 40), ("big_copy", 800.0, 5, 92, 1)]))
    assert reading.verdict.regime == "memory"
    assert reading.facts["time_share"]["memory"] == pytest.approx(0.8)


def test_no_regime_holding_most_of_the_time_is_undecided_and_says_the_split() -> None:
    verdict = read_counters(ncu_details([("a", 100.0, 90, 10, 1), ("b", 100.0, 10, 90, 1),
                                         ("c", 100.0, 20, 20, 1)])).verdict
    assert verdict.regime is None
    assert verdict.needs.startswith("no regime holds most of the kernel time")


def test_what_a_replay_cannot_say_is_said() -> None:
    verdict = read_counters(ncu_details([("k", 10.0, 90, 10, 1)])).verdict
    assert any("replays each kernel alone" in line and "cannot say whether launches or the host" in line
               for line in verdict.evidence)


@pytest.mark.parametrize("unit", ["usecond", "nsecond", "msecond"])
def test_a_duration_is_read_in_the_unit_ncu_gives_it(unit: str) -> None:
    assert read_counters(ncu_details([("k", 250.0, 90, 10, 1)], unit=unit)).facts["time"] == pytest.approx(250e-6)


def test_the_2020_era_layout_reads_the_same() -> None:
    text = _csv([["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
                  "Section Name", "Metric Name", "Metric Unit", "Metric Value"],
                 ["0", "1", "python", "h", "volta_sgemm", "2020-Jul-01", "1", "7", "GPU Speed Of Light", "SM [%]", "%",
                  "81.5"],
                 ["0", "1", "python", "h", "volta_sgemm", "2020-Jul-01", "1", "7", "GPU Speed Of Light", "Memory [%]",
                  "%", "20.1"],
                 ["0", "1", "python", "h", "volta_sgemm", "2020-Jul-01", "1", "7", "GPU Speed Of Light", "Duration",
                  "nsecond", "853,984"]])
    reading = read_counters(text.encode())
    assert reading.verdict.regime == "compute"
    assert reading.facts["time"] == pytest.approx(853.984e-6)
    assert reading.facts["ops"][0]["shape"] == ""


def test_the_per_kernel_summary_weights_each_kernel_by_its_invocations() -> None:
    head = ["Process ID", "Kernel Name", "Invocations", "Section Name", "Metric Name", "Metric Unit", "Minimum",
            "Maximum", "Average"]
    rows = [head]
    for name, calls, us, sm, memory in (("gemm", "2", "100", "85", "30"), ("pointwise", "10", "50", "10", "88")):
        rows += [["1", name, calls, "SOL", "Duration", "us", us, us, us],
                 ["1", name, calls, "SOL", "Compute (SM) Throughput", "%", sm, sm, sm],
                 ["1", name, calls, "SOL", "Memory Throughput", "%", memory, memory, memory]]
    reading = read_counters(_csv(rows).encode())
    assert reading.facts["launches"] == 12
    assert reading.facts["time_share"] == pytest.approx({"compute": 200 / 700, "memory": 500 / 700})
    assert reading.verdict.regime == "memory"


def raw_page() -> bytes:
    """``ncu --page raw --csv``: a column per metric, the units in the row under the header, two launches."""
    metrics = ["gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
               "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
               "dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes.sum.per_second",
               "smsp__cycles_elapsed.avg.per_second",
               "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed",
               "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed",
               "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed",
               "device__attribute_display_name"]
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
            "Grid Size", *metrics]
    units = ["", "", "", "", "", "", "", "", "", "nsecond", "%", "%", "%", "Tbyte/second", "cycle/nsecond",
             "inst/cycle", "inst/cycle", "inst/cycle", ""]
    launch = ["0", "7", "bench", "h", "stream_triad", "1", "7", "(256, 1, 1)", "(1024, 1, 1)", "41,200", "18.5",
              "93.2", "93.2", "3.10", "1.76", "0", "0", "2,048", "NVIDIA H100 80GB HBM3"]
    second = ["1", *launch[1:9], "40,800", "18.1", "92.8", "92.8", "3.08", "1.76", "0", "0", "2,048",
              "NVIDIA H100 80GB HBM3"]
    return _csv([head, units, launch, second]).encode()


def test_theraw_page_reads_bandwidth_and_ncus_roofline_flops() -> None:
    reading = read_counters(raw_page())
    (op,) = reading.facts["ops"]
    assert (op["name"], op["calls"], op["regime"]) == ("stream_triad", 2, "memory")
    assert op["time"] == pytest.approx(82.0e-6)
    # Time-weighted: (3.10 × 41.2 + 3.08 × 40.8) ÷ 82.0 TB/s; FMAs count twice, per cycle, at 1.76 GHz.
    assert op["bandwidth"] == pytest.approx((3.10e12 * 41.2 + 3.08e12 * 40.8) / 82.0)
    assert op["achieved_flops"] == pytest.approx(2 * 2048 * 1.76e9)
    assert reading.facts["device"] == "NVIDIA H100 80GB HBM3"


def test_program_output_before_the_table_is_passed_over() -> None:
    text = b"==PROF== Connected to process 1\nkernel ran successfully\n" + ncu_details([("k", 9.0, 90, 9, 1)],
                                                                                      preamble=False)
    assert read_profile(text).verdict.regime == "compute"  # type: ignore[union-attr]


def test_a_long_preamble_of_profiled_kernels_is_still_told_by_its_table() -> None:
    kernels = [(f"kernel_number_{i}_with_a_long_templated_name", 3.0, 70, 10, 1) for i in range(300)]
    report = ncu_details(kernels)
    assert report.index(b'"ID"') > 4096  # the table starts past the bytes a format is told by
    assert isinstance(read_profile(report), CounterReading)


@pytest.mark.parametrize(("report", "says"), [
    (_csv([[*_HEAD[:5], "Metric Name", "Metric Unit", "Metric Value"],
           ["0", "1", "p", "h", "k", "Registers Per Thread", "register/thread", "32"]]),
     "expected the Speed of Light section (Duration, Compute (SM) Throughput, Memory Throughput) for at least one"
     " kernel; this report has 1 kernel without all three. Profile with ncu --section SpeedOfLight"),
    (_csv([["Kernel Name", "Metric Name", "Metric Unit"], ["k", "Duration", "us"]]),
     "expected ncu's Metric Value column (or Average, in a per-kernel summary)"),
    (_csv([["Kernel Name", "Metric Name", "Metric Unit", "Metric Value"], ["k", "Duration", "cycle", "12"],
           ["k", "Compute (SM) Throughput", "%", "80"], ["k", "Memory Throughput", "%", "8"]]),
     "expected a kernel duration in ns, us, ms or s (ncu's nsecond, usecond, …); this report gives 'cycle'"),
    (_csv([["Kernel Name", "Metric Name", "Metric Value"]]), "expected the Speed of Light section"),
])
def test_a_report_that_cannot_be_read_says_what_it_lacks(report: str, says: str) -> None:
    with pytest.raises(RegimeError) as caught:
        read_profile(report.encode())
    assert says in caught.value.expected


def test_commands_that_compare_timelines_name_an_ncu_report_for_what_it_is() -> None:
    with pytest.raises(RegimeError, match=r"this is an Nsight Compute report .* regime trace reads it kernel by kernel"):
        read_trace(ncu_details([("k", 9.0, 90, 9, 1)]))
    with pytest.raises(RegimeError, match="an Nsight Compute report has no steps"):
        read_profile(ncu_details([("k", 9.0, 90, 9, 1)]), step=2)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", *args], capture_output=True, text=True, check=False,
                          cwd=ROOT)


def test_the_command_reads_a_report_and_refuses_what_it_cannot_give(tmp_path: Path) -> None:
    path = tmp_path / "profile.txt"  # by its content, not its name
    path.write_bytes(ncu_details([("ampere_sgemm", 500.0, 88, 30, 2), ("elementwise", 100.0, 8, 90, 1)]))
    shown = _cli("trace", str(path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("Regime: compute-bound\n")
    assert "kernel time by regime: compute 91%, memory 9%" in shown.stdout
    as_json = json.loads(_cli("trace", str(path), "--json").stdout)
    assert as_json["trace"] == read_counters(path.read_bytes()).facts
    for option in ("--digest", "--svg"):
        refused = _cli("trace", str(path), option)
        assert refused.returncode == 2
        assert refused.stderr.startswith(f"regime trace: {option}: an Nsight Compute report holds kernels counted")
    compared = _cli("diff", str(path), str(path))
    assert compared.returncode == 2
    assert "this is an Nsight Compute report" in compared.stderr


def test_the_page_gets_the_same_reading_under_its_own_column_heads() -> None:
    report = ncu_details([("ampere_sgemm", 500.0, 88, 30, 2), ("elementwise", 100.0, 8, 90, 1)])
    answer = json.loads(handle(json.dumps({"op": "trace", "data": base64.b64encode(report).decode()})))
    assert answer["ok"] is True
    assert OPS["trace"].answer_problems(answer) == []
    reading = read_counters(report)
    assert answer["trace"] == reading.facts
    assert answer["verdict"]["regime"] == "compute"
    assert answer["ops_head"][3:5] == ["SM throughput", "memory throughput (DRAM)"]
    assert [(r["name"], r["intensity_text"], r["achieved_text"], r["regime_text"]) for r in answer["ops"]] == [
        ("ampere_sgemm", "88%", "30% (27%)", "compute-bound"), ("elementwise", "8%", "90% (81%)", "memory-bound")]
    assert answer["svg"] == ""
    assert answer["roofline"] == ""
    assert answer["review"].startswith("This Nsight Compute report (3 kernel launches of 2 kernels, 1.1 ms of"
                                       " replayed kernel time)")
    compared = json.loads(handle(json.dumps({"op": "trace_diff", "before": {**answer["verdict"],
                                                                            "trace": answer["trace"]},
                                             "after": {**answer["verdict"], "trace": answer["trace"]}})))
    assert compared["ok"] is False
    assert "this one is an Nsight Compute report" in compared["error"]
