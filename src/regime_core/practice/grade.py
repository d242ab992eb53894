"""Grade an attempt at a generated practice incident the way the drill grades a Part A incident.

The attempt file::

    {"practice": {"seed": 1234, "level": 2, "version": 1},
     "regime": "...", "evidence": "...", "helps": "...", "wastes": "..."}

The incident is regenerated from its seed and level (``version``, when given, must be this
generator's) and its verdict derived by the classifier, as for the drill. Every check has the
grader's three outcomes: passed (True), not passed with the reason (False), could not tell (None).

Where the classifier decides a regime, the lever lines go through :mod:`regime_core.grading.grade`'s own
checks, with the same vocabulary. Two things the drill never asks are read here, with words from
``practice.json``'s ``grading``: an undecided incident (the regime line refuses to decide, the
"helps" line names the measurement to take next, the "wastes" line refuses fixing before measuring)
and a data-loader stall (the levers that feed the GPU its input).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from regime_core.catalogue.levers import advice, phrases
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.errors import RegimeError
from regime_core.grading import answer_lines
from regime_core.grading.answer_lines import REGIME_CHOICES, Check, cap, unsure, verdict_of
from regime_core.grading.attempt import MAX_TEXT
from regime_core.grading.claims import Facts
from regime_core.grading.labels import labelled
from regime_core.grading.language import normalise, with_units
from regime_core.judgment.classify import LOADER_SHARE, Verdict
from regime_core.judgment.symptoms import achieved, parse_symptoms
from regime_core.practice.generate import GENERATOR_VERSION, PracticeIncident, check_level, check_seed, practice
from regime_core.practice.text import data

LINES = ("regime", "evidence", "helps", "wastes")
FIELDS = ("practice", *LINES)


@dataclass(frozen=True)
class PracticeAttempt:
    """Which incident, and the learner's four lines."""

    seed: int
    level: int
    lines: dict[str, str]


def is_practice_attempt(raw: object) -> bool:
    """Whether an attempt file is an attempt at a generated incident (it names one under ``practice``)."""
    return isinstance(raw, Mapping) and "practice" in raw


def parse_practice_attempt(raw: object) -> PracticeAttempt:
    """Check a practice attempt; a RegimeError names the first bad field."""
    if not isinstance(raw, Mapping):
        raise RegimeError("attempt", f"expected an object, got {type(raw).__name__}")
    for key in raw:
        if key not in FIELDS:
            raise RegimeError(str(key)[:30], f"unknown field; expected {', '.join(FIELDS)}")
    which = raw.get("practice")
    if not isinstance(which, Mapping):
        raise RegimeError("practice", 'expected {"seed": N, "level": L}')
    for key in which:
        if key not in ("seed", "level", "version"):
            raise RegimeError(f"practice.{str(key)[:30]}", "unknown field; expected seed, level, version")
    version = which.get("version", GENERATOR_VERSION)
    if version != GENERATOR_VERSION or isinstance(version, bool):
        raise RegimeError("practice.version", f"expected {GENERATOR_VERSION}: incidents of another generator version"
                                              " cannot be regenerated here")
    lines: dict[str, str] = {}
    for name in LINES:
        value = raw.get(name)
        if value is not None and not isinstance(value, str):
            raise RegimeError(name, f"expected text, got {type(value).__name__}")
        if value is not None and len(value) > MAX_TEXT:
            raise RegimeError(name, f"expected at most {MAX_TEXT:,} characters, got {len(value):,}")
        lines[name] = (value or "").strip()
    return PracticeAttempt(check_seed(which.get("seed"), "practice.seed"),
                           check_level(which.get("level", 1), "practice.level"), lines)


def kind_of(incident: PracticeIncident, verdict: Verdict) -> str:
    """What the levers are judged against: the regime, or ``host``, ``loader`` or ``undecided``."""
    if verdict.regime is None:
        return "undecided"
    symptoms = parse_symptoms(incident.symptoms)
    if verdict.regime == "overhead" and symptoms.observed.host_sync_in_loop:
        return "host"
    step = achieved(symptoms).step
    loader = symptoms.observed.loader_time
    if verdict.regime == "overhead" and loader is not None and step and loader / step >= LOADER_SHARE:
        return "loader"
    return verdict.regime


