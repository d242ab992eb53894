"""bench/gpu/measure.py: its sweeps on a fake device (no PyTorch), the core reading the output back,
and, marked ``torch`` (`make gpu-test`), the real script on PyTorch with tiny sizes."""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench_module import load
from regime_core.catalogue import hardware
from regime_core.content.measured import classify_points
from regime_core.judgment.classify import LAUNCH_SCALE, SYNC_DECISIVE
from regime_core.model import work

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"fp32": 4, "fp16": 2, "bf16": 2}


measure = load("measure", "bench/gpu/measure.py")


class FakeTensor:
    """Shape and element size only; every operation charges its roofline time to the fake clock."""

    def __init__(self, device: FakeDevice, shape: tuple[int, ...], size: int) -> None:
        self.device, self.shape, self.size = device, shape, size

    def _pointwise(self) -> FakeTensor:
        n = math.prod(self.shape)
        self.device.run(flops=n, moved=2 * n * self.size)
        return FakeTensor(self.device, self.shape, self.size)

    def __mul__(self, other: float) -> FakeTensor:
        return self._pointwise()

    __add__ = __mul__

    def add_(self, other: float) -> FakeTensor:
        return self._pointwise()

    def __matmul__(self, other: FakeTensor) -> FakeTensor:
        (m, k), (k2, n) = self.shape, other.shape
        assert k == k2, (self.shape, other.shape)
        self.device.run(flops=2 * m * n * k, moved=(m * k + k * n + m * n) * self.size)
        return FakeTensor(self.device, (m, n), self.size)

    @property
    def T(self) -> FakeTensor:  # noqa: N802 (torch's name)
        return FakeTensor(self.device, tuple(reversed(self.shape)), self.size)

    def __getitem__(self, index: object) -> FakeTensor:
        return FakeTensor(self.device, (), self.size)

    def item(self) -> float:
        self.device.clock += self.device.sync_s  # the host waits for the device
        self.device.syncs += 1
        return 0.0


class FakeDevice:
    """A card with a known roofline and launch cost; time is a counter, so runs are exact."""

    def __init__(self, name: str | None, peak: float = 100e9, bandwidth: float = 50e9,
                 launch_s: float = 1e-7, sync_s: float = 2e-5) -> None:
        self.name = name or "cpu"
        self.peak, self.bandwidth, self.launch_s, self.sync_s = peak, bandwidth, launch_s, sync_s
        self.clock = 0.0
        self.work_s = 0.0  # device time spent on work, not launches: what a captured graph replays
        self.launches = self.syncs = 0

    def run(self, *, flops: float, moved: float) -> None:
        busy = max(flops / self.peak, moved / self.bandwidth)
        self.clock += self.launch_s + busy
        self.work_s += busy
        self.launches += 1

    def randn(self, *shape: int, dtype: str = "fp32") -> FakeTensor:
        return FakeTensor(self, shape, SIZES[dtype])

    def zeros(self, *shape: int) -> FakeTensor:
        return FakeTensor(self, shape, 4)

    def relu(self, x: FakeTensor) -> FakeTensor:
        return x._pointwise()

    tanh = relu

    def compile(self, fn: Callable[[FakeTensor], FakeTensor]) -> Callable[[FakeTensor], FakeTensor]:
        def fused(x: FakeTensor) -> FakeTensor:  # one launch: read once, write once
            n = math.prod(x.shape)
            self.run(flops=4 * n, moved=2 * n * x.size)
            return FakeTensor(self, x.shape, x.size)
        return fused

    def sync(self) -> None:
        self.syncs += 1

    def seconds(self, fn: Callable[[], object]) -> float:
        start = self.clock
        fn()
        return self.clock - start

    def graph(self, fn: Callable[[], object]) -> Callable[[], None] | None:
        if self.name != "cuda":
            return None
        before = self.work_s
        fn()
        captured = self.work_s - before

        def replay() -> None:
            self.clock += self.launch_s + captured
            self.work_s += captured
            self.launches += 1
        return replay

    def environment(self) -> dict[str, Any]:
        return {"card": "fake"}


FAKE_CARD = hardware.custom("100 GFLOP/s", "50 GB/s")  # the fake's roofline: ridge 2 FLOP/byte


def _run(tmp_path: Path, *args: str, device: str = "cpu") -> tuple[dict[str, Any], list[FakeDevice]]:
    made: list[FakeDevice] = []

    def make(name: str | None) -> FakeDevice:
        made.append(FakeDevice(name or device))
        return made[-1]

    out = tmp_path / "points.json"
    assert measure.main(["--tiny", "--out", str(out), *args], make_device=make) == 0
    return json.loads(out.read_text()), made


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _run(tmp_path_factory.mktemp("fake"), device="cuda")[0]


def test_every_sweep_is_measured(fake_run: dict[str, Any]) -> None:
    sweeps = {(p["sweep"], p["variant"]) for p in fake_run["points"]}
    assert {("elementwise", "eager"), ("elementwise", "compiled"), ("matmul", "fp32"), ("decode", "batch 1"),
            ("decode", "batch 8"), ("launches", "eager"), ("launches", "cuda graph"),
            ("host_sync", ".item() per step"), ("host_sync", "no .item()")} <= sweeps
    assert fake_run["environment"]["device"] == "cuda"
    assert fake_run["environment"]["card"] == "fake"
    assert "measure.py" in fake_run["command"]
    assert "--tiny" in fake_run["command"]


