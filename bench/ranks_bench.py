"""1,024 ranks' digests merged: the time and the memory the merge takes.

One rank's reading (a synthetic 8-step trace with an all-reduce a step, tests/test_ranks.py's writer) is copied
into 1,024 digests, each with its own rank and a compute time drawn around the others' (one straggler); the merge
of all of them is timed (median of several runs) and its peak memory measured with tracemalloc. Issue 44 asks for
1,024 digests merged within 1 s and 200 MB.

    .venv/bin/python bench/ranks_bench.py [--ranks 1024] [--runs 5]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from regime_core.trace.ranks import digest, merge, reading_of
from regime_core.trace.reading import read_trace
from test_ranks import job  # the tests' writer of a rank's trace
from trace_builder import as_bytes


def main() -> int:
    """Make the digests, time and measure the merge, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    reading = read_trace(as_bytes(job(2, steps=8)[0])).to_json()
    rng = random.Random(1)
    digests = []
    for rank in range(args.ranks):
        one = copy.deepcopy(reading)
        one["trace"].update(rank=rank, world_size=args.ranks, window=one["trace"]["window"] * rng.uniform(0.98, 1.02)
                            * (1.3 if rank == 517 else 1.0))
        digests.append(digest(one))
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        result = merge((f"rank{n}", reading_of(d)) for n, d in enumerate(digests))
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    merge((f"rank{n}", reading_of(d)) for n, d in enumerate(digests))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"| digests | merge (s, median of {args.runs}) | peak memory of the merge (MB) | stragglers found |\n"
          f"| ---: | ---: | ---: | --- |\n| {args.ranks:,} | {statistics.median(times):.3f} | {peak / 1e6:.1f} |"
          f" {result['stragglers']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
