"""`regime ranks --engine ray` against the local process pool, on 16 ranks (issue 44: within 1.5×).

Writes ``--ranks`` synthetic traces (bench/trace_page_bench.py's writer, about ``--megabytes`` MB gzipped each, each
rank named by its ``distributedInfo``), then, ``--runs`` times, in turn, each as a process of its own: ``regime
ranks DIR --jobs N --json`` (the local pool) and ``regime ranks DIR --engine ray --jobs N --json`` (a local Ray
instance of N CPUs started, used and shut down by the command: its start-up is in the time, as it is for a user on
a laptop). A third side reads through Ray already running in this process (what a user on a cluster pays: no
start-up), timed from the call to the merged readings. The table gives each median, the per-run ratios and the
target.

    .venv/bin/python bench/ray_bench.py [--ranks 16] [--megabytes 5] [--jobs 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ranks_pool_bench import write_ranks  # one way of writing many ranks' traces

from regime_ray import read_ranks

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5


def _command(folder: str, *options: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "regime_core", "ranks", folder, "--json", *options], cwd=ROOT,
                   capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    """Write the ranks, time the sides in turn, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--megabytes", type=float, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"pool": [], "ray": [], "warm": []}
    with tempfile.TemporaryDirectory() as tmp:
        write_ranks(Path(tmp), args.ranks, args.megabytes)
        files = sorted(str(p) for p in Path(tmp).glob("*.json.gz"))
        jobs = str(args.jobs)
        for _ in range(args.runs):
            times["pool"].append(_command(tmp, "--jobs", jobs))
            times["ray"].append(_command(tmp, "--engine", "ray", "--jobs", jobs))
            ray.init(num_cpus=args.jobs, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            try:
                start = time.perf_counter()
                read_ranks(files, jobs=args.jobs)
                times["warm"].append(time.perf_counter() - start)
            finally:
                ray.shutdown()
    median = {side: statistics.median(values) for side, values in times.items()}
    print(f"{args.ranks} ranks of ~{args.megabytes:g} MB gzipped, --jobs {args.jobs}; median of {args.runs} runs,"
          f" CPython {sys.version.split()[0]}, Ray {ray.__version__}\n")
    print("| side | median s | per run s | ratio to the pool (per run) |")
    print("| --- | ---: | --- | --- |")
    for side, label in (("pool", "`--engine local` (process pool), a command"),
                        ("ray", "`--engine ray`, a command (starts local Ray)"),
                        ("warm", "Ray already running, the reading only")):
        ratios = ", ".join(f"{t / p:.2f}" for t, p in zip(times[side], times["pool"], strict=True))
        print(f"| {label} | {median[side]:.2f} | {', '.join(f'{t:.2f}' for t in times[side])} |"
              f" {median[side] / median['pool']:.2f}× ({ratios}) |")
    print(f"\ntarget: --engine ray within {TARGET}× the pool: "
          f"{'met' if median['ray'] <= TARGET * median['pool'] else 'not met'} with start-up,"
          f" {'met' if median['warm'] <= TARGET * median['pool'] else 'not met'} on a running instance")


if __name__ == "__main__":
    main()
