"""Grade a write-up against the drill's acceptance, with feedback that says what to look at.

Tolerances: the ridge within 5% of the derived value; intensities within 25% (a pencil estimate);
a number in the evidence within 10% of one the classifier's own evidence uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from regime_core import drill
from regime_core.attempt import Attempt, parse_attempt
from regime_core.classify import Verdict
from regime_core.levers import advice, by_id, fits, recognise
from regime_core.quantity import Dim, format_quantity, quantities_in, same_quantity

RIDGE_TOLERANCE = 0.05
INTENSITY_TOLERANCE = 0.25
EVIDENCE_TOLERANCE = 0.10
_REGIME_WORDS = {
    "compute": ("compute", "math-bound", "flop-bound", "tensor-core-bound"),
    "memory": ("memory", "bandwidth", "hbm"),
    "overhead": ("overhead", "host", "launch", "sync", "latency-bound", "cpu-bound"),
}
_FUSION = {"fusion", "compile"}
#: The drill's acceptance, worded so that reading it gives no answer away.
CRITERIA = (
    "Puts each incident of Part A in its regime.",
    "Refuses fusion as the fix for A1.",
    "Refuses a \"faster MMA kernel\" as the fix for A4.",
    f"Computes the ridge of the Part B card (within {RIDGE_TOLERANCE:.0%}).",
    "Places decode far below the ridge and the 4096 matmul far above it.",
)


@dataclass(frozen=True)
class Check:
    """One thing checked: passed or not, and why, in one kind and specific line."""

    ok: bool
    why: str

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {"passed": self.ok, "why": self.why}


def regime_named(text: str) -> str | None:
    """The one regime a learner's text names, or None when it names none or several."""
    lowered = text.lower()
    named = [r for r, words in _REGIME_WORDS.items() if any(w in lowered for w in words)]
    return named[0] if len(named) == 1 else None


def _labels(lever_ids: list[str]) -> str:
    return ", ".join(by_id(i).label.lower() for i in lever_ids)


def deciding_numbers(verdict: Verdict) -> list[tuple[float, Dim]]:
    """The numbers the classifier's own evidence rests on (occupancy never decides)."""
    lines = [line for line in [*verdict.evidence, *verdict.anomalies] if "occupancy" not in line]
    return [q for line in lines for q in quantities_in(line)]


def _example_numbers(verdict: Verdict) -> str:
    lines = [line for line in verdict.evidence if "occupancy" not in line]
    return lines[0] if lines else ""


def grade_incident(incident_id: str, entry: dict[str, str] | None) -> dict[str, Any]:
    """Part A, one incident: regime, evidence, the lever that helps and the one that wastes the week."""
    verdict = drill.incident(incident_id).verdict()
    regime = verdict.regime or ""
    name = advice(regime).name
    if not entry:
        return {"attempted": False, "checks": {}}
    checks: dict[str, Check] = {}
    named = regime_named(entry.get("regime", ""))
    if named is None:
        checks["regime"] = Check(False, "Name one regime: compute-bound, memory-bound or overhead / host-bound.")
    elif named != regime:
        checks["regime"] = Check(False, f"You wrote {advice(named).name}; the symptoms point to {name}."
                                        f" Look at: {_example_numbers(verdict)}.")
    else:
        checks["regime"] = Check(True, f"{name}, as the symptoms say.")
    cited = quantities_in(entry.get("evidence", ""))
    deciding = deciding_numbers(verdict)
    hits = [q for q in cited if any(same_quantity(q, d, EVIDENCE_TOLERANCE) for d in deciding)]
    checks["evidence"] = (Check(True, "Your evidence cites a number that decides the regime.") if hits else
                          Check(False, "Cite a number that decides the regime; the core's evidence uses: "
                                       f"{_example_numbers(verdict)}."))
    helps = recognise(entry.get("helps", ""))
    if not helps:
        checks["helps"] = Check(False, "Name a lever that helps (for example fusion, CUDA graphs, removing a host"
                                       " sync, quantisation, lower-precision math, more GPUs).")
    elif fits(helps, regime):
        checks["helps"] = Check(True, f"{_labels(helps)}: fits a {name} kernel.")
    else:
        checks["helps"] = Check(False, f"{_labels(helps)} does not help a {name} kernel;"
                                       f" what helps: {advice(regime).helps}.")
    wastes = recognise(entry.get("wastes", ""))
    if not wastes:
        checks["wastes"] = Check(False, "Name the lever that wastes the week, such as the proposal in the incident.")
    elif fits(wastes, regime):
        checks["wastes"] = Check(False, f"{_labels(wastes)} would actually help a {name} kernel; the waste is"
                                        f" what does not: {verdict.waste}.")
    else:
        checks["wastes"] = Check(True, f"{_labels(wastes)}: rightly refused for a {name} kernel.")
    return {"attempted": True, "checks": {k: c.to_json() for k, c in checks.items()},
            "passed": all(c.ok for c in checks.values())}


