"""What a reading rests on (``trace.coverage``), said on every reading, and a verdict never stronger than it.

Each field is held on a trace built to have it: ops without shapes, CUDA-graph replays no op launched, the dense
peak of each dtype the placed ops ran in; where no regime holds most of the kernel time, the verdict says so and
gives the shares, rather than the largest one's regime.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.trace.reading import read_trace, text
from trace_builder import GEMM_US, Trace, as_bytes, gemm_bound, gemms_then_adds, graph_captured

ADD_US = 3 * 8 * 4096 * 4096 * 4 / (3.35e12 * 0.8) * 1e6  # an fp32 add of 8×4096×4096 at 80% of 3.35 TB/s


def _mixed(gemms: int, adds: int, unshaped: int) -> dict[str, Any]:
    """GEMMs on the compute roof, adds on the memory roof, and as many kernels of an op recorded without shapes."""
    t = Trace()
    at = gemms_then_adds(t, 100.0, gemms, adds, ADD_US)
    for _ in range(unshaped):
        op = t.op(at - 10, 5, "my_ext::fused_thing", [], [])
        t.kernel(at, GEMM_US, "my_fused_thing_kernel", op=op)
        at += GEMM_US + 1
    return t.document()


def test_ops_without_shapes_are_counted_with_their_share_and_said() -> None:
    reading = read_trace(as_bytes(_mixed(gemms=3, adds=0, unshaped=1)))
    cov = reading.to_json()["trace"]["coverage"]
    assert cov["no_shapes"] == {"ops": 1, "share": pytest.approx(0.25)}
    assert cov["placed"] == pytest.approx(0.75)
    assert "1 op without shapes (25%)" in text(reading)


def test_graph_replays_are_counted_and_their_kernels_said_to_have_no_op() -> None:
    reading = read_trace(as_bytes(graph_captured(100)))
    cov = reading.to_json()["trace"]["coverage"]
    assert cov["graph_launches"] == 100
    assert ("kernels no recorded op launched 100% (among them the kernels of 100 CUDA graph replays, recorded under"
            " one launch each: their ops ran at capture, not in the trace)") in text(reading)
    assert cov["no_op"] == pytest.approx(1.0)
    assert cov["placed"] == 0.0


def test_the_dense_peak_of_each_dtype_the_placed_ops_ran_in_is_given() -> None:
    cov = read_trace(as_bytes(gemm_bound())).to_json()["trace"]["coverage"]
    assert cov["peaks"] == {"bf16": pytest.approx(989.4e12, rel=0.001)}
    assert cov["bandwidth"] == pytest.approx(3.35e12)


def test_no_regime_holding_most_of_the_kernel_time_is_said_with_the_shares() -> None:
    split = read_trace(as_bytes(_mixed(gemms=2, adds=4, unshaped=1))).to_json()  # no regime over half
    shares = split["trace"]["time_share"]
    assert max(shares.values()) < 0.5
    assert split["regime"] is None
    assert split["needs"].startswith("no single regime holds most of the GPU time (")
    mostly = read_trace(as_bytes(_mixed(gemms=6, adds=1, unshaped=0))).to_json()  # the GEMMs hold most of it
    assert mostly["trace"]["time_share"]["compute"] > 0.5
    assert mostly["regime"] == "compute"
