"""The grader against a corpus of learner answers: never a right answer marked wrong, never a wrong one missed.

``tests/data/learner_corpus.json`` holds attempts written as learners write them: the drill's own
answer key, paraphrases in several registers with shorthand and typos, and typical wrong answers,
each tagged with the checks that must fail. Run this file as a script to print the counts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench_module import load
from regime_core.bridge.api import handle
from regime_core.errors import RegimeError
from regime_core.grading.grade import grade
from regime_site.wheel import build_wheel

CORPUS = json.loads((Path(__file__).parent / "data" / "learner_corpus.json").read_text(encoding="utf-8"))
ATTEMPTS: list[dict[str, Any]] = CORPUS["attempts"]


# One attempt as the grader reads a write-up: the benchmark's own helper, so the two read sets alike.
_as_attempt_file = load("grading_sets", "bench/grading_sets.py").as_attempt_file


def misjudged(attempt: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(checks marked wrong on a right line, wrong lines not marked wrong) for one corpus attempt."""
    checks = grade(_as_attempt_file(attempt["item"], attempt["answer"]))["items"][attempt["item"]]["checks"]
    wrong = set(attempt["wrong"])
    false_wrong = [f"{name}: {c['why']}" for name, c in checks.items() if name not in wrong and c["passed"] is False]
    missed = [f"{name}: {checks.get(name)}" for name in sorted(wrong) if checks.get(name, {}).get("passed") is not False]
    return false_wrong, missed


def counts() -> dict[str, int]:
    """False-wrong and missed-wrong counts over the whole corpus, and its size."""
    false_wrong = missed = 0
    for attempt in ATTEMPTS:
        fw, mw = misjudged(attempt)
        false_wrong += len(fw)
        missed += len(mw)
    return {"attempts": len(ATTEMPTS), "right_lines_marked_wrong": false_wrong, "wrong_lines_missed": missed}


def report(attempts: list[dict[str, Any]]) -> dict[str, Any]:
    """The four numbers the grader is held to, for any set of tagged attempts.

    Right lines marked wrong and right files refused must be 0; wrong lines caught (failed: not passed,
    not could-not-tell) at least 95%; could-not-tell on right lines at most 3%. ``wrong_lines_passed`` is the
    share of wrong lines passed as right (the rest of those not caught were could-not-tell).
    """
    right = right_wrong = right_unsure = wrong = caught = passed = refused = 0
    for attempt in attempts:
        try:
            result = grade(_as_attempt_file(attempt["item"], attempt["answer"]))
        except RegimeError:
            refused += not attempt["wrong"]
            continue
        checks = result["items"][attempt["item"]].get("checks", {})
        for name, check in checks.items():
            if name in attempt["wrong"]:
                wrong += 1
                caught += check["passed"] is False
                passed += check["passed"] is True
            else:
                right += 1
                right_wrong += check["passed"] is False
                right_unsure += check["passed"] is None
    return {"attempts": len(attempts), "right_lines": right, "wrong_lines": wrong,
            "right_lines_marked_wrong": right_wrong, "right_files_refused": refused,
            "wrong_lines_caught": f"{caught / wrong:.1%}" if wrong else "-",
            "wrong_lines_passed": f"{passed / wrong:.1%}" if wrong else "-",
            "could_not_tell_on_right_lines": f"{right_unsure / right:.1%}" if right else "-"}


def test_the_corpus_is_large_and_covers_every_item_and_register() -> None:
    assert len(ATTEMPTS) >= 150
    assert len({a["id"] for a in ATTEMPTS}) == len(ATTEMPTS)
    items = {a["item"] for a in ATTEMPTS}
    assert items == {*(f"a{n}" for n in range(1, 9)), "part_b", "part_c"}
    for item in items:
        registers = {a["register"] for a in ATTEMPTS if a["item"] == item}
        assert {"key", "terse", "wrong"} <= registers, item


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=[a["id"] for a in ATTEMPTS])
def test_each_attempt_is_judged_as_tagged(attempt: dict[str, Any]) -> None:
    false_wrong, missed = misjudged(attempt)
    assert false_wrong == [], f"a right line marked wrong: {false_wrong}"
    assert missed == [], f"a wrong line not caught: {missed}"


def test_the_counts_are_both_zero() -> None:
    assert counts() == {"attempts": len(ATTEMPTS), "right_lines_marked_wrong": 0, "wrong_lines_missed": 0}


def test_the_four_numbers_meet_the_grader_s_bar() -> None:
    numbers = report(ATTEMPTS)
    assert (numbers["right_lines_marked_wrong"], numbers["right_files_refused"]) == (0, 0)
    assert float(numbers["wrong_lines_caught"].rstrip("%")) >= 95.0, numbers
    assert float(numbers["could_not_tell_on_right_lines"].rstrip("%")) <= 3.0, numbers


def test_the_corpus_grades_the_same_under_pyodide(tmp_path: Path) -> None:
    """The browser grades with Pyodide: every corpus attempt must get the same checks there."""
    assert shutil.which("node"), "Node.js is required (it comes with npm, which `make setup` needs)"
    name, data = build_wheel()
    wheel = tmp_path / name
    wheel.write_bytes(data)
    site_keys = {"part_b": "part-b", "part_c": "part-c"}
    requests = [{"op": "grade", "items": {site_keys.get(a["item"], a["item"]): a["answer"]}} for a in ATTEMPTS]
    requests += [{"op": "hint", "item": item} for item in ("a1", "a8", "part-b", "part-c")]
    requests_file = tmp_path / "requests.json"
    requests_file.write_text(json.dumps(requests))
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(["node", str(root / "tests/pyodide_node.mjs"), str(wheel), str(requests_file)],
                         cwd=root, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    responses = json.loads(out.stdout)["responses"]
    for request, got in zip(requests, responses, strict=True):
        assert json.loads(got) == json.loads(handle(json.dumps(request))), request


if __name__ == "__main__":
    # `python tests/test_grade_corpus.py [FILE]`: the misjudged lines and the four numbers, for this corpus or
    # another file of the same format (a held-out set kept outside the project).
    chosen = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["attempts"] if len(sys.argv) > 1 else ATTEMPTS
    for attempt in chosen:
        try:
            fw, mw = misjudged(attempt)
        except RegimeError as error:
            print(f"REFUSED     {attempt['id']}: {error}")
            continue
        for line in fw:
            print(f"FALSE-WRONG {attempt['id']}: {line}")
        for line in mw:
            print(f"MISSED      {attempt['id']}: {line}")
    print(report(chosen))
