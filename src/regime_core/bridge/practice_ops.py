"""The Practice page's requests: an incident to show, and an attempt at it graded.

``api.handle`` dispatches ``practice`` and ``practice_grade`` here. The page keeps the learner's
record (in its browser) and sends the families they got wrong; which incident comes next is chosen
here, so a missed kind comes back sooner (spaced repetition) without the page knowing any physics.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regime_core.bridge.protocol import Op
from regime_core.catalogue.levers import REGIMES, advice
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import regime_named
from regime_core.grading.review import review_comment
from regime_core.practice.generate import (
    FAMILIES,
    GENERATOR_VERSION,
    PracticeIncident,
    check_level,
    check_seed,
    practice,
)
from regime_core.practice.grade import CHECKED, LINES, grade_lines, hints, says_undecided
from regime_core.practice.text import data

LOOKAHEAD = 40  # seeds tried, from the one the page drew, for an incident of a kind the learner missed
_MAX_MISSED = 20
MAX_LINE = 2000  # characters in one of the four lines (the page's text boxes take as many)


def next_incident(seed: int, level: int, missed: list[str]) -> PracticeIncident:
    """The first incident from ``seed`` on whose family the learner missed; ``seed``'s own when none is near."""
    if missed:
        for candidate in range(seed, min(seed + LOOKAHEAD, 2**53 - 1)):
            incident = practice(candidate, level)
            if incident.family in missed:
                return incident
    return practice(seed, level)


def _missed(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > _MAX_MISSED or any(
            not isinstance(v, str) or v not in FAMILIES for v in value):
        raise RegimeError("missed", f"expected a list of at most {_MAX_MISSED} family names")
    return [str(v) for v in value]


def _shown(incident: PracticeIncident) -> dict[str, Any]:
    """What the page shows before an attempt: the statement and its address, never the answer."""
    return {"id": incident.id, "seed": incident.seed, "level": incident.level, "statement": incident.statement,
            "url": incident.url, "version": GENERATOR_VERSION}


def op_practice(req: Mapping[str, Any]) -> dict[str, Any]:
    """The incident at ``seed`` and ``level`` (or, with ``missed``, the next one of a kind the learner missed)."""
    seed, level = check_seed(req.get("seed")), check_level(req.get("level", 1))
    return _shown(next_incident(seed, level, _missed(req.get("missed"))))


def _lines(req: Mapping[str, Any]) -> dict[str, str]:
    lines = req.get("lines")
    if not isinstance(lines, Mapping):
        raise RegimeError("lines", "expected an object of the four lines")
    texts: dict[str, str] = {}
    for name in LINES:
        value = lines.get(name) or ""
        if not isinstance(value, str) or len(value) > MAX_LINE:
            raise RegimeError(name, f"expected text of at most {MAX_LINE:,} characters")
        texts[name] = value
    return texts


def op_practice_check(req: Mapping[str, Any]) -> dict[str, Any]:
    """Check the four lines without the answer: the checks and a line of advice, no verdict, nothing counted."""
    incident = practice(check_seed(req.get("seed")), check_level(req.get("level", 1)))
    result = grade_lines(incident, incident.verdict(), _lines(req))
    return {"id": incident.id, "checks": result["checks"], "passed": result["passed"],
            "summary": CHECKED[result["passed"]], "hint_rung": result["hint_rung"]}


def op_practice_hint(req: Mapping[str, Any]) -> dict[str, Any]:
    """One rung of the incident's hint ladder (1, the default: a nudge; then the deciding symptom; then the arithmetic)."""
    ladder = hints(practice(check_seed(req.get("seed")), check_level(req.get("level", 1))))
    rung = req.get("rung", 1)
    if isinstance(rung, bool) or not isinstance(rung, int) or not 1 <= rung <= len(ladder):
        raise RegimeError("rung", f"expected a whole number from 1 to {len(ladder)}")
    return {"hint": ladder[rung - 1], "rung": rung, "rungs": len(ladder)}


def op_practice_grade(req: Mapping[str, Any]) -> dict[str, Any]:
    """Grade the four lines; return the checks, the worked answer and what the record needs."""
    incident = practice(check_seed(req.get("seed")), check_level(req.get("level", 1)))
    texts = _lines(req)
    verdict = incident.verdict()
    result = grade_lines(incident, verdict, texts)
    answered = regime_named(texts["regime"]) or ("undecided" if says_undecided(texts["regime"]) else "unclear")
    names = {r: advice(r).name for r in REGIMES} | {"undecided": "undecided", "unclear": "a regime the grader could not read"}
    regime = verdict.regime or "undecided"
    return {**_shown(incident), "grade": result, "verdict": verdict.to_json(), "family": incident.family,
            "regime": regime, "regime_name": names[regime], "answered": answered, "answered_name": names[answered],
            "trap": incident.trap, "trap_name": data()["trap_names"].get(incident.trap or "", ""),
            # Shown once the answer is: the verdict as Markdown for a review, linking back to this incident.
            "review": review_comment(verdict, f"Practice incident {incident.id}", "{url}",
                                     symptom=incident.statement)}


_SHOWN = ("id", "seed", "level", "statement", "url", "version")

OPS = [
    Op("practice", ("seed", "level", "missed"), op_practice, _SHOWN),
    Op("practice_check", ("seed", "level", "lines"), op_practice_check,
       ("id", "checks", "passed", "summary", "hint_rung")),
    Op("practice_hint", ("seed", "level", "rung"), op_practice_hint, ("hint", "rung", "rungs")),
    Op("practice_grade", ("seed", "level", "lines"), op_practice_grade,
       (*_SHOWN, "grade", "verdict", "family", "regime", "regime_name", "answered", "answered_name", "trap",
        "trap_name", "review")),
]