def _close(value: float, targets: list[float], rel: float) -> bool:
    return any(abs(value - t) <= rel * t for t in targets)


def grade_part_b(attempt: Attempt) -> dict[str, Any]:
    """Part B: the ridge, and each kernel's intensity, side and allowed class of optimisation."""
    rows = drill.part_b()
    ridge = rows[0].placement.ridge
    if attempt.ridge is None and not attempt.kernels:
        return {"attempted": False, "checks": {}}
    checks: dict[str, Check] = {}
    ridge_text = format_quantity(ridge, Dim.INTENSITY)
    if attempt.ridge is None:
        checks["ridge"] = Check(False, f"Compute the ridge: peak FLOP/s ÷ peak bytes/s gives {ridge_text}.")
    elif _close(attempt.ridge, [ridge], RIDGE_TOLERANCE):
        checks["ridge"] = Check(True, f"{ridge_text}, within {RIDGE_TOLERANCE:.0%}.")
    else:
        checks["ridge"] = Check(False, f"{format_quantity(attempt.ridge, Dim.INTENSITY)} is off: peak FLOP/s ÷ peak"
                                       f" bytes/s = {ridge_text}.")
    for row in rows:
        given = attempt.kernels.get(row.id)
        p = row.placement
        derived = format_quantity(p.intensity, Dim.INTENSITY)
        if given is None:
            checks[row.id] = Check(False, f"{row.label}: not attempted.")
            continue
        problems = []
        if given.intensity is None or not _close(given.intensity, [p.intensity, row.drill_intensity],
                                                 INTENSITY_TOLERANCE):
            also = "" if not row.discrepancies() else \
                f" (the drill's own figures give {format_quantity(row.drill_intensity, Dim.INTENSITY)}: {row.discrepancies()[-1]})"
            problems.append(f"intensity is FLOPs ÷ bytes = {derived}{also}")
        if given.side != p.side:
            problems.append(f"it sits {p.side} the ridge, {format_quantity(p.factor, Dim.COUNT)}× from it")
        levers = recognise(given.optimisation)
        if not levers or not fits(levers, p.bound):
            problems.append(f"the class allowed is: {p.allowed}")
        checks[row.id] = Check(not problems, f"{row.label}: " + ("; ".join(problems) if problems else
                                                                f"{derived}, {p.side} the ridge, right class."))
    return {"attempted": True, "checks": {k: c.to_json() for k, c in checks.items()},
            "passed": all(c.ok for c in checks.values())}


def drill_numbers() -> list[tuple[float, Dim]]:
    """Every number that appears in Part A or Part B, as written or as derived."""
    found = [q for item in drill.incidents() for q in quantities_in(item.text)]
    for row in drill.part_b():
        found += [(row.drill_flops, Dim.COUNT), (row.drill_bytes, Dim.COUNT), (row.drill_intensity, Dim.INTENSITY),
                  (row.placement.intensity, Dim.INTENSITY), (row.placement.ridge, Dim.INTENSITY)]
    return found


