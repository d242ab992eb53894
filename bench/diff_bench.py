"""`regime diff` on two large traces against reading the two traces alone.

Writes a synthetic Kineto trace of about ``--megabytes`` MB of JSON twice (bench/trace_page_bench.py's writer:
GEMMs with shapes, elementwise kernels, their launches; what changed between the two does not change the cost of
comparing two readings), then times, in turn,
reading both (``read_trace`` twice) and the whole diff (both read, then compared, its paragraph and Markdown
written), several times each in this process; prints the medians and their ratio. Issue 43 asks for the diff
within 1.1× of reading both: the comparison itself works on two small readings.

    .venv/bin/python bench/diff_bench.py [--runs 3] [--megabytes 100]
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from in_turn import medians_in_turn
from trace_page_bench import write_trace  # one writer of large traces for the benchmarks

from regime_core.trace.diff import diff, markdown
from regime_core.trace.reading import read_trace


def main() -> int:
    """Write the traces, time both sides in turn, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--megabytes", type=float, default=100.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n in range(2):
            zipped = Path(tmp) / f"{n}.json.gz"
            write_trace(zipped, args.megabytes / 8)  # gzip is ~8× smaller: about the asked JSON unzipped
            plain = Path(tmp) / f"{n}.json"
            plain.write_bytes(gzip.decompress(zipped.read_bytes()))
            paths.append(plain)
        sizes = [p.stat().st_size / 1e6 for p in paths]

        def read_both() -> list[dict[str, object]]:
            readings = []
            for path in paths:
                with path.open("rb") as handle:
                    readings.append(read_trace(handle).to_json())
            return readings

        a, b = medians_in_turn(args.runs, read_both, lambda: markdown(diff(*read_both())))
    print(f"| traces (MB of JSON) | read both (s) | regime diff (s) | ratio |\n| --- | ---: | ---: | ---: |\n"
          f"| {sizes[0]:.0f} and {sizes[1]:.0f} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
