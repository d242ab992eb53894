"""Measure the three regimes on one card and write them as data for regime_core.

Each point carries its shape, dtype, the FLOPs and bytes regime_core's work models give for it,
the median of repeated timed runs after warm-up (CUDA events on a GPU), and achieved FLOP/s and
bytes/s. Sweeps: the drill's elementwise chain eager and compiled (A2, A3); square matmuls (A1,
Part B); a decode-like GEMV over a 7B-sized weight (A4); many tiny launches eager and in a CUDA
graph (A6); a decode loop with and without .item() (A7).

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
from typing import Any

import torch

from regime_core import work

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


class Timer:
    """Median of repeated timed runs after warm-up: CUDA events on a GPU, perf_counter on the CPU."""

    def __init__(self, device: str, repeats: int, warmup: int) -> None:
        self.device, self.repeats, self.warmup = device, repeats, warmup

    def sync(self) -> None:
        """Wait for the device."""
        if self.device == "cuda":
            torch.cuda.synchronize()

    def __call__(self, fn: Callable[[], object]) -> list[float]:
        """Seconds per run of ``fn``, one entry per timed run."""
        for _ in range(self.warmup):
            fn()
        self.sync()
        times = []
        for _ in range(self.repeats):
            if self.device == "cuda":
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end) / 1000)
            else:
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
        return times


def point(sweep: str, variant: str, shape: list[int], dtype: str, *, w: work.Work | None, times: list[float],
          **extra: Any) -> dict[str, Any]:
    """One measured point: what ran, how long (median), and how fast against its work."""
    median = statistics.median(times)
    out: dict[str, Any] = {"sweep": sweep, "variant": variant, "shape": shape, "dtype": dtype,
                           "time_s": median, "times_s": times, **extra}
    if w is not None:
        out.update(flops=w.flops, bytes=w.bytes, achieved_flops=w.flops / median, achieved_bandwidth=w.bytes / median)
    return out


def chain(x: torch.Tensor) -> torch.Tensor:
    """The drill's chain: relu(x * 2 + 1) * 0.5."""
    return torch.relu(x * 2 + 1) * 0.5


def sweep_elementwise(t: Timer, device: str, sides: list[int], compile_too: bool) -> list[dict[str, Any]]:
    """A2 and A3: the chain from tiny to large, eager and compiled."""
    compiled = torch.compile(chain) if compile_too else None
    points = []
    for side in sides:
        x = torch.randn(8, side, side, device=device)
        shape = [8, side, side]
        points.append(point("elementwise", "eager", shape, "fp32", w=work.elementwise(tuple(shape), "fp32", ops=4),
                            times=t(lambda x=x: chain(x))))
        if compiled is not None:
            points.append(point("elementwise", "compiled", shape, "fp32",
                                w=work.elementwise(tuple(shape), "fp32", ops=4, fused=True), times=t(lambda x=x: compiled(x))))
    return points


