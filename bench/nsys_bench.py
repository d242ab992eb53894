"""`regime trace` on an Nsight Systems SQLite export of a million kernels against a bare `sqlite3` scan of its kernels.

Writes an export as ``nsys export --type sqlite`` lays it out (the tables the reader reads, from NVIDIA's SQLite
Export Schema Reference; the same layout as the tests' fixtures): a picket fence of GEMMs and elementwise kernels
with their ``cudaLaunchKernel_v7000`` runtime calls, NVTX step ranges, the card. Then runs each command as its own
process, in turn, several times, and prints the medians and the ratios run by run. The bare side selects every
kernel row (times, device, stream, correlation id, name) and does nothing with it: issue 42 asks for the whole
reading within 2× of that scan. Peak memory is the process's maximum resident set (``wait4``'s ru_maxrss).

    .venv/bin/python bench/nsys_bench.py [--runs 3] [--kernels 1000000]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from trace_bench import run  # one way of timing a process: wall seconds and peak resident MB

from trace_builder import NSYS_SCHEMA  # the tables of an nsys SQLite export, as the tests' fixtures write them

_STEP_KERNELS = 10_000  # kernels between two NVTX step ranges


def write_export(path: Path, kernels: int) -> None:
    """A deterministic export of ``kernels`` kernels, half GEMMs and half elementwise, each with its launch (ns)."""
    con = sqlite3.connect(path)
    con.executescript(NSYS_SCHEMA)
    con.executemany("INSERT INTO StringIds VALUES (?, ?)", [
        (1, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"), (2, "sm90_xmma_gemm"),
        (3, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"),
        (4, "vectorized_elementwise_kernel"), (5, "cudaLaunchKernel_v7000")])

    def rows() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        gpu, host = [], []
        at = 1_000_000
        for n in range(kernels):
            gemm = n % 2 == 0
            took = 20_000 + (n * 7919) % 5_000 if gemm else 8_000
            host.append((at - 6_000, at - 2_000, 0, 77, n + 1, 5, 0))
            gpu.append((at, at + took, 0, 1, 7, n + 1, 1, 1 if gemm else 3, 2 if gemm else 4, 1, 128))
            at += took + (10_000 if gemm else 7_000)
        return gpu, host

    gpu, host = rows()
    con.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,?,?,?,?,?,?,?)", gpu)
    con.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?)", host)
    steps = [(gpu[i][0] - 7_000, gpu[min(i + _STEP_KERNELS, kernels) - 1][1], 59, 0, 0, 0, f"ProfilerStep#{i // _STEP_KERNELS}",
              77, 77, None, 0) for i in range(0, kernels, _STEP_KERNELS)]
    con.executemany("INSERT INTO NVTX_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?)", steps)
    con.execute("INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100 80GB HBM3', '0000:00:00.0', 85899345920)")
    con.commit()
    con.close()


_BARE = ("import sqlite3, sys\n"
         "con = sqlite3.connect(sys.argv[1])\n"
         "for _ in con.execute('SELECT start, end, deviceId, streamId, correlationId, demangledName"
         " FROM CUPTI_ACTIVITY_KIND_KERNEL'):\n"
         "    pass\n")

# The tables the reading needs: the kernels and the runtime calls (launches and syncs), every row of each.
_BARE_BOTH = _BARE + ("for _ in con.execute('SELECT start, end, correlationId, globalTid, nameId"
                      " FROM CUPTI_ACTIVITY_KIND_RUNTIME'):\n"
                      "    pass\n")


def main() -> None:
    """Write the export, time both commands in turn, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kernels", type=int, default=1_000_000)
    parser.add_argument("--write", metavar="FILE", help=argparse.SUPPRESS)  # the child that writes the export
    args = parser.parse_args()
    if args.write:
        write_export(Path(args.write), args.kernels)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.sqlite"
        # Written by a child process: this one stays small, so the commands it starts do not inherit a large
        # peak (Linux keeps a process's peak resident size across exec, and a fork starts at its parent's).
        subprocess.run([sys.executable, __file__, "--write", str(path), "--kernels", str(args.kernels)], check=True)
        size = path.stat().st_size / 1e6
        ours = [sys.executable, "-m", "regime_core", "trace", str(path), "--json"]
        bare = [sys.executable, "-c", _BARE, str(path)]
        both = [sys.executable, "-c", _BARE_BOTH, str(path)]
        check = subprocess.run(ours, capture_output=True, text=True, check=True).stdout  # and the page cache is warm
        pairs = [(run(ours), run(bare), run(both)) for _ in range(args.runs)]
    t_ours, t_bare, t_both = [p[0][0] for p in pairs], [p[1][0] for p in pairs], [p[2][0] for p in pairs]
    m_ours, m_bare = [p[0][1] for p in pairs], [p[1][1] for p in pairs]
    ratio = [a / b for a, b in zip(t_ours, t_bare, strict=True)]
    ratio_both = [a / b for a, b in zip(t_ours, t_both, strict=True)]
    print(f"export: {size:.1f} MB, {args.kernels:,} kernels and as many runtime calls;"
          f" {args.runs} runs each, in turn; medians; it reads {len(check):,} bytes of JSON\n")
    print("| measure | regime trace | bare sqlite3 scan | ratio of medians | ratio per run, median (min–max) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| wall s | {statistics.median(t_ours):.2f} | {statistics.median(t_bare):.2f} |"
          f" {statistics.median(t_ours) / statistics.median(t_bare):.2f} | {statistics.median(ratio):.2f}"
          f" ({min(ratio):.2f}–{max(ratio):.2f}) | ≤ 2 |")
    print(f"| peak MB | {statistics.median(m_ours):.0f} | {statistics.median(m_bare):.0f} |"
          f" {statistics.median(m_ours) / statistics.median(m_bare):.2f} | | |")
    print(f"| peak ÷ file | {statistics.median(m_ours) / size:.2f} | {statistics.median(m_bare) / size:.2f} | | | |")
    print(f"\nA bare scan of both tables the reading reads (kernels and runtime calls): {statistics.median(t_both):.2f} s;"
          f" regime trace is {statistics.median(t_ours) / statistics.median(t_both):.2f}× it (per run, median"
          f" {statistics.median(ratio_both):.2f}, {min(ratio_both):.2f}–{max(ratio_both):.2f}); the two-table scan alone is"
          f" {statistics.median(t_both) / statistics.median(t_bare):.2f}× the kernel table's.")


if __name__ == "__main__":
    main()
