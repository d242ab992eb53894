"""`regime trace` on a ~100 MB trace against a bare `json.load` of the same file: time and peak memory.

Writes a synthetic Kineto trace (GEMMs with recorded shapes, elementwise kernels, their launches) of about
100 MB, then runs each command as its own process, in turn, several times, and prints the medians and the
ratios run by run. Peak memory is the process's maximum resident set (``wait4``'s ru_maxrss).

    .venv/bin/python bench/trace_bench.py [--runs 5] [--megabytes 100] [--gzip]

With ``--gzip`` the trace is written gzipped and the bare side is ``json.load(gzip.open(FILE))``; peak ÷ file is
then of the JSON's size, unzipped.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from trace_builder import Trace  # the tests' trace writer: one way of writing traces


def write_trace(path: Path, megabytes: float) -> int:
    """A deterministic trace of about ``megabytes`` MB (its JSON; gzipped where ``path`` ends .gz); its event count."""
    random.seed(1)
    t = Trace()
    at = 100.0
    while len(t.events) % 50_000 or len(json.dumps(t.events[:2000])) * len(t.events) / 2000 < megabytes * 1e6:
        op = t.op(at - 10, 5, "aten::mm", [[1024, 1024], [1024, 1024]], ["c10::BFloat16", "c10::BFloat16"])
        t.kernel(at, 20 + random.random() * 5, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", op=op)
        t.kernel(at + 30, 8, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>")
        at += 45
    if path.suffix == ".gz":
        with gzip.open(path, "wt", compresslevel=6) as out:
            json.dump(t.document(), out)
    else:
        with path.open("w") as out:
            json.dump(t.document(), out)
    return len(t.events)


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{command[:4]} failed: {process.stderr.read().decode()[-500:] if process.stderr else ''}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    """Write the trace, time both commands in turn, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--gzip", action="store_true")
    parser.add_argument("--write", metavar="FILE", help=argparse.SUPPRESS)  # the child that writes the trace
    args = parser.parse_args()
    if args.write:
        print(write_trace(Path(args.write), args.megabytes))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("trace.json.gz" if args.gzip else "trace.json")
        # Written by a child process: this one stays small, so the commands it starts do not inherit a large
        # peak (Linux keeps a process's peak resident size across exec, and a fork starts at its parent's).
        events = int(subprocess.run([sys.executable, __file__, "--write", str(path), "--megabytes", str(args.megabytes)],
                                    capture_output=True, text=True, check=True).stdout)
        stored = path.stat().st_size / 1e6
        size = stored
        if args.gzip:
            with gzip.open(path) as unzipped:
                size = sum(len(piece) for piece in iter(functools.partial(unzipped.read, 2**24), b"")) / 1e6
        ours = [sys.executable, "-m", "regime_core", "trace", str(path), "--json"]
        opener = "gzip.open(sys.argv[1])" if args.gzip else "open(sys.argv[1])"
        bare = [sys.executable, "-c", f"import gzip, json, sys; json.load({opener})", str(path)]
        run(ours)  # warm-up: the page cache holds the file for both
        pairs = [(run(ours), run(bare)) for _ in range(args.runs)]
    t_ours, t_bare = [p[0][0] for p in pairs], [p[1][0] for p in pairs]
    m_ours, m_bare = [p[0][1] for p in pairs], [p[1][1] for p in pairs]
    ratio = [a / b for a, b in zip(t_ours, t_bare, strict=True)]
    # Issue 42's targets for a trace of gigabytes; the earlier ones for the 100 MB trace
    time_target, memory_target = ("≤ 1.3", "≤ 0.5") if size >= 1000 else ("≤ 2.0", "≤ 3.0")
    zipped = f" ({stored:.1f} MB gzipped)" if args.gzip else ""
    print(f"trace: {size:.1f} MB of JSON{zipped}, {events:,} events; {args.runs} runs each, in turn; medians\n")
    print("| measure | regime trace | json.load | ratio of medians | ratio per run, median (min–max) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| wall s | {statistics.median(t_ours):.2f} | {statistics.median(t_bare):.2f} |"
          f" {statistics.median(t_ours) / statistics.median(t_bare):.2f} | {statistics.median(ratio):.2f}"
          f" ({min(ratio):.2f}–{max(ratio):.2f}) | {time_target} |")
    print(f"| peak MB | {statistics.median(m_ours):.0f} | {statistics.median(m_bare):.0f} |"
          f" {statistics.median(m_ours) / statistics.median(m_bare):.2f} | | |")
    print(f"| peak ÷ file | {statistics.median(m_ours) / size:.2f} | {statistics.median(m_bare) / size:.2f} | | |"
          f" {memory_target} |")


if __name__ == "__main__":
    main()
