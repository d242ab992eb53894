"""The "Your trace" page's reader under Pyodide against Pyodide's own ``json.loads`` of the same file.

Writes a synthetic Kineto trace whose gzip is about 20 MB (GEMMs with recorded shapes, elementwise
kernels and their launches, with varied times and ids so that it compresses as a real trace does, ~8×),
then, in Node, under the Pyodide build the site ships, times the bridge's ``trace`` op on the file's bytes
(what the page's worker runs: unzip, read, verdict, strip, roofline, review comment) against
``json.loads(gzip.decompress(bytes))``, in turn, several times, each timing in a Pyodide of its own (a side
run after the other in one interpreter inherits its heap: ``json.loads`` after the op took twice as long as
alone); prints the medians and the ratios.

    .venv/bin/python bench/trace_page_bench.py [--runs 3] [--megabytes 20] [--diff | --ranks N]

``--ranks N`` writes N traces of ``--megabytes`` each (one per rank, named by ``distributedInfo``) and times what the
page runs on them (``rank_digest`` on each in turn, then ``ranks``) against ``json.loads`` of all N (issue 44:
8 ranks of 5 MB within 2.5×).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from trace_builder import Trace  # the tests' trace writer: one way of writing traces

ROOT = Path(__file__).resolve().parent.parent


def write_trace(path: Path, megabytes: float, seed: int = 1, rank: tuple[int, int] | None = None) -> tuple[int, int]:
    """A deterministic trace whose gzip is about ``megabytes`` MB; returns its events and its JSON size.

    ``rank`` (rank, world size) names it as one rank of a run, as ``distributedInfo`` does.
    """
    rng = random.Random(seed)
    t = Trace()
    at = 100.0
    zipped = 0.0
    while True:
        for _ in range(5000):
            size = rng.choice((1024, 2048, 4096))
            op = t.op(at - 10, 5 + rng.random(), "aten::mm", [[size, 1024], [1024, size]],
                      ["c10::BFloat16", "c10::BFloat16"])
            t.kernel(at, 20 + rng.random() * 5, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", op=op)
            t.kernel(at + 30 + rng.random(), 8 + rng.random(),
                     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>")
            at += 45 + rng.random() * 10
        if not zipped:  # the ratio of the first batch sets how many more to write
            sample = json.dumps(t.document()).encode()
            zipped = len(gzip.compress(sample, 6)) / len(t.events)
        if zipped * len(t.events) >= megabytes * 1e6:
            break
    document = t.document()
    if rank is not None:
        document["distributedInfo"] = {"backend": "nccl", "rank": rank[0], "world_size": rank[1]}
    data = json.dumps(document).encode()
    path.write_bytes(gzip.compress(data, 6))
    return len(t.events), len(data)


def main() -> None:
    """Write the trace, time both in Pyodide under Node, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--megabytes", type=float, default=20)
    parser.add_argument("--ranks", type=int, default=0, help="N traces, one per rank, read as the page reads a run")
    parser.add_argument("--diff", action="store_true",
                        help="compare two traces as the page does (the trace op on each, then trace_diff) against"
                             " json.loads of both")
    args = parser.parse_args()
    ours: list[float] = []
    theirs: list[float] = []
    kernels = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.pt.trace.json.gz"
        events, unzipped = write_trace(path, args.megabytes)
        stored = path.stat().st_size
        second: list[str] = []
        if args.diff:  # the after trace: the same kind of work, other times
            write_trace(Path(tmp) / "after.pt.trace.json.gz", args.megabytes, seed=2)
            second = [str(Path(tmp) / "after.pt.trace.json.gz")]
        if args.ranks:  # rank 0 is the trace above, rewritten as one rank of N
            events, unzipped = write_trace(path, args.megabytes, seed=1, rank=(0, args.ranks))
            for rank in range(1, args.ranks):
                write_trace(Path(tmp) / f"rank{rank}.pt.trace.json.gz", args.megabytes, seed=rank + 1,
                            rank=(rank, args.ranks))
            second = [str(Path(tmp) / f"rank{rank}.pt.trace.json.gz") for rank in range(1, args.ranks)]
            stored = sum(Path(f).stat().st_size for f in [str(path), *second])
        sides = ((("loadsN", theirs), ("ranks", ours)) if args.ranks else (("loads2", theirs), ("diff", ours))
                 if args.diff else (("loads", theirs), ("op", ours)))
        for _ in range(args.runs):
            for side, times in sides:
                out = subprocess.run(["node", "--max-old-space-size=8192", str(ROOT / "bench/trace_pyodide.mjs"),
                                      str(ROOT / "src"), str(path), side, *second],
                                     cwd=ROOT, capture_output=True, text=True, check=False)
                if out.returncode != 0:
                    raise SystemExit(f"node failed: {out.stderr[-2000:]}")
                answer = json.loads(out.stdout)
                times.append(answer["seconds"])
                kernels = answer.get("kernels", kernels)
    ratio = [a / b for a, b in zip(ours, theirs, strict=True)]
    if args.ranks:
        print(f"{args.ranks} ranks' traces: {stored / 1e6:.1f} MB gzipped in all; rank 0's is {unzipped / 1e6:.0f} MB of"
              f" JSON, {events:,} events; {args.runs} runs each, in turn, each in a fresh Pyodide under Node; medians\n")
    else:
        what = "two traces, each" if args.diff else "trace"
        print(f"{what}: {stored / 1e6:.1f} MB gzipped ({unzipped / 1e6:.0f} MB of JSON), {events:,} events;"
              f" {kernels:,} kernels read; {args.runs} runs each, in turn, each in a fresh Pyodide under Node;"
              " medians\n")
    ours_said, theirs_said, target = (
        ("rank_digest on each + ranks", f"json.loads of all {args.ranks}", "≤ 2.5") if args.ranks else
        ("trace op on each + trace_diff", "json.loads of both", "≤ 2.2") if args.diff
        else ("trace op", "json.loads(gzip.decompress())", "≤ 2.0"))
    print(f"| measure | {ours_said} | {theirs_said} | ratio of medians | ratio per run, median (min–max) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| wall s | {statistics.median(ours):.2f} | {statistics.median(theirs):.2f} |"
          f" {statistics.median(ours) / statistics.median(theirs):.2f} | {statistics.median(ratio):.2f}"
          f" ({min(ratio):.2f}–{max(ratio):.2f}) | {target} |")


if __name__ == "__main__":
    main()