def grade_part_c(paragraph: str) -> dict[str, Any]:
    """Part C: a number from Part A or B, and both sides of the fusion argument."""
    if not paragraph:
        return {"attempted": False, "checks": {}}
    lowered = paragraph.lower()
    known = drill_numbers()
    numbers = [q for q in quantities_in(paragraph) if any(same_quantity(q, k) for k in known)]
    for_fusion = any(w in lowered for w in ("memory", "bandwidth", "bytes", "traffic", "launch", "overhead"))
    against = any(w in lowered for w in ("compute", "flop", "tensor core", "math", "arithmetic"))
    checks = {
        "number": Check(bool(numbers), "Uses a number from Part A or B." if numbers else
                        "Use at least one number from Part A or B, such as 156 FLOP/byte, 70% or 1.7 TB/s."),
        "fusion": Check(any(w in lowered for w in ("fus", "compile")), "Talks about fusion." if "fus" in lowered else
                        "Say what fusion does: it deletes round trips and launches."),
        "both_sides": Check(for_fusion and against, "Argues both sides." if for_fusion and against else
                            "Argue both sides: fusion is right when bytes or launches set the time (memory,"
                            " overhead) and wasted when the math does (compute)."),
    }
    return {"attempted": True, "checks": {k: c.to_json() for k, c in checks.items()},
            "passed": all(c.ok for c in checks.values())}


def _criteria(attempt: Attempt, items: dict[str, Any]) -> list[Check]:
    wrong = [i.id.upper() for i in drill.incidents()
             if not items[i.id]["attempted"] or not items[i.id]["checks"]["regime"]["passed"]]
    one = Check(not wrong, "All eight regimes are right." if not wrong else
                f"Regimes to look at again: {', '.join(wrong)}.")

    def refuses(incident_id: str, banned: set[str], what: str) -> Check:
        entry = attempt.part_a.get(incident_id)
        if not entry:
            return Check(False, f"{incident_id.upper()} is not attempted yet.")
        used = banned & set(recognise(entry.get("helps", "")))
        return Check(not used, f"{incident_id.upper()}: {what} is not offered as the fix." if not used else
                     f"{incident_id.upper()}'s lever that helps is {_labels(sorted(used))}, which cannot move this"
                     f" kernel: look at what sets its time.")

    ridge = drill.part_b()[0].placement.ridge
    four = (Check(False, "The ridge is not computed yet.") if attempt.ridge is None else
            Check(_close(attempt.ridge, [ridge], RIDGE_TOLERANCE),
                  f"Ridge {format_quantity(attempt.ridge, Dim.INTENSITY)} against"
                  f" {format_quantity(ridge, Dim.INTENSITY)} (±{RIDGE_TOLERANCE:.0%})."))
    decode, matmul = attempt.kernels.get("decode"), attempt.kernels.get("matmul")
    placed = bool(decode and matmul and decode.side == "below" and matmul.side == "above")
    five = Check(placed, "Decode below and the 4096 matmul above the ridge." if placed else
                 "Place decode (about 1 FLOP/byte) and the 4096 matmul (over a thousand) against the ridge.")
    return [one, refuses("a1", _FUSION, "fusion"), refuses("a4", {"faster_mma"}, "a faster MMA kernel"), four, five]


def grade(raw: object) -> dict[str, Any]:
    """Grade an attempt object; a RegimeError names the first bad field."""
    attempt = parse_attempt(raw)
    items: dict[str, Any] = {i.id: grade_incident(i.id, attempt.part_a.get(i.id)) for i in drill.incidents()}
    items["part_b"] = grade_part_b(attempt)
    items["part_c"] = grade_part_c(attempt.part_c)
    criteria = _criteria(attempt, items)
    return {
        "passed": all(c.ok for c in criteria),
        "criteria": [{"id": n, **c.to_json()} for n, c in enumerate(criteria, start=1)],
        "items": items,
    }

