"""Measure the three regimes on one card and write them as data for regime_core.

Each point carries its shape, dtype, the FLOPs and bytes regime_core's work models give for it,
the median of repeated timed runs after warm-up (CUDA events on a GPU), and achieved FLOP/s and
bytes/s. Sweeps: the drill's elementwise chain eager and compiled (A2, A3); square matmuls (A1,
Part B); a decode-like GEMV over a 7B-sized weight (A4); many tiny launches eager and in a CUDA
graph (A6); a decode loop with and without .item() (A7).

The sweeps reach the hardware only through a ``Device`` (``TorchDevice`` here, imported lazily), so
their logic is tested with a fake device and no PyTorch (tests/test_measure.py); `make gpu-test`
installs PyTorch (requirements-gpu.txt) and runs this script for real.

    PYTHONPATH=src python bench/gpu/measure.py --out src/regime_core/data/measured/h200-sxm.json
    PYTHONPATH=src python bench/gpu/measure.py --device cpu --tiny --out /tmp/cpu.json   # the CPU check
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from regime_core.model import work

Tensor = Any  # a torch.Tensor, or the fake device's stand-in
Run = Callable[[], object]


class Device(Protocol):
    """What the sweeps need from the hardware: PyTorch on a GPU or the CPU, or a fake in the tests."""

    name: str  # "cuda" or "cpu"

    def randn(self, *shape: int, dtype: str = "fp32") -> Tensor:
        """A tensor of random values on the device."""

    def zeros(self, *shape: int) -> Tensor:
        """An fp32 tensor of zeros on the device."""

    def relu(self, x: Tensor) -> Tensor:
        """Elementwise max(x, 0)."""

    def tanh(self, x: Tensor) -> Tensor:
        """Elementwise tanh."""

    def compile(self, fn: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
        """``fn`` compiled (fused)."""

    def sync(self) -> None:
        """Wait for the device."""

    def seconds(self, fn: Run) -> float:
        """Seconds one run of ``fn`` takes on the device (CUDA events on a GPU)."""

    def graph(self, fn: Run) -> Run | None:
        """``fn`` captured once and replayable as a CUDA graph; None where there are no graphs."""

    def environment(self) -> dict[str, Any]:
        """The card, driver and library versions."""


class TorchDevice:
    """PyTorch on ``cuda`` or ``cpu`` (the default: cuda when there is one)."""

    def __init__(self, name: str | None = None) -> None:
        """Import PyTorch (only here: nothing else in this file needs it)."""
        import torch  # noqa: PLC0415

        self.torch = torch
        self.name = name or ("cuda" if torch.cuda.is_available() else "cpu")
        self.dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

    def randn(self, *shape: int, dtype: str = "fp32") -> Tensor:
        """A tensor of random values on the device."""
        return self.torch.randn(*shape, device=self.name, dtype=self.dtypes[dtype])

    def zeros(self, *shape: int) -> Tensor:
        """An fp32 tensor of zeros on the device."""
        return self.torch.zeros(*shape, device=self.name)

    def relu(self, x: Tensor) -> Tensor:
        """Elementwise max(x, 0)."""
        return self.torch.relu(x)

    def tanh(self, x: Tensor) -> Tensor:
        """Elementwise tanh."""
        return self.torch.tanh(x)

    def compile(self, fn: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
        """``fn`` under torch.compile."""
        return self.torch.compile(fn)  # type: ignore[no-any-return]

    def sync(self) -> None:
        """Wait for the device."""
        if self.name == "cuda":
            self.torch.cuda.synchronize()

    def seconds(self, fn: Run) -> float:
        """CUDA events on a GPU, perf_counter on the CPU."""
        if self.name != "cuda":
            t0 = time.perf_counter()
            fn()
            return time.perf_counter() - t0
        start = self.torch.cuda.Event(enable_timing=True)
        end = self.torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return float(start.elapsed_time(end)) / 1000

    def graph(self, fn: Run) -> Run | None:
        """``fn`` captured in a CUDA graph after a warm-up on a side stream."""
        if self.name != "cuda":
            return None
        cuda = self.torch.cuda
        graph, stream = cuda.CUDAGraph(), cuda.Stream()
        stream.wait_stream(cuda.current_stream())
        with cuda.stream(stream):
            fn()
        cuda.current_stream().wait_stream(stream)
        with cuda.graph(graph):
            fn()
        return graph.replay  # type: ignore[no-any-return]

    def environment(self) -> dict[str, Any]:
        """The card, driver and library versions."""
        env: dict[str, Any] = {"torch": self.torch.__version__}
        if self.name == "cuda":
            props = self.torch.cuda.get_device_properties(0)
            env.update(card=props.name, cuda=self.torch.version.cuda, memory_bytes=props.total_memory)
            try:
                env["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                               capture_output=True, text=True, check=False).stdout.strip()
            except OSError:
                env["driver"] = "unknown"
        else:
            env.update(card=platform.processor() or platform.machine())
        return env


class Timer:
    """Seconds per run of a function, for ``repeats`` timed runs after ``warmup`` untimed ones."""

    def __init__(self, device: Device, repeats: int, warmup: int) -> None:
        """Time on ``device``."""
        self.device, self.repeats, self.warmup = device, repeats, warmup

    def __call__(self, fn: Run) -> list[float]:
        """Seconds per run of ``fn``, one entry per timed run."""
        for _ in range(self.warmup):
            fn()
        self.device.sync()
        return [self.device.seconds(fn) for _ in range(self.repeats)]


def point(sweep: str, variant: str, shape: list[int], dtype: str, *, w: work.Work | None, times: list[float],
          **extra: Any) -> dict[str, Any]:
    """One measured point: what ran, how long (median), and how fast against its work."""
    median = statistics.median(times)
    out: dict[str, Any] = {"sweep": sweep, "variant": variant, "shape": shape, "dtype": dtype,
                           "time_s": median, "times_s": times, **extra}
    if w is not None:
        out.update(flops=w.flops, bytes=w.bytes, achieved_flops=w.flops / median, achieved_bandwidth=w.bytes / median)
    return out


def chain(device: Device, x: Tensor) -> Tensor:
    """The drill's chain: relu(x * 2 + 1) * 0.5."""
    return device.relu(x * 2 + 1) * 0.5