def test_points_carry_the_core_work_models_and_medians(fake_run: dict[str, Any]) -> None:
    for p in fake_run["points"]:
        assert len(p["times_s"]) == 3  # --tiny: three timed runs after one warm-up
        assert p["time_s"] == statistics.median(p["times_s"])
        assert all(t > 0 for t in p["times_s"])
        if p["sweep"] == "matmul":
            n = p["shape"][0]
            assert p["flops"] == work.matmul(n, n, n, p["dtype"]).flops
        if "flops" in p:
            assert p["achieved_flops"] == pytest.approx(p["flops"] / p["time_s"])
            assert p["achieved_bandwidth"] == pytest.approx(p["bytes"] / p["time_s"])


def test_times_are_the_devices_own(fake_run: dict[str, Any]) -> None:
    """The fake's clock is exact, so each time is the fake's roofline cost of that sweep's work."""
    by = {(p["sweep"], p["variant"], tuple(p["shape"])): p for p in fake_run["points"]}
    big = by[("matmul", "fp32", (64, 64, 64))]
    assert big["time_s"] == pytest.approx(1e-7 + 2 * 64**3 / 100e9)  # one launch, compute-bound
    eager = by[("elementwise", "eager", (8, 32, 32))]
    assert eager["time_s"] == pytest.approx(4 * (1e-7 + 2 * 8 * 32 * 32 * 4 / 50e9))  # four launches, four trips
    item, plain = by[("host_sync", ".item() per step", (64,))], by[("host_sync", "no .item()", (64,))]
    assert item["time_s"] - plain["time_s"] == pytest.approx(10 * 2e-5)  # ten steps, one host wait each
    graph, launches = by[("launches", "cuda graph", (1024,))], by[("launches", "eager", (1024,))]
    assert launches["time_s"] - graph["time_s"] == pytest.approx(49 * 1e-7)  # 50 launches become one


def test_warm_up_runs_are_not_timed(tmp_path: Path) -> None:
    result, (device,) = _run(tmp_path, "--no-compile")
    timed = sum(sum(p["times_s"]) for p in result["points"])
    assert device.clock == pytest.approx(timed * 4 / 3)  # each point: one untimed warm-up, three timed runs
    assert {p["variant"] for p in result["points"]}.isdisjoint({"compiled", "cuda graph"})


def test_the_core_classifies_each_point_from_its_symptoms(fake_run: dict[str, Any]) -> None:
    verdicts = classify_points(fake_run["points"], FAKE_CARD)
    assert len(verdicts) == len(fake_run["points"])
    by = {(p["sweep"], p["variant"], tuple(p["shape"])): v for p, v in zip(fake_run["points"], verdicts, strict=True)}
    assert by[("host_sync", ".item() per step", (64,))].regime == "overhead"
    assert by[("decode", "batch 1", (1, 256, 256))].regime == "memory"
    assert by[("matmul", "fp32", (64, 64, 64))].regime == "compute"
    assert by[("elementwise", "eager", (8, 32, 32))].regime == "memory"


@pytest.mark.torch
def test_the_real_script_on_pytorch(tmp_path: Path) -> None:
    """The script itself, on PyTorch (`make gpu-test`: the CPU, or the GPU where there is one)."""
    pytest.importorskip("torch", reason="PyTorch is not installed: `make gpu-test` installs it (requirements-gpu.txt)")
    out = tmp_path / "torch.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    result = subprocess.run([sys.executable, str(ROOT / "bench/gpu/measure.py"), "--tiny", "--no-compile",
                             "--out", str(out)], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    run = json.loads(out.read_text())
    assert "torch" in run["environment"]
    assert {("matmul", "fp32"), ("host_sync", ".item() per step")} <= {(p["sweep"], p["variant"]) for p in run["points"]}
    for p in run["points"]:
        assert p["time_s"] == statistics.median(p["times_s"]) > 0
    verdicts = classify_points(run["points"], hardware.custom("1 TFLOP/s", "50 GB/s"))
    pairs = list(zip(run["points"], verdicts, strict=True))
    synced, item = next((p, v) for p, v in pairs if p["variant"] == ".item() per step")
    plain = next(p for p, _ in pairs if p["variant"] == "no .item()" and p["shape"] == synced["shape"])
    # On a GPU the sync drains the queue every step; on the CPU it costs next to nothing. Either way the
    # verdict follows the A/B the script measured, as an engineer's would.
    with_sync, without = synced["time_s"] / synced["steps"], plain["time_s"] / plain["steps"]  # one step each
    if SYNC_DECISIVE * without <= with_sync <= 2 * without + LAUNCH_SCALE:
        assert (item.regime, item.kind) == ("overhead", "host")
    else:
        assert item.kind != "host"
        assert item.evidence[0].startswith("a host sync sits in the loop")
