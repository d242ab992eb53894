"""How long the grader's text readers take on pathological text, 10,000 and 100,000 characters of each class.

Usage: ``.venv/bin/python bench/readers_bench.py [--runs N]``. Each reading runs every reader a learner's line
goes through (``with_units``, ``claims.read`` and ``claims.judge``, ``read_argument``), with the normaliser's
cache cleared; the table gives the median of N runs per size, the ratio of the two (10× the text: a linear
reader takes ~10×, a quadratic one ~100×), and the target of issue 26 (100 ms at 100,000 characters). A
learner's field holds at most 10,000 characters (``grading.attempt.MAX_TEXT``): the 10k column is what a
page ever asks of one field. tests/test_claims.py holds each class to linear growth.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from regime_core.grading import claims
from regime_core.grading.argument import read_argument
from regime_core.grading.grade import facts
from regime_core.grading.language import normalise, with_units
from test_claims import PATHOLOGICAL  # the classes the linearity test uses

TARGET_MS = 100.0


def _once(text: str) -> float:
    normalise.cache_clear()
    started = time.perf_counter()
    lowered = with_units(text)
    claims.judge(facts("a6"), claims.read(lowered))
    read_argument(lowered)
    return (time.perf_counter() - started) * 1e3


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"| class (first 12 characters) | 10k ms | 100k ms | ratio | 100k ≤ {TARGET_MS:.0f} ms |")
    print("| --- | ---: | ---: | ---: | --- |")
    worst = 0.0
    for text in PATHOLOGICAL:
        small = statistics.median(_once(text[:10_000]) for _ in range(runs))
        large = statistics.median(_once(text) for _ in range(runs))
        worst = max(worst, large)
        print(f"| `{text[:12]!r}` | {small:.1f} | {large:.1f} | {large / small:.1f} |"
              f" {'met' if large <= TARGET_MS else '**not met**'} |")
    print(f"\nslowest at 100k: {worst:.1f} ms (median of {runs} runs, CPython {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
