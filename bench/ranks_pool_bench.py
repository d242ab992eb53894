"""`regime ranks --jobs N` on many ranks' traces: the process pool against the ideal of N readings at once.

Writes ``--ranks`` synthetic traces (bench/trace_page_bench.py's writer: GEMMs with recorded shapes and elementwise
kernels, about ``--megabytes`` MB gzipped each, each rank with its own seed and its ``distributedInfo``), then,
``--runs`` times, in turn: each trace read alone in this process, one after the other (what ``--jobs 1`` does,
the merge left out), and the whole command ``regime ranks DIR --jobs N --json`` as a process of its own (start-up,
the pool, the merge and the JSON included). Issue 44 asks for the pool within 1.2× of the readings' sum ÷ N.

    .venv/bin/python bench/ranks_pool_bench.py [--ranks 64] [--megabytes 20] [--jobs 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trace_page_bench import write_trace  # one way of writing a large synthetic trace

from regime_core.cli.main import rank_reading

ROOT = Path(__file__).resolve().parent.parent


def write_ranks(folder: Path, ranks: int, megabytes: float) -> None:
    """``ranks`` traces of about ``megabytes`` MB gzipped, rank r written with seed r and named as rank r."""
    for rank in range(ranks):
        write_trace(folder / f"rank{rank}.pt.trace.json.gz", megabytes, seed=rank + 1, rank=(rank, ranks))


def main() -> None:
    """Write the ranks, time both sides in turn, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--megabytes", type=float, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    alone: list[float] = []
    pooled: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_ranks(folder, args.ranks, args.megabytes)
        files = sorted(str(p) for p in folder.glob("*.json.gz"))
        stored = sum(Path(f).stat().st_size for f in files)
        for _ in range(args.runs):
            start = time.perf_counter()
            for path in files:
                if rank_reading(path)[1] is None:
                    raise SystemExit(f"{path} did not read")
            alone.append(time.perf_counter() - start)
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "regime_core", "ranks", tmp, "--jobs", str(args.jobs),
                                  "--json"], cwd=ROOT, capture_output=True, check=False)
            pooled.append(time.perf_counter() - start)
            if out.returncode != 0:
                raise SystemExit(f"regime ranks failed: {out.stderr.decode()[-2000:]}")
            if len(json.loads(out.stdout)["ranks"]) != args.ranks:
                raise SystemExit("regime ranks merged another number of ranks")
    ideal = [a / args.jobs for a in alone]
    ratio = [p / i for p, i in zip(pooled, ideal, strict=True)]
    print(f"{args.ranks} ranks, {stored / args.ranks / 1e6:.1f} MB gzipped each ({stored / 1e6:.0f} MB in all);"
          f" --jobs {args.jobs}; {args.runs} runs, in turn; medians\n")
    print("| measure | each read alone, summed | the sum ÷ jobs | regime ranks --jobs (whole command) | ratio of"
          " medians | ratio per run, median (min–max) | target |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print(f"| wall s | {statistics.median(alone):.1f} | {statistics.median(ideal):.1f} | {statistics.median(pooled):.1f}"
          f" | {statistics.median(pooled) / statistics.median(ideal):.2f} | {statistics.median(ratio):.2f}"
          f" ({min(ratio):.2f}–{max(ratio):.2f}) | ≤ 1.2 |")


if __name__ == "__main__":
    main()