def worked_attempt(incident: PracticeIncident, verdict: Verdict | None = None) -> dict[str, str]:
    """The four lines the classifier's verdict gives: regime, its first evidence, its lever and its waste."""
    v = verdict or incident.verdict()
    if v.regime is None:
        return {"regime": "undecided: these symptoms cannot decide the regime yet", "evidence": v.evidence[0],
                "helps": f"measure next: {v.needs}",
                "wastes": v.waste or "any fix before that measurement: until it decides the regime, a fix is a guess"}
    return {"regime": advice(v.regime).name, "evidence": v.evidence[0], "helps": v.lever, "wastes": v.waste}


def _words(key: str) -> tuple[str, ...]:
    return tuple(data()["grading"][key])


def _says(text: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(w)}", text) for w in words)


def says_undecided(text: str) -> bool:
    """Whether a regime line refuses to decide ("undecided", "can't tell yet", "neither roof")."""
    return _says(normalise(text), _words("undecided"))


def _hint(kind: str) -> str:
    return str(data()["grading"]["hints"][kind][0])


def hints(incident: PracticeIncident) -> list[str]:
    """The incident's hint ladder: a nudge, the deciding symptom, the arithmetic to do; never the regime.

    The last rung names the incident's own work and card where it has them (its FLOPs and bytes, the peaks
    and the ridge); a rung whose figures the incident lacks is left out, so the ladder may have two rungs.
    """
    verdict = incident.verdict()
    ladder = [str(rung) for rung in data()["grading"]["hints"][kind_of(incident, verdict)]]
    p = verdict.placement
    if p is None:
        return [rung for rung in ladder if "{" not in rung]
    figures = {"arithmetic": "; ".join(p.work.steps) if p.work.steps else
               f"{number(p.work.flops)} FLOPs over {number(p.work.bytes)} bytes",
               "peak": format_quantity(p.peak_flops, Dim.FLOP_RATE),
               "bandwidth": format_quantity(p.bandwidth, Dim.BYTE_RATE),
               "ridge": format_quantity(p.ridge, Dim.INTENSITY)}
    return [rung.format(**figures) for rung in ladder]


def _regime(kind: str, verdict: Verdict, text: str) -> Check:
    if not text:
        return Check(False, f"Name one regime ({REGIME_CHOICES}), or say that"
                            " the symptoms cannot decide yet.")
    named = answer_lines.regime_named(text)
    if verdict.regime is None:
        if named is not None and named == verdict.leaning and verdict.anomalies:
            # The roofline leans this way, but the one measurement is unusable: the regime is not checked yet.
            return unsure(f"{advice(named).name} is where the roofline leans, but the measurement that would decide it"
                          " is unusable (see the anomaly): it is the regime only once the run is measured again")
        if named is not None:
            return Check(False, f"Not {advice(named).name} yet: {_hint(kind)}")
        if says_undecided(text):
            return Check(True, "Undecided, as the symptoms are: they cannot say which roof holds it yet.")
        return unsure("the grader could not read whether you name a regime or refuse to decide")
    if named is None and says_undecided(text):
        if verdict.anomalies:  # a figure beyond a roof decides nothing until it is measured again
            return Check(True, "Fair: a figure beyond what the card can do decides nothing until it is measured"
                               " again; the worked answer reads what the rest of the symptoms say.")
        return Check(False, f"The symptoms do decide this one: {_hint(kind)}")
    if named is None:
        return unsure(f"the grader could not read one regime here ({REGIME_CHOICES})")
    if named != verdict.regime:
        return Check(False, f"Not {advice(named).name}: {_hint(kind)}")
    return Check(True, f"{cap(advice(named).name)}, as the symptoms say.")


def _facts(incident: PracticeIncident, verdict: Verdict) -> Facts:
    placement = verdict.placement
    return _read_facts(tuple(answer_lines.deciding_lines(verdict)), incident.statement,
                       placement.side if placement else None, placement.ridge if placement else None,
                       anomalous=bool(verdict.anomalies))


@lru_cache(maxsize=32)
def _read_facts(deciding: tuple[str, ...], statement: str, side: str | None, ridge: float | None, *,
                anomalous: bool) -> Facts:
    """An incident's facts, read once for the checks and re-checks of one incident (Facts is frozen)."""
    return Facts.read(list(deciding), [with_units(statement)], side, ridge, anomalous=anomalous)


def _evidence(kind: str, facts: Facts, verdict: Verdict, text: str) -> Check:
    stated = data()["grading"]["facts"]
    phrases_stated = tuple(stated.get(kind if kind in stated else "overhead", ()))
    return answer_lines.evidence_check(facts, phrases_stated, verdict.regime, text)


