"""A kernel's time in a trace is its own span on the GPU: launch cost falls between kernels, never inside one.

A 1024³ bf16 GEMM that runs 22.5 µs on an H100 (about 10% of peak: 64 output tiles of 128×128 for 132 SMs) is a
kernel too small to fill the card, undecided with what to profile; the same time given as a wall time around the
call (no ``time_on_gpu``) still reads launch-scale, as the drill's A3 does.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.errors import RegimeError
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes

GEMM = {"hardware": "h100-sxm", "dtype": "bf16", "work": {"kernel": "matmul", "m": 1024, "n": 1024, "k": 1024}}


def _verdict(**observed: Any) -> dict[str, Any]:
    verdict: dict[str, Any] = classify(parse_symptoms({**GEMM, "observed": observed})).to_json()
    return verdict


def test_a_small_kernel_timed_on_the_gpu_is_undecided_and_names_what_to_profile() -> None:
    on_gpu = _verdict(time="22.5 us", time_on_gpu=True)
    assert on_gpu["regime"] is None
    assert "never inside one" in on_gpu["evidence"][0]
    assert "too few tiles for its SMs" in on_gpu["evidence"][0]
    assert "Nsight Compute" in on_gpu["needs"]
    walled = _verdict(time="22.5 us")  # a wall time around the call may hold the launch
    assert walled["regime"] == "overhead"
    assert "launch-scale" in walled["evidence"][0]


def test_a_kernel_on_a_roof_is_read_the_same_timed_on_the_gpu_or_not() -> None:
    at_70 = 2 * 1024**3 / (989.4e12 * 0.7)  # 70% of the dense peak
    assert _verdict(time=at_70, time_on_gpu=True)["regime"] == _verdict(time=at_70)["regime"] == "compute"


def test_time_on_gpu_is_true_or_false() -> None:
    with pytest.raises(RegimeError) as error:
        parse_symptoms({**GEMM, "observed": {"time": "22.5 us", "time_on_gpu": "yes"}})
    assert error.value.field == "observed.time_on_gpu"


def test_a_trace_of_small_gemms_busy_68_percent_is_not_read_as_launch_overhead() -> None:
    trace = Trace()
    at = 100.0
    for _ in range(200):
        op = trace.op(at - 10, 5, "aten::mm", [[1024, 1024], [1024, 1024]], ["c10::BFloat16", "c10::BFloat16"])
        trace.kernel(at, 22.5, "sm90_xmma_gemm_bf16bf16_bf16f32", op=op)
        at += 22.5 + 10.6  # busy 68%: the gaps are launch-sized, but most of the window is kernel time
    reading = read_trace(as_bytes(trace.document())).to_json()
    assert reading["trace"]["busy"] == pytest.approx(0.68, abs=0.01)
    assert reading["regime"] is None
    assert [op["regime"] for op in reading["trace"]["ops"]] == [None]
    assert "on neither roof hold 100%" in reading["notes"]
    assert "Nsight Compute" in reading["needs"]
