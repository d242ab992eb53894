"""Collectives by kind in a reading: their time, the part no other GPU work overlaps, and, where PyTorch recorded
each kernel's message ("In msg nelems", "dtype", "Group size"), the bytes moved and the bus bandwidth reached.

Bus bandwidth is nccl-tests' measure: bytes ÷ time × 2(n−1)/n for an all-reduce, × (n−1)/n for an all-gather,
reduce-scatter or all-to-all, × 1 otherwise, so it compares with a link whatever the group's size.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from regime_core.trace.ranks import merge
from regime_core.trace.reading import bus_factor, read_trace
from test_ranks import job
from trace_builder import Trace, as_bytes

HTA = Path(__file__).resolve().parents[2] / "shared" / "traces" / "hta"
ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"


@pytest.mark.parametrize(("kind", "group", "factor"), [("all-reduce", 8, 1.75), ("all-gather", 8, 0.875),
                                                       ("reduce-scatter", 4, 0.75), ("all-to-all", 2, 0.5),
                                                       ("broadcast", 8, 1.0), ("all-reduce", 1, 1.0)])
def test_the_bus_factor_is_nccl_tests(kind: str, group: int, factor: float) -> None:
    assert bus_factor(kind, group) == factor


def test_a_collective_half_overlapped_by_compute_is_half_exposed() -> None:
    trace = Trace()
    trace.kernel(100, 1000, "ampere_sgemm_128x64_nn")  # compute on its own stream ...
    trace.kernel(600, 1000, ALL_REDUCE, stream=20)  # ... under the first half of the all-reduce
    entry = read_trace(as_bytes(trace.document())).to_json()["trace"]["collectives"]["all-reduce"]
    assert entry["time"] == pytest.approx(1e-3)
    assert entry["exposed"] == pytest.approx(0.5e-3)
    assert "bus_bandwidth" not in entry  # no message recorded: no bytes, no bandwidth


@pytest.mark.skipif(not HTA.is_dir(), reason="the shared HTA traces are not placed here")
def test_a_real_trace_s_messages_give_its_bytes_and_bus_bandwidth() -> None:
    raw = (HTA / "nccl_parser_config_nccl_data.json.gz").read_bytes()
    kernels = [e for e in json.loads(gzip.decompress(raw))["traceEvents"]
               if e.get("cat") == "kernel" and "AllReduce" in e.get("name", "")]
    entry = read_trace(raw).to_json()["trace"]["collectives"]["all-reduce"]
    assert entry["count"] == entry["sized"] == len(kernels) == 15
    assert entry["bytes"] == sum(e["args"]["In msg nelems"] * 4 for e in kernels)  # "Float": 4 bytes
    assert {e["args"]["Group size"] for e in kernels} == {2}  # 2(n−1)/n = 1: bus bandwidth = bytes ÷ time
    assert entry["bus_bandwidth"] == pytest.approx(entry["bytes"] / (sum(e["dur"] for e in kernels) * 1e-6), rel=1e-6)
    assert 0 < entry["exposed"] <= entry["time"]


def _with_messages(traces: list[dict[str, Any]], elements: int) -> list[dict[str, Any]]:
    for trace in traces:
        for event in trace["traceEvents"]:
            if event.get("cat") == "kernel" and event["name"] == ALL_REDUCE:
                event["args"].update({"In msg nelems": elements, "Out msg nelems": elements, "dtype": "BFloat16",
                                      "Group size": len(traces), "Collective name": "allreduce"})
    return traces


def test_a_slow_link_says_the_bus_bandwidth_its_all_reduces_reached() -> None:
    traces = _with_messages(job(4, comm_us=4000.0), elements=50_000_000)  # 100 MB of bf16 a step
    readings = [(f"rank{r}.json", read_trace(as_bytes(t)).to_json()) for r, t in enumerate(traces)]
    result = merge(readings)
    assert result["job"]["verdict"] == "communication"
    entry = readings[0][1]["trace"]["collectives"]["all-reduce"]
    # each all-reduce runs 4 ms past the last arrival; 100 MB × 2·3/4 over that time
    assert entry["bus_bandwidth"] == pytest.approx(100e6 * 1.5 / 4.0e-3, rel=0.01)
    assert ("Their all-reduce kernels reached a bus bandwidth of 37.5 GB/s (the median of 4 ranks; nccl-tests' measure,"
            " from the message sizes PyTorch recorded), 8% of the 450 GB/s the NVIDIA H100 SXM5 80 GB's link moves each"
            " way (900 GB/s both directions, as the vendor prints it") in result["job"]["text"]
    on_l4 = [{**t, "deviceProperties": [{"id": 0, "name": "NVIDIA L4"}]} for t in traces]  # no link in the catalogue
    l4_text = merge((f"rank{r}.json", read_trace(as_bytes(t)).to_json()) for r, t in enumerate(on_l4))["job"]["text"]
    assert "set it against what the link gives each way (nccl-tests' all_reduce_perf on the same nodes)" in l4_text
    assert "bus bandwidth" not in merge([(n, r) for n, r in (
        (f"rank{r}.json", read_trace(as_bytes(t)).to_json()) for r, t in enumerate(job(4, comm_us=4000.0)))])["job"]["text"]
