"""bench/gpu/measure.py on the CPU with tiny sizes, and the core reading its output back."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from regime_core import hardware, work
from regime_core.measured import classify_points

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cpu_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("measure") / "cpu.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    result = subprocess.run([sys.executable, str(ROOT / "bench/gpu/measure.py"), "--device", "cpu", "--tiny",
                             "--no-compile", "--out", str(out)], env=env, capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(out.read_text())


def test_every_sweep_is_measured(cpu_run: dict) -> None:
    sweeps = {(p["sweep"], p["variant"]) for p in cpu_run["points"]}
    assert {("elementwise", "eager"), ("matmul", "fp32"), ("decode", "batch 1"), ("decode", "batch 8"),
            ("launches", "eager"), ("host_sync", ".item() per step"), ("host_sync", "no .item()")} <= sweeps
    assert cpu_run["environment"]["device"] == "cpu"
    assert "measure.py" in cpu_run["command"]


def test_points_carry_the_core_work_models_and_medians(cpu_run: dict) -> None:
    for p in cpu_run["points"]:
        assert p["time_s"] == statistics.median(p["times_s"])
        assert all(t > 0 for t in p["times_s"])
        if p["sweep"] == "matmul":
            n = p["shape"][0]
            assert p["flops"] == work.matmul(n, n, n, p["dtype"]).flops
        if "flops" in p:
            assert p["achieved_flops"] == pytest.approx(p["flops"] / p["time_s"])
            assert p["achieved_bandwidth"] == pytest.approx(p["bytes"] / p["time_s"])


def test_the_core_classifies_each_point_from_its_symptoms(cpu_run: dict) -> None:
    card = hardware.custom("1 TFLOP/s", "50 GB/s")  # a CPU-sized stand-in: the real run names its GPU
    verdicts = classify_points(cpu_run["points"], card)
    assert len(verdicts) == len(cpu_run["points"])
    by_variant = {p["variant"]: v for p, v in zip(cpu_run["points"], verdicts, strict=True)}
    assert by_variant[".item() per step"].regime == "overhead"
    tiny = [v for p, v in zip(cpu_run["points"], verdicts, strict=True) if p["sweep"] == "elementwise"]
    assert all(v.regime in ("overhead", "memory", None) for v in tiny)
