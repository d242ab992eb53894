"""bench/grading_sets.py: the per-set table of the grader's four numbers, and the checks that moved between runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bench_module import load

ROOT = Path(__file__).resolve().parent.parent


grading_sets = load("grading_sets", "bench/grading_sets.py")

ATTEMPTS: list[dict[str, Any]] = [
    {"id": "right", "item": "a6", "wrong": [],
     "answer": {"regime": "overhead", "evidence": "2 µs on, 8 µs off: busy 20%", "helps": "CUDA graphs",
                "wastes": "Micro-optimising the 2 µs kernel"}},
    {"id": "wrong", "item": "a6", "wrong": ["evidence"],
     "answer": {"regime": "overhead", "evidence": "2 µs on, 8 µs off: busy 80%", "helps": "CUDA graphs",
                "wastes": "Micro-optimising the 2 µs kernel"}},
]


def test_each_check_is_kept_with_its_label_and_result() -> None:
    got = grading_sets.results(ATTEMPTS)
    assert got["right"]["evidence"][:2] == [False, True]
    assert got["wrong"]["evidence"][:2] == [True, False]


def test_the_row_counts_what_the_grader_is_held_to() -> None:
    # 8 checks: one wrong (caught), seven right (none marked wrong, none unsure)
    assert grading_sets.row("tiny", grading_sets.results(ATTEMPTS)) == "| tiny | 0 | 100.0% | 0 (0.0%) | 0.0% |"


def test_a_saved_run_names_the_checks_that_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(grading_sets, "sets", lambda extra: {"tiny": ATTEMPTS})
    before = {"tiny": grading_sets.results(ATTEMPTS)}
    before["tiny"]["wrong"]["evidence"][1] = True  # as if an older grader had passed it
    saved = tmp_path / "before.json"
    saved.write_text(json.dumps(before), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["grading_sets.py", "--against", str(saved)])
    grading_sets.main()
    out = capsys.readouterr().out
    assert "| tiny | 0 | 100.0% | 0 (0.0%) | 0.0% |" in out
    assert "tiny wrong evidence (labelled wrong): True → False" in out
    assert "tiny right" not in out
