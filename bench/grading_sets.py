"""The grader over every kept set at once: one row per set, and each check's result saved for a comparison.

`python bench/grading_sets.py [--save OUT.json] [--against BEFORE.json] [FILE ...]` grades the learner corpus and
every set in `bench/grading/` (spent fresh sets and training sets), plus any FILE given, and prints per set: right
checks marked wrong, wrong checks caught and passed, and could-not-tell on right checks. `--save` writes each check's
result; `--against` prints every check whose result moved since a saved run. What it prints about a spent set is a
training figure: a measure needs a set the grader has never read (bench/grading/BRIEF.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from regime_core.errors import RegimeError  # noqa: E402 (the path above makes it importable)
from regime_core.grading.grade import grade  # noqa: E402


def as_attempt_file(item: str, answer: dict[str, Any]) -> dict[str, Any]:
    """One attempt of a set, as the grader reads a write-up."""
    if item == "part_b":
        return {"part_b": answer}
    if item == "part_c":
        return {"part_c": answer["paragraph"]}
    return {"part_a": {item: answer}}


def sets(extra: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every set by its name: the corpus, the kept sets, then the files given."""
    found = {"corpus": json.loads((ROOT / "tests/data/learner_corpus.json").read_text(encoding="utf-8"))["attempts"]}
    for path in [*sorted((ROOT / "bench/grading").glob("*.json")), *map(Path, extra)]:
        found[path.stem.removeprefix("fresh-")] = json.loads(path.read_text(encoding="utf-8"))["attempts"]
    return found


def results(attempts: list[dict[str, Any]]) -> dict[str, Any]:
    """Each attempt's checks: ``{id: {check: [labelled wrong, passed, why]}}``, or ``{id: {"refused": why}}``."""
    out: dict[str, Any] = {}
    for attempt in attempts:
        try:
            graded = grade(as_attempt_file(attempt["item"], attempt["answer"]))
        except RegimeError as error:
            out[attempt["id"]] = {"refused": str(error)}
            continue
        checks = graded["items"][attempt["item"]].get("checks", {})
        out[attempt["id"]] = {name: [name in attempt["wrong"], c["passed"], c.get("why", "")]
                              for name, c in checks.items()}
    return out


def row(name: str, checks: dict[str, Any]) -> str:
    """One set's line of the table."""
    right = [c for a in checks.values() if "refused" not in a for c in a.values() if not c[0]]
    wrong = [c for a in checks.values() if "refused" not in a for c in a.values() if c[0]]
    marked = sum(c[1] is False for c in right)
    unsure = sum(c[1] is None for c in right)
    caught, passed = sum(c[1] is False for c in wrong), sum(c[1] is True for c in wrong)
    return (f"| {name} | {marked} | {_share(caught, len(wrong))} | {passed} ({_share(passed, len(wrong))}) |"
            f" {_share(unsure, len(right))} |")


def _share(n: int, of: int) -> str:
    return f"{n / of:.1%}" if of else "-"


def main() -> None:
    """Print the table; save the run or compare it with a saved one, as asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="more sets in the same format")
    parser.add_argument("--save", help="write each check's result to this JSON file")
    parser.add_argument("--against", help="print the checks whose result moved since this saved run")
    args = parser.parse_args()
    everything = {name: results(attempts) for name, attempts in sets(args.files).items()}
    print("| set | right checks marked wrong | wrong caught | wrong passed | could-not-tell on right |")
    print("| --- | --- | --- | --- | --- |")
    for name, checks in everything.items():
        print(row(name, checks))
    print(row("all", {f"{n}|{i}": a for n, checks in everything.items() for i, a in checks.items()}))
    if args.save:
        Path(args.save).write_text(json.dumps(everything), encoding="utf-8")
    if args.against:
        before = json.loads(Path(args.against).read_text(encoding="utf-8"))
        for name, checks in everything.items():
            for attempt, now in checks.items():
                then = before.get(name, {}).get(attempt)
                for check, (labelled, passed, why) in now.items() if then and "refused" not in now else ():
                    if check in then and then[check][1] != passed:
                        print(f"{name} {attempt} {check} (labelled {'wrong' if labelled else 'right'}):"
                              f" {then[check][1]} → {passed}: {why[:150]}")


if __name__ == "__main__":
    main()