def _next_measurement(text: str) -> Check:
    if not text:
        return Check(False, "Name the measurement that would decide the regime.")
    lowered = normalise(text)
    if _says(lowered, _words("measurements")):
        return Check(True, "That measurement can decide where the time goes.")
    offered = answer_lines.read_levers(text).offered
    if offered:
        return Check(False, f"{cap(phrases(list(offered)))} is a fix, and before a measurement decides the"
                            " regime any fix is a guess: name what to measure next.")
    return unsure("the grader could not read a measurement here")


def _premature(text: str) -> Check:
    if not text:
        return Check(False, "Name what wastes the week here: fixing before measuring.")
    levers = answer_lines.read_levers(text)
    if _says(normalise(text), _words("premature")) or levers.offered or levers.denied:
        return Check(True, "Right: until a measurement decides the regime, any fix is a guess.")
    return unsure("the grader could not read what you refuse here")


#: The attempt in one line, for each overall outcome (a line the grader could not read fails nothing).
SUMMARY = {True: "Right: every line passes.", False: "Not right yet: look again at the lines marked ✗.",
           None: "Nothing marked wrong, but the grader could not read every line: compare those marked ? with the worked answer."}
#: A wrong line beside a right regime: the tally counts the regime read right, and the result says so too.
_REGIME_RIGHT = "The regime is read right; look again at the lines marked ✗."
#: The same, for lines checked before the answer is shown.
CHECKED = {True: "Every line passes. Submit to see the worked answer.",
           False: "Checked without the answer: change a line marked ✗ and check again, or submit.",
           None: "Nothing marked wrong, but the grader could not read every line (marked ?): submit to compare them"
                 " with the worked answer."}


def grade_practice(raw: object) -> dict[str, Any]:
    """Grade an attempt at a generated incident; a RegimeError names the first bad field."""
    attempt = parse_practice_attempt(raw)
    incident = practice(attempt.seed, attempt.level)
    return grade_lines(incident, incident.verdict(), attempt.lines)


def grade_lines(incident: PracticeIncident, verdict: Verdict, lines: Mapping[str, str]) -> dict[str, Any]:
    """Grade the four lines against ``verdict``, the classifier's reading of ``incident``."""
    lines = {name: lines.get(name, "").strip() for name in LINES}
    kind = kind_of(incident, verdict)
    facts = _facts(incident, verdict)  # read once: the evidence and the lever lines' numbers both use it
    checks: dict[str, Check] = {"regime": _regime(kind, verdict, lines["regime"]),
                                "evidence": _evidence(kind, facts, verdict, lines["evidence"])}
    if kind == "undecided":
        checks["helps"] = _next_measurement(lines["helps"])
        checks["wastes"] = _premature(lines["wastes"])
    else:  # "loader" too: levers.json's feed_loader is the one lever that fits it
        symptoms = parse_symptoms(incident.symptoms)
        levers = answer_lines.lever_checks(verdict, kind, lines["helps"], lines["wastes"], (),
                                           symptoms.observed.fused_speedup,
                                           answer_lines.roof_share(symptoms, verdict.regime))
        checks.update(answer_lines.with_lever_numbers(levers, facts, lines["helps"], lines["wastes"]))
        for field in ("helps", "wastes"):  # a lever's reason that calls the kernel another regime's, as in the drill
            if checks[field].ok is not False and (
                    other := answer_lines.lever_reason_against(lines[field], verdict.regime)):
                checks[field] = Check(False, f"Not for that reason: {other}")
    attempted = any(lines.values())
    passed = verdict_of(list(checks.values())) if attempted else False
    # A regime named wrongly is told the ladder's first rung in its ✗ line: Hint then starts at the second.
    named_wrongly = checks["regime"].ok is False and answer_lines.regime_named(lines["regime"]) is not None
    return {"id": incident.id, "url": incident.url, "attempted": attempted, "passed": passed,
            "summary": _REGIME_RIGHT if passed is False and checks["regime"].ok else SUMMARY[passed],
            "hint_rung": 1 if named_wrongly else 0,
            "checks": labelled("practice", {name: check.to_json() for name, check in checks.items()}),
            "trap": incident.trap, "worked": worked_attempt(incident, verdict)}


def grade_text(result: Mapping[str, Any]) -> str:
    """The result for a terminal: a line per check, then the verdict."""
    marks = {True: "pass", False: "FAIL", None: "could not tell"}
    out = [f"{result['id']} ({result['url']})"]
    out += [f"  {check['label']}: {marks[check['passed']]}: {check['why']}" for check in result["checks"].values()]
    out.append("passing" if result["passed"] else "not passing yet")
    return "\n".join(out)
