"""Practice and the drill say nothing untrue about an undecided reading, a re-timing, or a right regime beside a
wrong line."""

from __future__ import annotations

from typing import Any

from regime_core.grading.grade import grade
from regime_core.practice.generate import practice
from regime_core.practice.grade import grade_practice

SYNC_LESS = (12, 3)  # a matmul timed with time.time() and no synchronize: a figure beyond the card's peak
DECIDED = (1, 3)  # a memory-bound incident whose symptoms decide it


def _practice(seed_level: tuple[int, int], **lines: str) -> dict[str, Any]:
    seed, level = seed_level
    result: dict[str, Any] = grade_practice({"practice": {"seed": seed, "level": level}, **lines})
    return result


def test_undecided_is_read_and_is_wrong_where_the_symptoms_decide() -> None:
    check = _practice(DECIDED, regime="undecided: measure first")["checks"]["regime"]
    assert check["passed"] is False
    assert "decide this one" in check["why"]
    drill = grade({"part_a": {"a2": {"regime": "undecided: measure first"}}})["items"]["a2"]["checks"]["regime"]
    assert drill["passed"] is False


def test_undecided_is_fair_where_the_figure_is_beyond_the_roof() -> None:
    incident = practice(*SYNC_LESS)
    assert incident.verdict().anomalies
    assert _practice(SYNC_LESS, regime="undecided: the symptoms cannot decide yet")["checks"]["regime"]["passed"] is True


def test_a_figure_timed_without_a_synchronize_names_that_cause_and_re_timing_fits() -> None:
    incident = practice(*SYNC_LESS)
    assert "without a synchronize" in incident.statement
    verdict = incident.verdict()
    assert any("timed without a synchronize" in line for line in verdict.anomalies)
    helps = _practice(SYNC_LESS, helps="re-time it with torch.cuda.synchronize() around the call")["checks"]["helps"]
    assert helps["passed"] is True, helps
    # The time is the launch's: the verdict is the roofline's leaning at most, and asks for the run re-timed.
    assert verdict.regime is None
    assert verdict.leaning == "compute"
    assert "torch.cuda.synchronize()" in verdict.needs
    leaning = _practice(SYNC_LESS, regime="compute-bound")["checks"]["regime"]
    assert leaning["passed"] is None, leaning
    assert _practice(SYNC_LESS, regime="memory-bound")["checks"]["regime"]["passed"] is False


def test_a_right_regime_beside_a_wrong_line_is_said_to_be_right() -> None:
    worked = practice(*DECIDED).verdict()
    assert worked.regime == "memory"
    result = _practice(DECIDED, regime="memory-bound", helps="raise occupancy by cutting registers")
    assert result["passed"] is False
    assert result["summary"].startswith("The regime is read right")