def sweep_matmul(t: Timer, device: str, sizes: list[int], dtype: str,
                 extra: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """A1 and Part B: square matmuls."""
    points = []
    for n, dt_name in [*((s, dtype) for s in sizes), *extra]:
        a = torch.randn(n, n, device=device, dtype=DTYPES[dt_name])
        b = torch.randn(n, n, device=device, dtype=DTYPES[dt_name])
        points.append(point("matmul", dt_name, [n, n, n], dt_name, w=work.matmul(n, n, n, dt_name),
                            times=t(lambda a=a, b=b: a @ b)))
    return points


def sweep_decode(t: Timer, device: str, params: float, hidden: int, batches: list[int]) -> list[dict[str, Any]]:
    """A4: one GEMV-like step over a 7B-sized weight at several batches."""
    rows = int(params // hidden)
    weight = torch.randn(rows, hidden, device=device, dtype=torch.bfloat16)
    points = []
    for batch in batches:
        x = torch.randn(batch, hidden, device=device, dtype=torch.bfloat16)
        w = work.decode(rows * hidden, "bf16", batch=batch)
        points.append(point("decode", f"batch {batch}", [batch, hidden, rows], "bf16", w=w,
                            times=t(lambda x=x: x @ weight.T), batch=batch))
    return points


def sweep_launches(t: Timer, device: str, launches: int) -> list[dict[str, Any]]:
    """A6: many tiny launches, eager and captured in a CUDA graph."""
    x = torch.zeros(1024, device=device)

    def many() -> None:
        for _ in range(launches):
            x.add_(1.0)

    points = [point("launches", "eager", [1024], "fp32", w=None, times=t(many), launches=launches)]
    if device == "cuda":
        graph = torch.cuda.CUDAGraph()
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            many()
        torch.cuda.current_stream().wait_stream(stream)
        with torch.cuda.graph(graph):
            many()
        points.append(point("launches", "cuda graph", [1024], "fp32", w=None, times=t(graph.replay), launches=launches))
    return points


def sweep_item(t: Timer, device: str, hidden: int, steps: int) -> list[dict[str, Any]]:
    """A7: a decode-like loop with and without a host read per step."""
    weight = torch.randn(hidden, hidden, device=device, dtype=torch.float32)
    state = torch.randn(1, hidden, device=device)

    def loop(read_back: bool) -> None:
        y = state
        for _ in range(steps):
            y = torch.tanh(y @ weight)
            if read_back:
                y[0, 0].item()

    return [point("host_sync", "no .item()", [hidden], "fp32", w=None, times=t(lambda: loop(False)), steps=steps),
            point("host_sync", ".item() per step", [hidden], "fp32", w=None, times=t(lambda: loop(True)), steps=steps)]


def environment(device: str) -> dict[str, Any]:
    """The card, driver and library versions."""
    env: dict[str, Any] = {"torch": torch.__version__, "python": platform.python_version(), "device": device}
    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        env.update(card=props.name, cuda=torch.version.cuda, memory_bytes=props.total_memory)
        try:
            env["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                           capture_output=True, text=True, check=False).stdout.strip()
        except OSError:
            env["driver"] = "unknown"
    else:
        env.update(card=platform.processor() or platform.machine())
    return env


def main(argv: list[str] | None = None) -> int:
    """Run every sweep and write the data file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--tiny", action="store_true", help="tiny sizes, for a CPU check of the script")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    t = Timer(args.device, args.repeats if not args.tiny else 3, 3 if not args.tiny else 1)
    if args.tiny:
        plan = {"sides": [8, 16, 32], "matmuls": [32, 64], "extra": [(64, "fp32")], "params": 2**16, "hidden": 256,
                    "batches": [1, 8], "launches": 50, "item_hidden": 64, "steps": 10, "mm_dtype": "fp32"}
    else:
        plan = {"sides": [32, 64, 128, 256, 512, 1024, 2048, 4096],  # each step 4x the elements: Rule 3
                    "matmuls": [128, 256, 512, 1024, 2048, 4096, 8192],
                    "extra": [(4096, "fp16")], "params": 7e9, "hidden": 8192, "batches": [1, 8, 64], "launches": 4000,
                    "item_hidden": 4096, "steps": 200, "mm_dtype": "bf16"}
    started = time.time()
    points = [
        *sweep_elementwise(t, args.device, plan["sides"], compile_too=not args.no_compile),
        *sweep_matmul(t, args.device, plan["matmuls"], plan["mm_dtype"], plan["extra"]),
        *sweep_decode(t, args.device, plan["params"], plan["hidden"], plan["batches"]),
        *sweep_launches(t, args.device, plan["launches"]),
        *sweep_item(t, args.device, plan["item_hidden"], plan["steps"]),
    ]
    result = {
        "format": "Measured points from bench/gpu/measure.py; never edited by hand. time_s is the median of times_s.",
        "environment": environment(args.device),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python", *sys.argv]),
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
