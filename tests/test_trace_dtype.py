"""The math's dtype named for a trace (``--dtype``, the page's menu): every placed op held to that dtype's peak.

PyTorch records an fp32 matmul that ran on TF32 tensor cores as "float"; a trace may record no types at all. The
reading says the dtype was given; an unknown dtype, a digest (read already) and an ncu report are refused by name.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from regime_core.errors import RegimeError
from regime_core.trace.reading import read_trace, text
from trace_builder import Trace, as_bytes, gemm_bound


def _fp32_gemms() -> bytes:
    trace = Trace()
    at = 100.0
    for _ in range(20):
        op = trace.op(at - 10, 5, "aten::mm", [[8192, 8192], [8192, 8192]], ["float", "float"])
        seconds = 2 * 8192**3 / (494.7e12 * 0.7)  # 70% of the H100 SXM's dense TF32 peak
        trace.kernel(at, seconds * 1e6, "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n", op=op)
        at += seconds * 1e6 + 1
    return as_bytes(trace.document())


def test_fp32_gemms_that_ran_as_tf32_read_compute_only_with_tf32_named() -> None:
    recorded = read_trace(_fp32_gemms()).to_json()
    assert recorded["regime"] == "compute"  # past fp32's 67 TFLOP/s: beyond the roof, an anomaly
    assert recorded["anomalies"]
    given = read_trace(_fp32_gemms(), dtype="tf32")
    facts = given.to_json()
    assert facts["regime"] == "compute"
    assert not facts["anomalies"]
    assert facts["trace"]["dtype_given"] == "tf32"
    assert facts["trace"]["ops"][0]["dtype"] == "tf32"
    assert list(facts["trace"]["coverage"]["peaks"]) == ["tf32"]
    assert "the ops' math held to tf32 (as given)" in text(given)


def test_the_dtype_moves_the_roof_not_the_bytes() -> None:
    bf16, fp8 = read_trace(as_bytes(gemm_bound())).to_json(), read_trace(as_bytes(gemm_bound()), dtype="fp8").to_json()
    assert fp8["trace"]["ops"][0]["bytes"] == bf16["trace"]["ops"][0]["bytes"]
    assert fp8["trace"]["ops"][0]["achieved_flops"] == bf16["trace"]["ops"][0]["achieved_flops"]
    assert bf16["regime"] == "compute"
    assert fp8["regime"] is None  # 35% of fp8's peak: on neither roof
    assert ("every placed op is held to fp8's dense peak, as given, where the trace records bf16: the verdict is"
            " against fp8's roof") in fp8["notes"]  # said beside the verdict, not only among the facts
    assert "held to" not in bf16["notes"]


def test_an_unknown_dtype_is_refused_by_name() -> None:
    with pytest.raises(RegimeError) as error:
        read_trace(as_bytes(gemm_bound()), dtype="fp5")
    assert error.value.field == "--dtype"


@pytest.mark.parametrize("command", ["trace", "diff"])
def test_the_command_line_takes_the_dtype_and_a_digest_refuses_it(command: str, tmp_path: Path) -> None:
    path = tmp_path / "gemm.json"
    path.write_bytes(as_bytes(gemm_bound()))
    files = [str(path)] * (2 if command == "diff" else 1)
    done = subprocess.run([sys.executable, "-m", "regime_core", command, *files, "--dtype", "fp8", "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    reading = json.loads(done.stdout)
    assert (reading["after"] if command == "diff" else reading)["trace"]["dtype_given"] == "fp8"
    held = tmp_path / "gemm.digest.json"
    held.write_text(subprocess.run([sys.executable, "-m", "regime_core", "trace", str(path), "--digest"],
                                   capture_output=True, text=True, check=True).stdout, encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "regime_core", command, *[str(held)] * len(files), "--dtype", "fp8"],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 2
    assert "--dtype: " in refused.stderr
