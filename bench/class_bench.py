"""A class of write-ups graded into one report, against grading the same files one by one in one process.

``python bench/class_bench.py [--files 200] [--runs 5]`` prints a table: the median of several runs a side, in
turn, and their ratio (issue 45 asks for the report within 1.2× of grading the files one by one). The class is
the project's learner corpus dealt into attempt files, so each has answers of every kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from in_turn import medians_in_turn

from regime_core.grading.class_report import Submission, class_report
from regime_core.grading.grade import grade

ROOT = Path(__file__).resolve().parent.parent


def _files(count: int) -> list[dict[str, object]]:
    """``count`` attempt files dealt from the learner corpus: each incident, Part B and Part C, in turn."""
    corpus = json.loads((ROOT / "tests/data/learner_corpus.json").read_text(encoding="utf-8"))["attempts"]
    by_item: dict[str, list[dict[str, object]]] = {}
    for attempt in corpus:
        by_item.setdefault(attempt["item"], []).append(attempt["answer"])
    files = []
    for n in range(count):
        part_a = {item: answers[n % len(answers)] for item, answers in by_item.items() if item.startswith("a")}
        files.append({"part_a": part_a, "part_b": by_item["part_b"][n % len(by_item["part_b"])],
                      "part_c": by_item["part_c"][n % len(by_item["part_c"])]["paragraph"]})
    return files


def main() -> int:
    """Time both sides in turn; print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files = _files(args.files)
    a, b = medians_in_turn(args.runs, lambda: [grade(data) for data in files],
                           lambda: class_report(Submission(f"{n}.json", data) for n, data in enumerate(files)))
    print(f"| files | one by one (s) | one report (s) | ratio |\n| ---: | ---: | ---: | ---: |\n"
          f"| {args.files} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
