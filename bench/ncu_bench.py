"""How long ``regime trace`` takes on an ``ncu --csv`` report of 1,000 kernel launches (issue 42's target: 2 s).

Usage: ``.venv/bin/python bench/ncu_bench.py [--runs N] [--launches N]``. Writes a details-page report as ncu's
default set writes it (about 40 rows a launch: Speed of Light, Launch Statistics, Occupancy, each row its ID,
process, kernel name, sizes, section, metric, unit and value), then times, N runs each, in turn: the whole
command (``python -m regime_core trace FILE``, a process of its own, start-up included), the reading alone
in this process, and a bare ``csv.DictReader`` pass over the same text (the floor any reader pays). The table
gives each median and the reading's ratio to the bare pass.
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from regime_core.trace.reading import read_profile
from test_trace_ncu import ncu_details  # the tests' report writer: one way of writing reports

TARGET_S = 2.0
_FILLER = [("Launch Statistics", f"Launch Metric {i}", "register/thread", "32") for i in range(20)] + [
    ("Occupancy", f"Occupancy Metric {i}", "%", "61.5") for i in range(12)]


def write_report(path: Path, launches: int) -> int:
    """A report of ``launches`` launches over 50 kernels, with ncu's default set's other rows; its size in bytes."""
    kernels = [(f"void at::native::vectorized_elementwise_kernel<4, at::native::Op{i}>(int, T1, T2)",
                5.0 + i, 20.0 + i, 85.0 - i, launches // 50) for i in range(50)]
    text = ncu_details(kernels).decode()
    lines = text.splitlines()
    body = [line for line in lines if line.startswith('"') and not line.startswith('"ID"')]
    head = lines[: len(lines) - len(body)]
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    seen = set()
    for line in body:
        row = next(csv.reader([line]))
        out.write(line + "\n")
        if row[0] not in seen:  # each launch's other sections, once
            seen.add(row[0])
            writer.writerows([*row[:11], section, metric, unit, value] for section, metric, unit, value in _FILLER)
    data = ("\n".join(head) + "\n" + out.getvalue()).encode()
    path.write_bytes(data)
    return len(data)


def _time(run: object) -> float:
    started = time.perf_counter()
    run()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--launches", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.csv"
        size = write_report(path, args.launches)
        raw = path.read_bytes()

        def command() -> None:
            subprocess.run([sys.executable, "-m", "regime_core", "trace", str(path)], check=True,
                           capture_output=True)

        def reading() -> None:
            read_profile(raw)

        def bare() -> None:
            for _ in csv.DictReader(io.StringIO(raw.decode())):
                pass

        times: dict[str, list[float]] = {"command": [], "reading": [], "bare": []}
        for _ in range(args.runs):
            for name, run in (("command", command), ("reading", reading), ("bare", bare)):
                times[name].append(_time(run))
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"report: {args.launches:,} launches, {size / 2**20:.1f} MB; median of {args.runs} runs,"
          f" CPython {sys.version.split()[0]}\n")
    print("| side | median s | per run (min–max) s | ratio to the bare pass |")
    print("| --- | ---: | --- | ---: |")
    for name, label in (("command", "`regime trace FILE` (a process)"), ("reading", "the reading, in process"),
                        ("bare", "bare `csv.DictReader` pass")):
        print(f"| {label} | {median[name]:.3f} | {min(times[name]):.3f}–{max(times[name]):.3f} |"
              f" {median[name] / median['bare']:.2f}× |")
    print(f"\ntarget: the command under {TARGET_S:.0f} s: {'met' if median['command'] < TARGET_S else 'not met'}")


if __name__ == "__main__":
    main()