def sweep_elementwise(t: Timer, device: Device, sides: list[int], compile_too: bool) -> list[dict[str, Any]]:
    """A2 and A3: the chain from tiny to large, eager and compiled."""
    compiled = device.compile(lambda x: chain(device, x)) if compile_too else None
    points = []
    for side in sides:
        x = device.randn(8, side, side)
        shape = [8, side, side]
        points.append(point("elementwise", "eager", shape, "fp32", w=work.elementwise(tuple(shape), "fp32", ops=4),
                            times=t(lambda x=x: chain(device, x))))
        if compiled is not None:
            points.append(point("elementwise", "compiled", shape, "fp32",
                                w=work.elementwise(tuple(shape), "fp32", ops=4, fused=True), times=t(lambda x=x: compiled(x))))
    return points


def sweep_matmul(t: Timer, device: Device, sizes: list[int], dtype: str,
                 extra: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """A1 and Part B: square matmuls."""
    points = []
    for n, dt_name in [*((s, dtype) for s in sizes), *extra]:
        a = device.randn(n, n, dtype=dt_name)
        b = device.randn(n, n, dtype=dt_name)
        points.append(point("matmul", dt_name, [n, n, n], dt_name, w=work.matmul(n, n, n, dt_name),
                            times=t(lambda a=a, b=b: a @ b)))
    return points


def sweep_decode(t: Timer, device: Device, params: float, hidden: int, batches: list[int]) -> list[dict[str, Any]]:
    """A4: one GEMV-like step over a 7B-sized weight at several batches."""
    rows = int(params // hidden)
    weight = device.randn(rows, hidden, dtype="bf16")
    points = []
    for batch in batches:
        x = device.randn(batch, hidden, dtype="bf16")
        w = work.decode(rows * hidden, "bf16", batch=batch)
        points.append(point("decode", f"batch {batch}", [batch, hidden, rows], "bf16", w=w,
                            times=t(lambda x=x: x @ weight.T), batch=batch))
    return points


def sweep_launches(t: Timer, device: Device, launches: int) -> list[dict[str, Any]]:
    """A6: many tiny launches, eager and captured in a CUDA graph."""
    x = device.zeros(1024)

    def many() -> None:
        for _ in range(launches):
            x.add_(1.0)

    points = [point("launches", "eager", [1024], "fp32", w=None, times=t(many), launches=launches)]
    replay = device.graph(many)
    if replay is not None:
        points.append(point("launches", "cuda graph", [1024], "fp32", w=None, times=t(replay), launches=launches))
    return points


def sweep_item(t: Timer, device: Device, hidden: int, steps: int) -> list[dict[str, Any]]:
    """A7: a decode-like loop with and without a host read per step."""
    weight = device.randn(hidden, hidden)
    state = device.randn(1, hidden)

    def loop(read_back: bool) -> None:
        y = state
        for _ in range(steps):
            y = device.tanh(y @ weight)
            if read_back:
                y[0, 0].item()

    return [point("host_sync", "no .item()", [hidden], "fp32", w=None, times=t(lambda: loop(False)), steps=steps),
            point("host_sync", ".item() per step", [hidden], "fp32", w=None, times=t(lambda: loop(True)), steps=steps)]


TINY = {"sides": [8, 16, 32], "matmuls": [32, 64], "extra": [(64, "fp32")], "params": 2**16, "hidden": 256,
        "batches": [1, 8], "launches": 50, "item_hidden": 64, "steps": 10, "mm_dtype": "fp32"}
FULL = {"sides": [32, 64, 128, 256, 512, 1024, 2048, 4096],  # each step 4x the elements: Rule 3
        "matmuls": [128, 256, 512, 1024, 2048, 4096, 8192],
        "extra": [(4096, "fp16")], "params": 7e9, "hidden": 8192, "batches": [1, 8, 64], "launches": 4000,
        "item_hidden": 4096, "steps": 200, "mm_dtype": "bf16"}


def measure(device: Device, plan: dict[str, Any], *, repeats: int, warmup: int, compile_too: bool) -> list[dict[str, Any]]:
    """Every sweep of ``plan`` on ``device``."""
    t = Timer(device, repeats, warmup)
    return [
        *sweep_elementwise(t, device, plan["sides"], compile_too=compile_too),
        *sweep_matmul(t, device, plan["matmuls"], plan["mm_dtype"], plan["extra"]),
        *sweep_decode(t, device, plan["params"], plan["hidden"], plan["batches"]),
        *sweep_launches(t, device, plan["launches"]),
        *sweep_item(t, device, plan["item_hidden"], plan["steps"]),
    ]


def main(argv: list[str] | None = None, make_device: Callable[[str | None], Device] = TorchDevice) -> int:
    """Run every sweep and write the data file; ``make_device`` is the seam the tests fill with a fake."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--device", choices=("cuda", "cpu"), default=None, help="default: cuda when there is one")
    parser.add_argument("--tiny", action="store_true", help="tiny sizes, for a CPU check of the script")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    device = make_device(args.device)
    started = time.time()
    points = measure(device, TINY if args.tiny else FULL, repeats=3 if args.tiny else args.repeats,
                     warmup=1 if args.tiny else 3, compile_too=not args.no_compile)
    result = {
        "format": "Measured points from bench/gpu/measure.py; never edited by hand. time_s is the median of times_s.",
        "environment": {**device.environment(), "python": platform.python_version(), "device": device.name},
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python", "bench/gpu/measure.py", *(sys.argv[1:] if argv is None else argv)]),
        "seconds": round(time.time() - started, 1),
        "points": points,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    for p in points:
        rate = f"{p.get('achieved_bandwidth', 0) / 1e9:9.1f} GB/s {p.get('achieved_flops', 0) / 1e12:8.2f} TFLOP/s" \
            if "flops" in p else ""
        print(f"{p['sweep']:11} {p['variant']:17} {p['shape']!s:22} {p['time_s'] * 1e6:12.1f} us {rate}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
