"""Grade a write-up against the drill's acceptance, with feedback that says what to look at.

Every check has three outcomes: passed (``True``), not passed with the reason (``False``), and
could not tell (``None``: the grader did not understand the line, so it says so and points at the
worked answer instead of marking it wrong). A criterion fails only on a ``False``.

Learner text is read through :mod:`regime_core.grading.language` (case, typos, shorthand, numbers in
words, negation). Tolerances: the ridge within 5% of the derived value; intensities within 25% (a
pencil estimate); a number in the evidence within 10% of one the classifier's own evidence uses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterator
from functools import cache
from typing import Any

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.levers import a_kernel, advice, mentions, phrases
from regime_core.catalogue.quantity import Dim, format_quantity, plain_numbers, quantities_in, same_quantity
from regime_core.content import drill
from regime_core.content.drill import hints
from regime_core.grading import claims as claim_reader
from regime_core.grading import relations
from regime_core.grading.answer_lines import (
    REGIME_CHOICES,
    Check,
    Contradiction,
    Stated,
    blamed_against,
    cap,
    contradicted,
    deciding_lines,
    deciding_numbers,
    evidence_check,
    helps_here,
    lever_checks,
    lever_reason_against,
    read_levers,
    reason_against,
    regime_named,
    roof_share,
    unsure,
    verdict_of,
    with_lever_numbers,
)
from regime_core.grading.argument import (
    INCIDENT_NAMED,
    SENTENCE,
    FusionSaid,
    fusion_pays_in,
    fusion_said_of_incidents,
    read_argument,
    stances,
    subjects_named,
    universal_stance,
)
from regime_core.grading.attempt import Attempt, parse_attempt
from regime_core.grading.claims import Facts
from regime_core.grading.derived import datasheet
from regime_core.grading.labels import labelled
from regime_core.grading.language import NEGATION, fusion_leaves, fusion_misstated, negated, normalise, with_units
from regime_core.grading.statements import Statements
from regime_core.judgment.classify import Verdict, tokens_beyond_floor
from regime_core.resources import load_json

RIDGE_TOLERANCE = 0.05
INTENSITY_TOLERANCE = 0.25


def _item(item: str, checks: dict[str, Check], hint_rung: int = 0) -> dict[str, Any]:
    """An item's grade.

    ``hint_rung``: how many rungs of its hint ladder its lines already give, so that the Hint button
    starts above them.
    """
    return {"attempted": True, "checks": labelled(item, {k: c.to_json() for k, c in checks.items()}),
            "passed": verdict_of(list(checks.values())), "hint_rung": hint_rung}


# --- Part A -----------------------------------------------------------------------------------------------------------

@cache
def _grading(item_id: str) -> dict[str, Any]:
    """The grading facts drill.json keeps for an incident, ``part_b`` or ``part_c``."""
    data = load_json("drill.json")
    if item_id in ("part_b", "part_c"):
        found: dict[str, Any] = data.get(item_id, {}).get("grading", {})
        return found
    entry: dict[str, Any] = next((e for e in data["incidents"] if e["id"] == item_id), {})
    return dict(entry.get("grading", {}))


def _refused_fixes() -> dict[str, tuple[tuple[str, ...], str]]:
    """Per incident, the fix the acceptance says to refuse (drill.json 'refused_fix'): lever ids and words."""
    out = {}
    for item in drill.incidents():
        fix = _grading(item.id).get("refused_fix")
        if fix:
            out[item.id] = (tuple(fix["levers"]), str(fix["what"]))
    return out


_REFUSED_FIX = _refused_fixes()
#: The drill's acceptance, worded so that reading it gives no answer away.
CRITERIA = (
    "Puts each incident of Part A in its regime.",
    *(f"Refuses {what} as the fix for {item.upper()}." for item, (_, what) in _REFUSED_FIX.items()),
    f"Computes the ridge of the Part B card (within {RIDGE_TOLERANCE:.0%}).",
    "Places decode far below the ridge and the 4096 matmul far above it.",
)


def hint(item_id: str, rung: int = 1) -> str:
    """Rung ``rung`` (from 1) of the item's hint ladder; past the top, the top."""
    ladder = hints(item_id)
    return ladder[min(max(rung, 1), len(ladder)) - 1]


def _kind(incident_id: str, regime: str) -> str:
    """The regime the levers are judged against: ``host`` where a host sync in the loop is the overhead."""
    if regime == "overhead" and drill.incident(incident_id).symptoms.observed.host_sync_in_loop:
        return "host"
    return regime


_OCCUPANCY_REGIME = re.compile(r"\boccupancy\b")
_OCCUPANCY_NAMED_REGIME = re.compile(r"\W*(?:it'?s\s+|it is\s+)?(?:occupancy|register|warp)[- ](?:bound|limited)\b")
# A regime line that refuses to decide: every drill incident's symptoms decide.
_UNDECIDED = re.compile(r"\b(?:undecided|undecidable|cannot (?:decide|tell)|can'?t (?:decide|tell)|not enough"
                        r"|measure first)\b")


def _kernel_side(incident_id: str) -> tuple[str | None, float | None]:
    """Where the incident's kernel sits against the ridge, and the ridge.

    Without a card: the side it takes against every card of the catalogue, when all agree (a 70B decode is
    far below any ridge).
    """
    item = drill.incident(incident_id)
    placement = item.verdict().placement
    if placement is not None:
        return placement.side, placement.ridge
    work = item.symptoms.work
    if work is None or not work.bytes:
        return None, None
    intensity = work.flops / work.bytes
    ridges = [card.peak(card.default_dtype()) / card.bandwidth.value for card in hw.catalogue().values()]
    return ("below" if intensity < min(ridges) else "above" if intensity > max(ridges) else None), None


@cache
def facts(incident_id: str) -> Facts:
    """What the incident says, read as claims: the classifier's evidence and the incident's own text."""
    item = drill.incident(incident_id)
    side, ridge = _kernel_side(incident_id)
    card = item.symptoms.hardware
    # Without a card named, any catalogue card's figure is one a learner may assume (A8's "at 3.35 TB/s").
    cards = [card] if card is not None else list(hw.catalogue().values())
    # The incident's own text, the work's arithmetic as the core did it, and the incidents it names as its
    # context ("the same chain" is A2's): figures a learner may quote, none of which decides by itself.
    work = item.symptoms.work
    others = [item.text, *(work.steps if work else ()),
              *((f"{work.bytes:.6g} bytes", f"{work.flops:.6g} FLOP") if work else ()),
              *_tensor_sizes(dict(item.symptoms.work_spec or {}))]
    others_named = _grading(incident_id).get("context", [])
    context = [with_units(drill.incident(other).text) for other in others_named]
    context += [f"{n} elements" for other in others_named if (n := _elements(other))]
    return Facts.read(deciding_lines(item.verdict()), [with_units(line) for line in others], side, ridge,
                      datasheet=datasheet(cards), context_lines=context, anomalous=bool(item.verdict().anomalies),
                      scales=_scales(incident_id, others_named), measured_real=tokens_beyond_floor(item.symptoms),
                      drill_ridges=tuple(k.placement.ridge for k in drill.part_b()[:1]),
                      context_named=", ".join(other.upper() for other in others_named))


def _elements(incident_id: str) -> int | None:
    """How many elements the incident's tensor holds, where its work names a shape."""
    shape = dict(drill.incident(incident_id).symptoms.work_spec or {}).get("shape")
    if not isinstance(shape, list) or not shape or not all(isinstance(n, int) and n > 0 for n in shape):
        return None
    return math.prod(shape)


def _scales(incident_id: str, others: list[str]) -> tuple[tuple[float, str], ...]:
    """How many times each named incident's tensor holds this one's ("A2's tensor is 16,384× A3's")."""
    own = _elements(incident_id)
    out = []
    for other in others:
        theirs = _elements(other)
        if own and theirs and theirs != own:
            ratio = max(own, theirs) / min(own, theirs)
            smaller = "smaller" if own < theirs else "larger"
            said = f"{ratio:,.0f}" if ratio.is_integer() else format_quantity(ratio, Dim.COUNT)
            out.append((ratio, f"{incident_id.upper()}'s tensor is {said}× {smaller}"
                               f" than {other.upper()}'s ({own:,} against {theirs:,} elements)"))
    return tuple(out)


def _tensor_sizes(spec: dict[str, Any] | None) -> list[str]:
    """An elementwise kernel's tensor, or a matmul's output matrix: its elements, and its bytes at 2 and 4 an element.

    "8×32×32 fp16 is 16 KiB"; "a relu over the 4096×4096 fp16 output reads ~34 MB and writes ~34 MB"; "the relu is
    16.8M ops next to 1.37e11".
    """
    matmul = (spec or {}).get("kernel") == "matmul"
    if matmul and all(isinstance((spec or {}).get(d), int) for d in ("m", "n")):
        spec = {"shape": [spec["m"], spec["n"]]}  # type: ignore[index]
    shape = (spec or {}).get("shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) for n in shape):
        return []
    elements = 1
    for n in shape:
        elements *= n
    # an elementwise op on a matmul's output (A1's relu) does one FLOP an element: "16.8M ops next to 1.37e11"
    flops = [f"{elements} FLOP"] if matmul else []
    return [f"{elements} elements", *flops, *(f"{elements * width} bytes" for width in (2, 4))]


@cache
def _contradictions(incident_id: str) -> tuple[Stated, ...]:
    grading = _grading(incident_id)
    return (*(Contradiction(re.compile(c["says"]), c["why"]) for c in grading.get("contradicts", [])),
            *relations.relations(grading))


@cache
def _statements(incident_id: str) -> Statements:
    return Statements(_grading(incident_id), [_grading(i.id) for i in drill.incidents()])


def _evidence(incident_id: str, verdict: Verdict, text: str) -> Check:
    return evidence_check(facts(incident_id), _grading(incident_id).get("facts", []), verdict.regime, text,
                          _contradictions(incident_id), statements=_statements(incident_id))


def _figure_wrong(incident_id: str, text: str) -> str:
    """What a figure in a regime line gets wrong of the incident, read as its evidence's figures are, or "".

    A figure that cannot be checked is left to the evidence line, where the learner gives the working.
    """
    lowered = with_units(text)
    if not re.search(r"\d", lowered):
        return ""
    judged = claim_reader.judge(facts(incident_id), claim_reader.read(lowered), plain_numbers(lowered))
    return judged.wrong.rstrip(".") + "." if judged.wrong else ""


def grade_incident(incident_id: str, entry: dict[str, str] | None) -> dict[str, Any]:
    """Part A, one incident: regime, evidence, the lever that helps and the one that wastes the week."""
    if not entry:
        return {"attempted": False, "checks": {}}
    verdict = drill.incident(incident_id).verdict()
    regime = verdict.regime or ""
    kind = _kind(incident_id, regime)
    checks: dict[str, Check] = {}
    named = regime_named(entry.get("regime", ""))
    if (named is None and _OCCUPANCY_REGIME.search(normalise(entry.get("regime", "")))) or _OCCUPANCY_NAMED_REGIME.match(
            normalise(entry.get("regime", ""))):  # "Occupancy-bound: 55% is too low to keep the memory system fed"
        checks["regime"] = Check(False, "Occupancy is not a regime (Rule 4): name the roof that holds the kernel.")
    elif not entry.get("regime", "").strip():
        checks["regime"] = Check(False, f"Name one regime: {REGIME_CHOICES}.")
    elif named is None and _UNDECIDED.search(normalise(entry.get("regime", ""))):
        checks["regime"] = Check(False, f"The symptoms decide this one: {hint(incident_id)}")
    elif named is None:
        checks["regime"] = unsure(f"the grader could not read one regime here ({REGIME_CHOICES})")
    elif named != regime:
        checks["regime"] = Check(False, f"Not {advice(named).name}: {hint(incident_id)}")
    elif reason_against(entry.get("regime", ""), named):
        checks["regime"] = Check(False, reason_against(entry.get("regime", ""), named))
    elif said_against := contradicted(normalise(entry.get("regime", "")), _contradictions(incident_id)):
        # the right regime, for a reason the incident says is not so ("overhead, because the kernels got slower")
        checks["regime"] = Check(False, f"{cap(advice(regime).name)}, but not for that reason: {said_against}")
    elif figure_wrong := _figure_wrong(incident_id, entry.get("regime", "")):
        # the right regime beside a figure that is not so ("overhead, even though the GPU is busy 80% of the time")
        checks["regime"] = Check(False, f"{cap(advice(regime).name)}, but {figure_wrong}")
    else:
        checks["regime"] = Check(True, f"{cap(advice(regime).name)}, as the symptoms say.")
    checks["evidence"] = _evidence(incident_id, verdict, entry.get("evidence", ""))
    levers = lever_checks(verdict, kind, entry.get("helps", ""), entry.get("wastes", ""),
                          _REFUSED_FIX.get(incident_id, ((), ""))[0],
                          drill.incident(incident_id).symptoms.observed.fused_speedup,
                          roof_share(drill.incident(incident_id).symptoms, regime))
    # A lever line's numbers are claims too: checked, or named as not checked.
    checks.update(with_lever_numbers(levers, facts(incident_id), entry.get("helps", ""), entry.get("wastes", "")))
    if checks["helps"].ok is not False and (minor := _only_minor(incident_id, entry.get("helps", ""))):
        checks["helps"] = Check(False, minor)
    if checks["wastes"].ok is not True and (short := _short_of_target(incident_id, entry.get("wastes", ""))):
        checks["wastes"] = Check(True, short)
    elif checks["wastes"].ok is not True and (minor := _only_minor(incident_id, entry.get("wastes", ""))):
        checks["wastes"] = Check(True, f"Rightly refused: {minor}")  # a week for a few per cent
    for field in ("helps", "wastes"):  # a lever's reason that says the opposite of what the incident states
        said_against = contradicted(normalise(entry.get(field, "")), _contradictions(incident_id))
        if said_against and checks[field].ok is not False:
            checks[field] = Check(False, f"Not for that reason: {said_against}")
        elif checks[field].ok is not False and (other := lever_reason_against(entry.get(field, ""), verdict.regime)):
            checks[field] = Check(False, f"Not for that reason: {other}")
    wrong_regime = named is not None and named != regime
    return _item(incident_id, checks, hint_rung=1 if wrong_regime else 0)


#: A purpose said beside a lever ("page the KV cache to cut the bytes read"), not a lever of its own.
_PURPOSES = frozenset({"cut_bytes"})


# A lever refused as the whole way to a target: "kernel tuning alone", "on its own", "caps at 1.6× max".
_ALONE = re.compile(r"\b(?:alone|by itself|by themselves|on (?:its|their) own|only|just)\b|\bmax\b|\bat (?:most|best)\b"
                    r"|\bcaps?\b|\bceiling\b")


def _short_of_target(incident_id: str, wastes: str) -> str:
    """Why a waste line that refuses only levers that cannot reach the incident's target is right, or "".

    The levers and why are the incident's ``grading.short_of_target`` in drill.json; the line must say the lever
    alone, or bound what it gives.
    """
    spec = _grading(incident_id).get("short_of_target")
    if not spec or not wastes.strip():
        return ""
    line = read_levers(wastes)
    named = set(line.offered) or set(line.denied)
    if not named or not named <= set(spec["levers"]) or not _ALONE.search(normalise(wastes)):
        return ""
    return f"{cap(phrases(sorted(named)))} alone: rightly refused as the way to the target, since {spec['why']}."


# Where one item of a list of levers ends: "quantisation, batching, a leaner KV cache".
_LIST_ITEM = re.compile(r"[,;:]|\band\b|\bplus\b|\bor\b")


def _only_minor(incident_id: str, line: str) -> str:
    """Why a lever line names only levers that move this incident's time by a few per cent, or "".

    Offered, they help little; refused as the waste, they are rightly refused. The levers and why are the incident's ``grading.minor_levers`` in drill.json. A lever that fits the regime is
    minor too where the line applies it only to the spec's ``object`` and never to its ``not_object`` ("fp8 KV",
    "compress the KV cache": quantisation of the cache, not of the weights).
    """
    spec = _grading(incident_id).get("minor_levers")
    if not spec or not line.strip():
        return ""
    offered = set(read_levers(line).offered)
    lowered = normalise(line)
    only_the_object = bool(spec.get("object") and re.search(spec["object"], lowered)
                           and not re.search(spec.get("not_object", r"(?!)"), lowered)) and all(
        re.search(spec["object"], part) or set(read_levers(part).offered) <= set(spec["levers"]) | _PURPOSES
        for part in _LIST_ITEM.split(lowered))  # each lever of a list applied to the object, or minor itself
    minor = [i for i in offered if i in spec["levers"] or only_the_object]
    if not minor or offered - set(minor) - _PURPOSES:
        return ""
    if only_the_object and any(i not in spec["levers"] for i in minor):
        named, moves = spec.get("object_named", "it"), "move" if len(minor) > 1 else "moves"
        return f"{cap(phrases(sorted(minor)))}, applied to {named}, {moves} little here: {spec['why']}."
    return f"{cap(phrases(sorted(minor)))} {'move' if len(minor) > 1 else 'moves'} little here: {spec['why']}."


# --- Part B -----------------------------------------------------------------------------------------------------------

def _close(value: float, targets: list[float], rel: float) -> bool:
    return any(abs(value - t) <= rel * t for t in targets)


# Part B asks for a class of optimisation, and a class is often named by its roof alone ("compute", "↑FLOP rate
# (TCs)", "raise tensor-pipe throughput", "reduce_bytes"): read where no lever is named.
_CLASS_WORDS = {
    "compute": re.compile(r"\b(?:compute|math|flops?|arithmetic|tensor[- ]?(?:cores?|pipes?)|tcs?|alus?)\b"),
    "memory": re.compile(r"\b(?:memory|bytes?|bandwidth|traffic|hbm|dram|data movement)\b"),
}


def _class_named(text: str) -> str | None:
    """The one roof a Part B optimisation names by its words alone, or None (none, or both)."""
    lowered = normalise(text)
    named = [kind for kind, words in _CLASS_WORDS.items() if words.search(lowered)]
    return named[0] if len(named) == 1 and not NEGATION.search(lowered) else None


def _optimisation(text: str, bound: str) -> Check:
    line = read_levers(text)
    if not text.strip():
        return Check(False, "name the class of optimisation allowed")
    if not line.offered:
        named = _class_named(text)
        if named is not None:
            return Check(True, "right class") if named == bound else Check(
                False, f"{advice(named).name.split('-')[0]}-side work cannot move a kernel on its side of the ridge")
        return unsure("the grader could not read the class of optimisation")
    wrong = [i for i in line.offered if not helps_here(i, bound)]
    if wrong:
        return Check(False, f"{phrases(wrong)} cannot move a kernel on its side of the ridge")
    return Check(True, "right class")


#: What a Part B side may look like, said where one could not be read.
_SIDES_READABLE = "below or above the ridge, in any words for them: under, left of it, the memory side"
#: What a Part B number may look like, said where one could not be read.
_READABLE = "a number like 156, 1.56e2 or 156 FLOP/byte, working that ends in = 156, or 312 TFLOP/s / 2 TB/s"


def _also(given: float | None, derived: float, drill_figure: float) -> str:
    """Which figure the learner's intensity is, and the other one accepted."""
    shown, drill_shown = format_quantity(derived, Dim.INTENSITY), format_quantity(drill_figure, Dim.INTENSITY)
    if given is None or math.isclose(derived, drill_figure, rel_tol=0.02):
        return f"the shape's arithmetic gives {shown}"
    if _close(given, [derived], INTENSITY_TOLERANCE):
        return f"the shape's arithmetic gives {shown}; the drill's {drill_shown} is accepted too"
    return f"the drill's figure; the shape's arithmetic gives {shown}, also accepted"


# A side of the ridge given the other side's regime ("anything above 156 is memory-bound").
_SIDES_SWAPPED = re.compile(r"\b(?:above|over|beyond|past|higher than|more than|greater than)\b"
                            r"(?:(?!compute|below|under|less|lower)[^.;\n]){0,40}?\b(?:memory|bandwidth)[- ]bound"
                            r"|\b(?:below|under|less than|lower than)\b"
                            r"(?:(?!memory|bandwidth|above|over|more|greater|higher)[^.;\n]){0,40}?\bcompute[- ]bound")


def sides_swapped(text: str) -> str:
    """The words that give a side of the ridge the other side's regime, as written, or ""."""
    lowered = normalise(text) if text else ""
    found = _SIDES_SWAPPED.search(lowered)
    if found is None or NEGATION.search(found.group()):
        return ""
    return _as_written(text, found.group())


_NO_FACTS = Facts((), ())


def _arithmetic_off(text: str) -> str:
    """Why the first sum written in a Part B field is wrong ("1,356 / 156 ≈ 87": it is 8.69), quoting it, or ""."""
    if not text or not re.search(r"[=≈÷/×*]", text):
        return ""
    return claim_reader.arithmetic_wrong(_NO_FACTS, claim_reader.read(with_units(text)))


# How far from the ridge a side says the kernel is ("above the ridge, by roughly 9×", "~470× below").
_HOW_FAR = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?(?:×|times?\b)")


# A side said to be near the ridge ("just below the ridge, nearly balanced") of a kernel 5× or more from it.
_NEAR_THE_RIDGE = re.compile(r"\b(?:just|slightly|barely|marginally|a (?:little|bit|touch))\s+(?:below|above|under|over|left|right)"
                             r"|\b(?:nearly|almost|roughly)\s+(?:balanced|at (?:the )?ridge|on (?:the )?ridge)\b"
                             r"|\b(?:close|near|next) to (?:the )?ridge\b|\bright at (?:the )?ridge\b")
# In an intensity field, a multiple only where it is said of the ridge ("~15.6× below the ridge"): the working's "2 ×
# 4096" is no distance.
_HOW_FAR_OF_RIDGE = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?×\s+(?:below|above|under|over|left|right|beneath|past|from"
                               r"|off|the ridge)\b|\b(?:below|above|under|over)\s+(?:the\s+)?ridge\s+by\s+(?:~|about\s+"
                               r"|roughly\s+)?(\d+(?:\.\d+)?)\s?×")


def _how_far_off(side_said: str, intensities: list[float | None], ridge: float,
                 pattern: re.Pattern[str] = _HOW_FAR) -> str:
    """Why the multiple a side gives of the ridge is not the kernel's ("by roughly 87×" of 1356 against 156), or ""."""
    found = pattern.search(with_units(side_said)) if side_said else None
    if found is None:
        return ""
    said = float(next(group for group in found.groups() if group))  # the pattern's one figure, whichever way said
    known = [i for i in intensities if i]
    if not known or any(math.isclose(said, max(i, ridge) / min(i, ridge), rel_tol=claim_reader.HOW_FAR_MATCH) for i in known):
        return ""
    i = known[0]  # the learner's own intensity where there is one
    how = (f"{format_quantity(i, Dim.INTENSITY)} ÷ {format_quantity(ridge, Dim.INTENSITY)}" if i >= ridge
           else f"{format_quantity(ridge, Dim.INTENSITY)} ÷ {format_quantity(i, Dim.INTENSITY)}")
    return (f"“{found[0]}” is not how far it sits from the ridge: {how} ="
            f" {format_quantity(max(i, ridge) / min(i, ridge), Dim.COUNT)}×")


_RIDGE_PER_SECOND = re.compile(r"(?:=|≈|is)\s*~?\d[\d.,]*\s*(?:[kmgtp]?flops?(?:/s\b| per second\b)|[kmgtp]?flop/s\b)")
# The ridge's number said in bytes per FLOP ("156 FLOP per byte, i.e. 156 bytes per FLOP").
_BYTES_PER_FLOP = re.compile(r"(?<![\d.])(\d[\d,]*(?:\.\d+)?)\s*(?:bytes?|b)\s*(?:per|/|a|an|for each|for every)\s*flops?\b")
_BOUND_WORD = re.compile(r"\b[\w/]+[- ](?:bound|limited)\b")


def _row_regime_wrong(text: str, side: str) -> str:
    """A regime a Part B row's words give its kernel against its side, or a reason that argues another, or "".

    "1,356, so compute-bound (memory traffic dominates)": above the ridge the math sets the time.
    """
    if not text:
        return ""
    regime = "compute" if side == "above" else "memory"
    # a regime said with "-bound" or "-limited" ("DRAM-bound"): the unit's FLOP names no regime here
    # (Part B has two roofs: "CPU-bound" for the matmul is a database writer's word for the processor, not the host)
    called = [n for m in _BOUND_WORD.finditer(normalise(text)) if (n := regime_named(m.group())) in ("compute", "memory")]
    named = called[0] if called else None
    if named is not None and named != regime:
        return f"“{_as_written(text, text.strip())}” calls it {a_kernel(named)}: {side} the ridge it is {advice(regime).name}"
    if named == regime and (against := reason_against(text, regime)):
        return against.rstrip(".")
    return ""


def _ridge_check(attempt: Attempt, ridge: float) -> Check:
    """Part B's ridge field: within tolerance of peak FLOP/s ÷ peak bytes/s, its sides and working right."""
    ridge_text = format_quantity(ridge, Dim.INTENSITY)
    per_second = _RIDGE_PER_SECOND.search(normalise(attempt.ridge_unread)) if attempt.ridge_unread else None
    if per_second:  # "312 TFLOP/s ÷ 2 TB/s = 156 FLOP per second": the quotient's unit is FLOPs per byte
        check = Check(False, f"“{_as_written(attempt.ridge_unread, per_second.group())}” gives the ridge in FLOPs per"
                             f" second: FLOP/s ÷ bytes/s is FLOPs per byte ({ridge_text}).")
    elif attempt.ridge_unread:
        check = unsure(f"the grader could not read “{attempt.ridge_unread[:60]}” as a number ({_READABLE})")
    elif attempt.ridge is None:
        check = Check(False, "Compute the ridge: peak FLOP/s ÷ peak bytes/s.")
    elif _close(attempt.ridge, [ridge], RIDGE_TOLERANCE) and (swapped := sides_swapped(attempt.ridge_said)):
        check = Check(False, f"{format_quantity(attempt.ridge, Dim.INTENSITY)} is the ridge, but “{swapped}”"
                             " turns it round: above the ridge the math sets the time (compute-bound), below"
                             " it the bytes do (memory-bound).")
    elif _close(attempt.ridge, [ridge], RIDGE_TOLERANCE):
        check = Check(True, f"{format_quantity(attempt.ridge, Dim.INTENSITY)}: the ridge is {ridge_text},"
                            f" and yours is within {RIDGE_TOLERANCE:.0%}.")
    else:
        check = Check(False, f"{format_quantity(attempt.ridge, Dim.INTENSITY)} is off by more than"
                             f" {RIDGE_TOLERANCE:.0%}: the ridge is peak FLOP/s ÷ peak bytes/s.")
    if check.ok is not False and (off := _arithmetic_off(attempt.ridge_said)):
        check = Check(False, f"{cap(off)}.")
    turned = _BYTES_PER_FLOP.search(normalise(attempt.ridge_said)) if attempt.ridge_said else None
    if check.ok is not False and turned and float(turned[1].replace(",", "")) >= 1:
        check = Check(False, f"“{_as_written(attempt.ridge_said, turned.group())}” turns the ridge round: it is"
                             f" FLOPs per byte ({ridge_text}); a byte per FLOP is its inverse.")
    return check


def grade_part_b(attempt: Attempt) -> dict[str, Any]:
    """Part B: the ridge, and each kernel's intensity, side and allowed class of optimisation."""
    rows = drill.part_b()
    ridge = rows[0].placement.ridge
    if attempt.ridge is None and not attempt.kernels and not attempt.ridge_unread:
        return {"attempted": False, "checks": {}}
    checks: dict[str, Check] = {"ridge": _ridge_check(attempt, ridge)}
    for row in rows:
        given = attempt.kernels.get(row.id)
        p = row.placement
        derived = format_quantity(p.intensity, Dim.INTENSITY)
        if given is None:
            checks[row.id] = Check(False, "Not attempted yet.")
            continue
        unread = dict(given.unread)
        problems = []
        if "intensity" not in unread and (given.intensity is None or not _close(
                given.intensity, [p.intensity, row.drill_intensity], INTENSITY_TOLERANCE)):
            problems.append(f"the intensity is off by more than {INTENSITY_TOLERANCE:.0%}: FLOPs ÷ bytes")
        if "side" not in unread and given.side != p.side:
            problems.append("compare its intensity with the ridge again for the side")
        optimisation = _optimisation(given.optimisation, p.bound)
        if optimisation.ok is False:
            problems.append(f"{optimisation.why}")
        problems += [off for text in (given.said, given.optimisation) if (off := _arithmetic_off(text))][:1]
        known_intensities = [given.intensity, p.intensity, row.drill_intensity]
        distance = max(p.intensity, ridge) / min(p.intensity, ridge)
        # near the ridge, said in the side or after the intensity ("1, just under the ridge")
        near_said = next((text for text in (given.side_said, given.said)
                          if text and _NEAR_THE_RIDGE.search(normalise(text))), "")
        near = _NEAR_THE_RIDGE.search(normalise(near_said)) if near_said else None
        if near and distance >= claim_reader.FAR_FROM_THE_RIDGE:
            problems.append(f"“{_as_written(near_said, near.group())}”: it sits"
                            f" {format_quantity(distance, Dim.COUNT)}× from the ridge, far from it")
        if far := (_how_far_off(given.side_said, known_intensities, ridge)
                   or _how_far_off(given.said, known_intensities, ridge, _HOW_FAR_OF_RIDGE)):
            problems.append(far)
        problems += [why for text in (given.said, given.side_said) if (why := _row_regime_wrong(text, p.side))][:1]
        yours = (format_quantity(given.intensity, Dim.INTENSITY) if given.intensity is not None else "")
        said = f"{yours} ({_also(given.intensity, p.intensity, row.drill_intensity)})" if yours else derived
        if problems:
            checks[row.id] = Check(False, cap("; ".join(problems)) + ".")
        elif unread:
            what = "; ".join(f"the {name} “{text[:60]}” ({_SIDES_READABLE if name == 'side' else _READABLE})"
                             for name, text in unread.items())
            checks[row.id] = unsure(f"the grader could not read {what}")
        elif optimisation.ok is None:
            checks[row.id] = Check(None, f"{cap(said)}, {p.side} the ridge; {optimisation.why}.")
        else:
            checks[row.id] = Check(True, f"{cap(said)}, {p.side} the ridge, right class.")
    return _item("part_b", checks)


# --- Part C -----------------------------------------------------------------------------------------------------------

@cache
def _drill_numbers() -> tuple[tuple[float, Dim], ...]:
    return tuple(drill_numbers())


def drill_numbers() -> list[tuple[float, Dim]]:
    """Every number that appears in Part A or Part B, as written or as derived."""
    found = [q for item in drill.incidents() for q in quantities_in(item.text)]
    for item in drill.incidents():
        found += deciding_numbers(item.verdict())
    # each tensor's elements (A3's 8 × 32 × 32 = 8,192)
    found += [(float(n), Dim.COUNT) for item in drill.incidents() if (n := _elements(item.id))]
    return found + _part_b_figures()


def _part_b_figures() -> list[tuple[float, Dim]]:
    """Part B's own figures: the card's, and each kernel's FLOPs, bytes, intensity and distance from the ridge.

    The card's peak and bandwidth come in their units and bare ("312e12 / 2.0e12 = 156").
    """
    found: list[tuple[float, Dim]] = []
    for row in drill.part_b():
        card = row.placement
        found += [(card.peak_flops, Dim.FLOP_RATE), (card.bandwidth, Dim.BYTE_RATE), (card.peak_flops, Dim.COUNT),
                  (card.bandwidth, Dim.COUNT),
                  # ... and as written in their units ("312/2.0 = 156": TFLOP/s over TB/s)
                  (_as_shown(card.peak_flops, Dim.FLOP_RATE), Dim.COUNT), (_as_shown(card.bandwidth, Dim.BYTE_RATE), Dim.COUNT)]
        found += [(row.drill_flops, Dim.COUNT), (row.drill_bytes, Dim.COUNT), (row.drill_flops, Dim.FLOP),
                  (row.drill_bytes, Dim.BYTE), (row.drill_intensity, Dim.INTENSITY),
                  (row.placement.intensity, Dim.INTENSITY), (row.placement.ridge, Dim.INTENSITY),
                  (row.placement.factor, Dim.COUNT),
                  # how far the drill's own intensity is from the ridge ("~470× below"), either way
                  (row.placement.ridge / row.drill_intensity, Dim.COUNT), (row.drill_intensity / row.placement.ridge, Dim.COUNT)]
    return found


_FOR_FUSION = re.compile(r"memory|bandwidth|\bbytes?\b|traffic|launch|overhead|round trip|\btrips?\b|\bmem\b|\bbw\b|\bhbm\b"
                         r"|\b[kmgt]i?b/s\b|below (?:the )?ridge|under (?:the )?ridge")
_AGAINST_FUSION = re.compile(r"compute|\bflops?\b(?!/)|\bt?flop/s\b|\btflops?\b|tensor core|\bmath|arithmetic|above the ridge"
                             r"|\bmatmul|\bgemm")
# Fusion named, or described ("collapse the chain into a single kernel", "one pass", "fold the relu into it").
_FUSION_WORDS = re.compile(r"\bfus|\bfuse|compil|inductor|\bmerg|\bcollaps|(?<![-\w])fold|single kernel|into one kernel"
                           r"|\b(?:one|single) pass\b|\bglue|read (?:\w+ )?once\b")


def _as_written(paragraph: str, lowered_clause: str) -> str:
    """A normalised clause quoted as the learner wrote it, where it can be found; at most 160 characters."""
    clause = lowered_clause.rstrip(" ;,.:")
    lowered = paragraph.lower()
    at = next((found for size in (40, 20, 10) if (found := lowered.find(clause[:size])) >= 0), -1)
    if at < 0:
        return clause[:160]
    end = at + len(clause)
    while end < len(paragraph) and paragraph[end].isalnum():  # normalising may have shortened it ("A1's" → "a1s")
        end += 1
    return paragraph[at:end][:160]


# What fusion does, said in the paragraph: it removes round trips, bytes, intermediates or launches; the data is
# read once; the chain runs in one pass or keeps its values on chip.
_FUSION_DOES = re.compile(
    r"\b(?:cuts?|cutting|reduces?|reducing|removes?|removing|deletes?|deleting|saves?|saving|eliminat\w*|avoids?|avoiding"
    r"|kills?|drops?|skips?|spares?|collapses?|fewer|less|no more|gets? rid of|trims?)\b(?:\s+[\w'’/-]+){0,4}?\s+"
    r"(?:round[- ]?trips?|trips?|traffic|bytes?|memory|reads?|writes?|intermediates?|launch\w*|passes|loads?|stores?"
    r"|hbm|dram|kernels?|temporar\w*|materiali[sz]\w*|spills?|gaps?|overhead)\b"
    r"|\b(?:read|reads|stream|streams|touch\w*|load\w*)\b(?:\s+[\w'’-]+){0,3}?\s+once\b|\b(?:one|a single|single) pass\b"
    r"|\bkeep\w*\b(?:\s+[\w'’-]+){0,4}?\s+(?:in registers|on[- ]chip|in (?:shared memory|smem|cache|sram))")


#: A fusion or compile speed-up measured this close to 1 says the traffic fusion deletes was never the time.
_FUSION_BARELY = 1.2
#: A multiplier said of fusion's win this far past the measured one is another incident's win.
_FUSION_WIN_OFF = 1.5


# A win said to be large in words ("double decode", "lift it well past 38 tok/s").
_MUCH_FASTER = re.compile(r"\b(?:doubl\w*|twice|tripl\w*|(?:well|far|way) (?:past|beyond|above)|much faster|roughly 2x"
                          r"|(?:will|would|should|can|could) (?:fix|solve|cure) it)\b")


# A rise said from one figure to another ("lift it from 38 tok/s into the 80s", "from 38 to ~70 tok/s").
_FROM_TO = re.compile(r"\bfrom\s+~?(\d+(?:\.\d+)?)(?:\s?[a-z/]+)?\s+(?:up\s+)?(?:in)?to\s+(?:the\s+)?(?:~\s?|about\s+|around\s+"
                      r"|(?:well\s+|way\s+|far\s+)?(?:over|above|past|beyond)\s+)?"
                      r"(\d+(?:\.\d+)?)")


def _rise_said(clause: str) -> float:
    """The largest rise a clause says from one figure to another (1 where it says none)."""
    rises = [float(m[2]) / float(m[1]) for m in _FROM_TO.finditer(clause) if float(m[1]) > 0]
    return max(rises, default=1.0)


def _fusion_wrong_of(said: FusionSaid, *, of_the_win: bool = False) -> str:
    """Why what a clause says fusion does for the incident it names is wrong, or "".

    ``of_the_win``: only where no win can be had at all, so that the win's own figures are used against their
    meaning (a decode's fusion may win a little, and a what-if of how much is the fusion check's to judge).
    """
    incident = drill.incident(said.incident)
    verdict = incident.verdict()
    kind = _kind(said.incident, verdict.regime or "")
    measured = incident.symptoms.observed.fused_speedup
    name = said.incident.upper()
    if said.pays and not said.small and not helps_here("fusion", kind):
        why = ("the host waits on a sync there, and no kernel change removes a sync" if kind == "host" else
               f"it is {advice(kind).name}, and fusion deletes bytes and launches, not the work that sets its time")
        return f"fusion cannot help {name}: {why}"
    if said.pays and not said.small and not of_the_win and verdict.kind == "decode" and (
            said.big or any(t >= _FUSION_WIN_OFF for t in said.times) or _MUCH_FASTER.search(said.clause)
            or _rise_said(said.clause) >= _FUSION_WIN_OFF):
        return (f"fusion cannot speed {name} up much: each token reads every weight once, fused or not, and the"
                " weights are nearly all its bytes")
    if said.pays and measured is not None and measured < _FUSION_BARELY and (
            (said.big and not said.small) or any(t > _FUSION_WIN_OFF for t in said.times)):
        # ("the same fusion gives only 1.08×": the same lever, and a small win said as one)
        return (f"compiling {name} bought only {format_quantity(measured, Dim.COUNT)}×: the traffic fusion deletes was"
                " never its time")
    if not said.pays and helps_here("fusion", kind) and (
            (measured is not None and measured >= _FUSION_WIN_OFF) or (kind == "overhead" and measured is None)):
        why = (f"compiling it, which fuses the chain, made it {format_quantity(measured, Dim.COUNT)}× faster"
               if measured is not None else "launches set its time, and fusion cuts them")
        return f"fusion is the fix for {name}: {why}"
    return ""


# Fusion's win said to hold whatever the size ("A2's 3.8× holds at any size").
_ANY_SIZE = re.compile(r"\b(?:at|for|of|on|across) (?:any|every|all) (?:tensor |input |problem )?sizes?\b|\bregardless of (?:the )?"
                       r"(?:tensor |input |problem )?size\b|\bwhatever the size\b|\bno matter (?:the size|how (?:big|small|large)"
                       r"|what size)\b|\bsize[- ]independent\b")


# Fusion said to pay most on small tensors ("fusion pays most where tensors are small", "small kernels are where
# fusion really shines").
_SMALL_PAYS_MOST = re.compile(
    r"\b(?:pays?|helps?|wins?|shines?|works?|matters?)\s+(?:the\s+)?(?:most|best|biggest)\s+(?:where|when|on|for|with)\s+"
    r"(?:the\s+)?(?:tensors?\s+(?:are\s+)?(?:small|tiny)|(?:small|tiny)\s+(?:tensors?|kernels?|inputs?|shapes?|sizes?))"
    r"|\b(?:small|tiny)\s+(?:tensors?|kernels?|inputs?|shapes?)\s+(?:are|is)\s+where\s+(?:fusion|fusing|it)\s+(?:really\s+)?"
    r"(?:pays?|helps?|wins?|shines?|works?)\b")


# A sentence that is about one kernel: an incident or a kernel of the drill named, or pointed at.
_OF_ONE_KERNEL = re.compile(r"\ba[1-8]\b|\b(?:the|this|that|its|a)\s+(?:[\w-]+\s+)?(?:relu|matmul|gemm|decode|add|kernel|chain"
                            r"|prefill|attention)\b|\b(?:here|there)\b")


def _sentence_of(text: str, at: int) -> str:
    """The sentence of ``text`` that holds position ``at``."""
    start = max(text.rfind(". ", 0, at), text.rfind("; ", 0, at), text.rfind("! ", 0, at), text.rfind("? ", 0, at)) + 1
    ends = [i for i in (text.find(". ", at), text.find("; ", at)) if i >= 0]
    return text[start:min(ends) if ends else len(text)]


# The Part B matmul (A1's kernel) named without an incident: "fusion is right for the 4096 matmul".
_THE_MATMUL = re.compile(r"\b(?:4096\s*(?:[×x]\s*4096\s*)?)?(?:matmul|gemm)s?\b")
_MATMUL_CLAUSE = re.compile(r";\s|,\s+(?:but|whereas|while|yet|though)\s|\s(?:but|whereas)\s")
_NOT_THE_MATMUL = re.compile(r"\b(?:not|no|never|nothing|cannot|wast\w*|career\w*|useless|pointless|irrelevant|add|decode"
                             r"|elementwise|chain|unchanged|a[1-8](?:'?s)?)\b|n't|n’t")


def _fusion_pays_for_the_matmul(lowered: str) -> str:
    """The clause that has fusion pay for the Part B matmul, named as such, or ""."""
    for sentence in SENTENCE.split(lowered):
        for clause in _MATMUL_CLAUSE.split(sentence):
            if _THE_MATMUL.search(clause) and not _NOT_THE_MATMUL.search(clause) and fusion_pays_in(clause) is True:
                return clause.strip()
    return ""


def _fusion_said(paragraph: str, lowered: str, talks: bool, of_incidents: list[FusionSaid]) -> Check:
    """Fusion: named, and what it does said right, misstated, or not said in words the grader reads."""
    if not talks:
        return Check(False, "Say what fusion does: it deletes round trips and launches.")
    misread = fusion_misstated(lowered)
    if misread:
        return Check(False, f"“{_as_written(paragraph, misread.group())}”: fusion deletes round trips through memory and"
                            f" launches; it leaves {fusion_leaves(misread)}.")
    for of_incident in of_incidents:
        wrong = _fusion_wrong_of(of_incident)
        if wrong:
            return Check(False, f"“{_as_written(paragraph, of_incident.clause)}”: {wrong}.")
        if of_incident.pays and not of_incident.small and (size := _ANY_SIZE.search(of_incident.clause)):
            return Check(False, f"“{_as_written(paragraph, size.group())}”: fusion's win does not hold at every size. A3"
                                " is A2's chain on a small tensor, and compiling it bought only 1.08×: with few bytes"
                                " there is little traffic to delete.")
    matmul = _fusion_pays_for_the_matmul(lowered)
    if matmul:
        row = next(k for k in drill.part_b() if k.id == "matmul")
        return Check(False, f"“{_as_written(paragraph, matmul)}”: Part B's matmul (A1's kernel) does"
                            f" {format_quantity(row.drill_intensity, Dim.INTENSITY)}, far above the ridge of"
                            f" {format_quantity(row.placement.ridge, Dim.INTENSITY)}: compute-bound, so fusing its relu"
                            " deletes bytes that do not set its time.")
    small = _SMALL_PAYS_MOST.search(lowered)
    if small and not negated(lowered, small.start(), small.end()):
        return Check(False, f"“{_as_written(paragraph, small.group())}”: a small tensor has the least traffic to delete."
                            " A3 is A2's chain on a small tensor, and compiling it bought only 1.08×.")
    # Named and not misstated: what it is said to do is quoted where it is read; the argument is the next check. What
    # is denied of fusion in general ("fusion never reduces memory traffic") is its mechanism denied; denied of one
    # kernel ("fusing A1's relu removes no traffic that matters"), it is that kernel's reading.
    does = list(_FUSION_DOES.finditer(lowered))
    said = next((m for m in does if not negated(lowered, m.start(), m.end())), None)
    if said:
        return Check(True, f"Says what fusion does: “{_as_written(paragraph, said.group())}”.")
    denied = next((m for m in does if not _OF_ONE_KERNEL.search(_sentence_of(lowered, m.start()))), None)
    if denied:
        return Check(False, f"“{_as_written(paragraph, _sentence_of(lowered, denied.start()).strip())}”: fusion deletes"
                            " round trips through memory and launches; that is where it pays (A2: 3.8×).")
    # What it does not said in words read here: where it is said to pay, or to waste the week, is the claim checked.
    argument = read_argument(lowered)
    if argument.pays_clause and not argument.turned:
        return Check(True, f"Says where fusion pays: “{_as_written(paragraph, argument.pays_clause)}”.")
    if argument.wastes_clause and not argument.turned:
        return Check(True, f"Says where fusion wastes the week: “{_as_written(paragraph, argument.wastes_clause)}”.")
    if argument.turned:
        return unsure(f"“{_as_written(paragraph, argument.turned)}” has fusion pay where the math sets the time (see"
                      " Both sides); what fusion itself does is not said in words the grader reads")
    return unsure("fusion is named, but neither what it does (deletes round trips and launches) nor where it pays"
                  " (where bytes or launches set the time) is said in words the grader reads")


def _incident_sides(of_incidents: list[FusionSaid]) -> tuple[bool, bool, str]:
    """What the paragraph says of the incidents it names ("A6's launches: fuse them"; "no fused kernel rescues A7").

    Returns (fusion said rightly to pay for one it fits, said rightly to waste the week on one, the first clause
    that has it pay where it cannot).
    """
    pays = wastes = False
    turned = ""
    for said in of_incidents:
        incident = drill.incident(said.incident)
        fits = helps_here("fusion", _kind(said.incident, incident.verdict().regime or ""))
        if _fusion_wrong_of(said):
            # a side turned round is fusion paying where it cannot help; a win overstated where it fits ("A3's
            # biggest win") is the fusion check's to fail
            turned = turned or (said.clause if said.pays and not fits else "")
            continue
        pays = pays or (said.pays and not said.small and fits)
        wastes = wastes or not said.pays
    return pays, wastes, turned


# The drill's own words for the side fusion does not pay, said of some work: "career-limiting for host-bound things".
_CAREER_LIMITING_FOR = re.compile(r"\bcareer[- ]limiting\s+(?:for|on|in|when|where|with)\b")


def _both_sides(paragraph: str, lowered: str, talks: bool, of_incidents: list[FusionSaid]) -> Check:
    argument = read_argument(lowered)
    pays, wastes, turned = _incident_sides(of_incidents)
    # A side read from the incidents the paragraph names completes one read from its conditions; a condition's side
    # given "only" a little ("A3's compile only got 1.08×") is not where fusion is argued to pay.
    both = (argument.pays_on_memory and argument.wastes_on_compute) or (
        (bool(argument.pays_clause) or pays) and (argument.wastes_on_compute or wastes))
    # A stance for every kernel is one side, whatever else the paragraph says
    universal = universal_stance(lowered)
    if universal:
        return Check(False, f"“{_as_written(paragraph, universal)}” takes one side for every kernel: argue when fusion"
                            " pays (bytes or launches set the time) and when it cannot (the math does).")
    if turned and both and not argument.turned:
        # both sides argued besides: the clause that has fusion pay where it cannot is the fusion check's to fail
        return Check(True, "Argues both sides (one clause has fusion pay where it cannot help: see Fusion).")
    if argument.turned:
        quoted = _as_written(paragraph, argument.turned)
        why = (f"\"{quoted}\" has fusion pay where the math sets the time, but fusion deletes bytes and launches,"
               " not FLOPs")
        # Turned round but two-sided (it also says where fusion does not pay): what it says fusion does is the
        # fusion check's to fail; one side turned round and nothing else is one side.
        two_sided = both or wastes or any(s.pays is False for s in stances(lowered)) or bool(_CAREER_LIMITING_FOR.search(lowered))
        return unsure(f"{why}: check which way your argument runs") if two_sided else Check(False, f"{cap(why)}.")
    if both:
        return Check(True, "Argues both sides.")
    if not talks:
        return Check(False, "Argue both sides of fusion: when it pays (bytes or launches set the time), and when it"
                            " cannot (the math does).")
    if argument.read:
        missing = ("when the math sets the time, and fusion cannot help" if argument.pays_on_memory else
                   "when bytes or launches set the time, and fusion pays")
        # The other side's words are there, but not read as a side argued (a question, a view answered, a
        # phrasing not known): that is could-not-tell, not "one side only".
        other = _AGAINST_FUSION if argument.pays_on_memory else _FOR_FUSION
        if other.search(lowered):
            read = "when fusion pays" if argument.pays_on_memory else "when the math sets the time"
            return unsure(f"the side {read} was read; the other side ({missing}) is in words the grader could not read")
        return Check(False, f"One side only: say also {missing}.")
    if (_FOR_FUSION.search(lowered) and _AGAINST_FUSION.search(lowered)) or argument.asked:
        return unsure("which side of the ridge each clause puts fusion on could not be read"
                      + (" (it is argued in questions, or as a view answered)" if argument.asked else ""))
    return Check(False, "Argue both sides: when bytes or launches set the time, and when the math does.")


@cache
def _part_c_known() -> tuple[tuple[float, Dim], ...]:
    """The drill's numbers, and those one step of arithmetic takes each incident's to (26 ms a token, 112 ms)."""
    derived = [(d.value, d.dim) for i in drill.incidents() for d in facts(i.id).derived if d.dim is not Dim.COUNT]
    return (*_drill_numbers(), *derived)


@cache
def _part_c_ratios() -> tuple[float, ...]:
    """The multipliers the drill gives or one step of arithmetic takes its figures to (3.8×, 1.08×, 5×, 2.25×)."""
    derived = [d.value for i in drill.incidents() for d in facts(i.id).derived if d.dim is Dim.COUNT]
    return (*(v for v, dim in _drill_numbers() if dim is Dim.COUNT), *derived)


_MULTIPLIER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?×")

#: How close a Part C number must be to the drill's to be it (a paragraph rounds: 21 tok/s for 21.4).
_PART_C_MATCH = 0.05
#: A bare count this small is words, not a figure ("two sides", "4 ops").
_SMALL_COUNT = 16


_CLAUSE = re.compile(r"[,:;—–()]|\b(?:which|so|because|since)\b")


# A sentence that turns to another subject ("But …", "Part B's …") is not said of the incident named before it.
_TURNS = re.compile(r"^\W*(?:but|however|whereas|yet|in contrast|on the other hand|meanwhile|part b|the ridge|fusion|fusing"
                    r"|a fused|fused kernels?|compile|never|always|so|hence|therefore|check|classify|read)\b")


# Part B's kernels, the ridge and intensities are their own subjects wherever they are named.
_OTHER_SUBJECT = re.compile(r"\b(?:matmul|gemm|elementwise add|the add|decode|ridge|intensity|flop/b\w*|flops? per byte)\b")


def _said_of_incidents(lowered: str, *, carry: bool = False) -> Iterator[tuple[str, str]]:
    """Each incident Part C names, with what is said of it: from its name to the next name or the sentence's end.

    With ``carry``, a sentence that names no incident and turns to no other subject is said of the last one named
    ("Fused kernel right for A6. Picket fence, 2 µs on and 8 µs off, so the GPU is busy 80%").
    """
    last = ""
    for sentence in SENTENCE.split(lowered):
        named = subjects_named(sentence)
        if not named and carry and last and sentence.strip() and not _TURNS.match(sentence) \
                and not _OTHER_SUBJECT.search(sentence):
            yield last, sentence
        for n, found in enumerate(named):
            end = named[n + 1].start() if n + 1 < len(named) else len(sentence)
            yield f"a{found[1]}", sentence[found.start():end]
        # a sentence that names two incidents ("Look at A2 and A3 side by side") hands on neither
        last = f"a{named[-1][1]}" if len({m[1] for m in named}) == 1 else ""


def _unplaced_of_incidents(lowered: str) -> list[str]:
    """The figures Part C says of an incident it names that are not that incident's, nor derived from its figures.

    "In A1 fusing the relu would save 20%": 20% is A6's busy share, not a figure of A1's; it is named as not
    checked rather than counted as a number from the drill.
    """
    out = []
    part_b = _part_b_numbers()
    for incident, said in _said_of_incidents(lowered):
        own = said[:found.start()] if (found := _OWN_CLAUSE_END.search(said)) else said
        judged = claim_reader.judge(facts(incident), claim_reader.read(own), plain_numbers(own))
        for mark in judged.marks:
            said_as = quantities_in(mark.written)[:1] if mark.ok is None else []
            if said_as and not any(same_quantity(said_as[0], k, _PART_C_MATCH) for k in part_b):
                out.append(mark.written)
    return out


# Where what is said of an incident ends and another subject begins ("… on A3, and it would win nothing on a
# compute-bound matmul at 70% of peak").
_OWN_CLAUSE_END = re.compile(r";|\s[—–-]\s|,\s+(?:and|but|while|whereas|yet)\s|\s(?:but|whereas)\s")


@cache
def _part_b_numbers() -> tuple[tuple[float, Dim], ...]:
    """Part B's figures, and its intensities and ridge said bare: any incident may cite them."""
    bare = [(value, Dim.COUNT) for value, dim in _part_b_figures() if dim is Dim.INTENSITY]
    return (*_part_b_figures(), *bare)


_LEADING_NAME = re.compile(r"^\W*a[1-8](?:'?s)?\b")


def _said_of_an_incident_wrongly(paragraph: str, lowered: str) -> str:
    """What Part C gets wrong of an incident it names, read as that incident's evidence is.

    What is said of an incident runs from its name to the next incident's name or the end of the sentence ("A6,
    where the GPU is busy 80% of the time" is wrong of A6, which idles 80%); the words before the name are not its.
    """
    for incident, named in _said_of_incidents(lowered, carry=True):
        name = incident.upper()
        # the incident's own name is "this one" to its reading ("A3's tiny tensor gets the same 3.8×" is of A3, and
        # names no other incident to set it beside)
        said = _LEADING_NAME.sub("this one", named, count=1)
        judged = claim_reader.judge(facts(incident), claim_reader.read(said), plain_numbers(said))
        if judged.wrong:
            return f"Of {name}: {judged.wrong}."
        # A number used as another regime's cause ("A2's compiled chain does 3.8× fewer FLOPs"); a cause said
        # beside a number used rightly is the fusion check's to judge.
        regime = drill.incident(incident).verdict().regime
        for clause in _CLAUSE.split(said):
            figures = [v for v, dim in quantities_in(clause)
                       if not (dim in (Dim.COUNT, Dim.FLOP) and v <= _SMALL_COUNT and float(v).is_integer())]
            blamed = blamed_against(paragraph, clause, regime) if figures else ""
            if blamed:
                return f"Of {name}: {blamed}"
    return ""


#: The units whose drill figures are few and stated (intensities, rates, sizes): times and token rates are derived
#: at many scales, so a shifted one would match by chance.
_SLIP_CHECKED = (Dim.INTENSITY, Dim.BYTE_RATE, Dim.FLOP_RATE, Dim.BYTE, Dim.FLOP)


def _same_digits(value: float, figure: float) -> bool:
    """Whether ``value`` is ``figure`` shifted by a power of ten (1 to 3 places), its digits within 1.5%."""
    if value <= 0 or figure <= 0:
        return False
    places = round(math.log10(value / figure))
    return 1 <= abs(places) <= 3 and math.isclose(value / 10.0 ** places, figure, rel_tol=0.015)


_SHOWN_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _as_shown(value: float, dim: Dim) -> float:
    """The number a quantity is written with in its own unit and prefix (96 µs: 96; 0.01%: 0.01)."""
    found = _SHOWN_NUMBER.search(format_quantity(value, dim))
    return float(found.group().replace(",", "")) if found else value


# Part B's kernels by the names people give them.
_ROW_NAMED = {"add": re.compile(r"\b(?:elementwise add|the add|add kernel|vector add)\b"),
              "matmul": re.compile(r"\b(?:matmul|gemm|matrix multipl\w*)\b"),
              "decode": re.compile(r"\bdecode(?: step)?\b")}


def _row_figure_swapped(lowered: str, ridge: float) -> str:
    """Why a Part B kernel is given another row's intensity ("the Part B matmul … around 0.33 FLOP/byte"), or ""."""
    rows = {k.id: k.drill_intensity for k in drill.part_b()}
    names = {k.id: k.label.split(",")[0] for k in drill.part_b()}  # "elementwise add", "matmul"
    for row, named in _ROW_NAMED.items():
        for found in named.finditer(lowered):
            sentence_end = SENTENCE.search(lowered, found.end())
            window = lowered[found.end():min(found.end() + 60, sentence_end.start() if sentence_end else len(lowered))]
            # the figures after a bracket, or after another row's name (or the ridge's), are another's; a figure named
            # the ridge's ("way above di 156 FLOP/byte ridge") is the ridge's
            ridge_named = bool(_RIDGE_FIGURE.search(window))
            ends = [m.start() for m in (_ROW_NAMED_ELSEWHERE.search(window), _BRACKET.search(window)) if m]
            window = window[:min(ends)] if ends else window
            for value, dim in quantities_in(window)[:1]:
                if dim is not Dim.INTENSITY or math.isclose(value, rows[row], rel_tol=0.1):
                    continue
                other = next((r for r, v in rows.items() if r != row and math.isclose(value, v, rel_tol=0.1)), None)
                if other is not None:
                    return (f"{format_quantity(value, dim)} is the {names[other]}'s intensity; the {names[row]}'s is"
                            f" {format_quantity(rows[row], Dim.INTENSITY)}")
                if math.isclose(value, ridge, rel_tol=0.05) and not ridge_named:  # "decode sits at about 156 FLOP/byte"
                    return (f"{format_quantity(value, dim)} is the ridge; the {names[row]}'s intensity is"
                            f" {format_quantity(rows[row], Dim.INTENSITY)}")
    return ""


_ROW_NAMED_ELSEWHERE = re.compile(r"\b(?:add|gemm|matmul|decode|ridge)\b")
_BRACKET = re.compile(r"[;()]")
_RIDGE_FIGURE = re.compile(r"\d[\d.,]*\s*(?:flops?\s?/\s?b(?:yte)?s?\s+)?(?:'?s\s+)?ridge\b")


# Where a paragraph says a figure is the drill's own: "the drill's A1 measurement shows", "A2 measured".
_DRILL_SAYS = re.compile(r"\b(?:the drill(?:'?s)?|a[1-8](?:'?s)?)\s+(?:own\s+)?(?:measurement|figure|number|data|result|table)s?\s+"
                         r"(?:shows?|says?|gives?|reports?|puts?)\b|\b(?:as )?the drill (?:shows?|says?|gives?|reports?|measured)\b")


# A speed-up said to be what fusion gives in general: the drill measures single cases, never an average.
_IN_GENERAL = re.compile(r"\b(?:on average|(?:the |an )?average|averages?|usually|typically|in general|generally|as a rule"
                         r"|normally|on the whole|in most cases|most of the time)\b")


def _averaged_speed_up(lowered: str) -> str:
    """Why a multiplier said as fusion's general win ("the drill says fused kernels give 5× on average") is wrong, or ""."""
    for clause in _CLAUSE_END.split(lowered):
        found = _MULTIPLIER.search(clause)
        if found and _IN_GENERAL.search(clause) and not NEGATION.search(clause):
            cases = ", ".join(f"{i.id.upper()}'s compile {speed:g}×" for i in drill.incidents()
                              if (speed := i.symptoms.observed.fused_speedup))
            return (f"{found[1]}× is said to be what fusion gives in general, but the drill measures cases, not an"
                    f" average ({cases})")
    return ""


_CLAUSE_END = re.compile(r"[.;!?]\s|,\s+(?:but|so|and|while|whereas)\s")


def _drill_numbers_check(paragraph: str, lowered: str) -> Check:
    """Part C's numbers: at least one from the drill; none in another unit than the drill's; none from nowhere."""
    ridge = drill.part_b()[0].placement.ridge
    wrong = (_said_of_an_incident_wrongly(paragraph, lowered) or _averaged_speed_up(lowered)
             or _row_figure_swapped(lowered, ridge)
             or claim_reader.ridge_wrong(lowered, ridge)
             or claim_reader.placed_wrong(lowered, ridge, (k.drill_intensity for k in drill.part_b())))
    if wrong:
        return Check(False, cap(wrong) + ("" if wrong.endswith(".") else "."))
    known = _part_c_known()
    cited = quantities_in(lowered)
    multipliers = {float(m[1]) for m in _MULTIPLIER.finditer(lowered)}
    numbers, misused, unknown = [], [], []
    for value, dim in cited:
        if dim is Dim.FLOP and value <= _SMALL_COUNT and float(value).is_integer():
            continue  # "the four ops merge": a count of operations in words, not a FLOP figure
        # A bare number is held to the drill's own (a derived share or change would match almost any count).
        # A figure with a unit is held to the drill's figures in that unit: a bare count of the drill's (A3's 32, A4's
        # context of 512) is no intensity of 33 or 500 FLOP/byte.
        # (a bare multiplier one step of arithmetic gives, written to its decimals: "1/0.7 = 1.43")
        pool = [*_drill_numbers(), *((r, Dim.COUNT) for r in _part_c_ratios() if not float(r).is_integer())] \
            if dim is Dim.COUNT else [k for k in known if k[1] is dim]
        # (a share within a few points of the drill's: 95% is no 98.9%, though within 5% of it)
        if any(same_quantity((value, dim), k, _PART_C_MATCH) and (
                dim is not Dim.FRACTION or abs(value - k[0]) <= claim_reader.SHARE_POINTS) for k in pool):
            numbers.append((value, dim))
            continue
        # the same number as written in another unit ("85 ms" of A2's 85%), not one equal only in SI ("0.01%" is no
        # 96 µs, though both are near 1e-4)
        other = next((k for k in known if k[1] not in (dim, Dim.COUNT) and dim is not Dim.COUNT
                      and math.isclose(value, k[0], rel_tol=_PART_C_MATCH)
                      and math.isclose(_as_shown(value, dim), _as_shown(*k), rel_tol=_PART_C_MATCH)), None)
        # the drill's digits with a power of ten lost or gained ("136 FLOP/byte"); a factor of 2 may be a what-if
        # ("double decode from 38 to 76 tok/s"), and digits that only come near are another figure
        slipped = next(((k, "a power of ten") for k in pool if dim in _SLIP_CHECKED and k[1] is dim
                        and _same_digits(value, k[0])), None)
        if other is not None:
            misused.append(f"{format_quantity(value, dim)} is not in the drill: its {format_quantity(*other)} is")
        elif slipped is not None:  # "the 4096 matmul at 136 FLOP/byte": the drill's 1,360 with a power of ten lost
            return Check(False, f"{format_quantity(value, dim)} is off the drill's {format_quantity(*slipped[0])} by"
                                f" {slipped[1]}.")
        elif not (dim is Dim.COUNT and value <= _SMALL_COUNT and float(value).is_integer()):
            unknown.append(format_quantity(value, dim))
        elif value in multipliers and not any(math.isclose(value, k, rel_tol=_PART_C_MATCH) for k in _part_c_ratios()):
            unknown.append(f"{format_quantity(value, dim)}×")  # "gained about 10×": a figure, not a count in words
    if misused:
        return Check(False, f"{cap(misused[0])}: a number used in another unit says something else.")
    # a figure from no part of the drill, said to be the drill's ("the drill's A1 measurement shows … 71% of peak")
    if unknown and (told := _DRILL_SAYS.search(lowered)):
        said = next((u for u in unknown if u.rstrip("×") in told.group() or u in lowered[told.end():told.end() + 120]),
                    None)
        if said is not None:
            return Check(False, f"{said} is presented as the drill's, but no part of the drill gives it.")
    unknown += [f"“{c}” (not a figure of the incident it is said of)" for c in _unplaced_of_incidents(lowered)]
    if not numbers:
        return Check(False, "Use at least one number from Part A or B, as the drill gives it or as you derived it"
                            + (": the numbers here are not from the drill." if cited else "."))
    if unknown:
        return unsure(f"✓ {format_quantity(*numbers[0])} is from the drill; not checked: {', '.join(unknown[:3])},"
                      " from no part of it")
    return Check(True, f"Uses a number from Part A or B ({format_quantity(*numbers[0])}).")


def _number_for_a_win_it_cannot_give(paragraph: str, of_incidents: list[FusionSaid]) -> Check | None:
    """A figure of a win claimed where fusion cannot give one, or None.

    "A1's matmul would also get A2's 3.8× once the relu is fused", "A3 got 3.8× from fusion": another incident's
    speed-up given to this one is a number used against its meaning. The incident's own figures of the win ("A1 at
    70% of peak would climb toward 100%", "claw back the missing 30%") are A1's, as the drill gives them: what is
    wrong there is where fusion is said to pay, the fusion check's to judge (so the learners who wrote the blind
    sets read it, ten labels in fourteen).
    """
    for said in of_incidents:
        if not said.pays or not _fusion_wrong_of(said, of_the_win=True):
            continue
        # a multiplier of the win after the incident's name ("the same 3.8× speed-up" of A3, whose compile bought
        # 1.08×); one before it is another subject's
        known = facts(said.incident).known
        named = INCIDENT_NAMED.search(said.clause)
        figures = [f"{m[1]}×" for m in _MULTIPLIER.finditer(said.clause, named.end() if named else 0) if not any(
            f.dim is Dim.COUNT and math.isclose(float(m[1]), f.value, rel_tol=_PART_C_MATCH) for f in known)]
        if figures:
            return Check(False, f"“{_as_written(paragraph, said.clause)}”: {figures[0]} is used for a win fusion cannot"
                                f" give {said.incident.upper()} ({_fusion_wrong_of(said)}).")
    return None


def grade_part_c(paragraph: str) -> dict[str, Any]:
    """Part C: a number from Part A or B, fusion itself, and both sides of the argument."""
    if not paragraph:
        return {"attempted": False, "checks": {}}
    lowered = with_units(paragraph)
    of_incidents = fusion_said_of_incidents(lowered)  # what the paragraph says fusion does for each incident named
    number = _number_for_a_win_it_cannot_give(paragraph, of_incidents) or _drill_numbers_check(paragraph, lowered)
    talks = bool(_FUSION_WORDS.search(lowered)) or any(m.lever in ("fusion", "compile") for m in mentions(lowered))
    fusion = _fusion_said(paragraph, lowered, talks, of_incidents)
    sides = _both_sides(paragraph, lowered, talks, of_incidents)
    return _item("part_c", {"number": number, "fusion": fusion, "both_sides": sides})


# --- the five criteria ------------------------------------------------------------------------------------------------

#: What the criteria say of an item another version saved, which is kept and not graded.
_KEPT = "saved by another version: kept, not graded"


def _regimes_criterion(items: dict[str, Any], kept: frozenset[str]) -> Check:
    untried = [i.id.upper() for i in drill.incidents() if not items[i.id]["attempted"] and i.id not in kept]
    aside = [i.id.upper() for i in drill.incidents() if not items[i.id]["attempted"] and i.id in kept]
    wrong = [i.id.upper() for i in drill.incidents()
             if items[i.id]["attempted"] and items[i.id]["checks"]["regime"]["passed"] is False]
    unread = [i.id.upper() for i in drill.incidents()
              if items[i.id]["attempted"] and items[i.id]["checks"]["regime"]["passed"] is None]
    parts = ([f"look again at {', '.join(wrong)}"] if wrong else []) + \
        ([f"not attempted yet: {', '.join(untried)}"] if untried else []) + \
        ([f"{', '.join(aside)} {_KEPT}"] if aside else [])
    if parts:
        return Check(False, cap("; ".join(parts)) + ".")
    if unread:
        return unsure(f"the grader could not read the regime of {', '.join(unread)}")
    return Check(True, f"All {len(items) - 2} regimes are right.")


def _refuses(attempt: Attempt, incident_id: str, what: str, kept: frozenset[str]) -> Check:
    entry = attempt.part_a.get(incident_id)
    name = incident_id.upper()
    if not entry:
        return Check(False, f"{name} {_KEPT}." if incident_id in kept else f"{name} is not attempted yet.")
    line = read_levers(entry.get("helps", ""))
    used = [i for i in line.offered if i in _REFUSED_FIX[incident_id][0]]
    if used:
        return Check(False, f"{name}'s lever that helps is {phrases(used)}, which cannot move this kernel: look at"
                            " what sets its time.")
    if not line.offered and entry.get("helps", "").strip():
        return unsure(f"the grader could not read {name}'s lever that helps")
    return Check(True, f"{name}: {what} is not offered as the fix.")


def _criteria(attempt: Attempt, items: dict[str, Any], kept: frozenset[str]) -> list[Check]:
    ridge = drill.part_b()[0].placement.ridge
    if attempt.ridge_unread:
        four = unsure("the grader could not read the ridge you wrote")
    elif attempt.ridge is None:
        four = Check(False, "The ridge is not computed yet.")
    elif _close(attempt.ridge, [ridge], RIDGE_TOLERANCE):
        four = Check(True, f"Ridge {format_quantity(attempt.ridge, Dim.INTENSITY)}, within {RIDGE_TOLERANCE:.0%}.")
    else:
        four = Check(False, f"Ridge {format_quantity(attempt.ridge, Dim.INTENSITY)} is off by more than"
                            f" {RIDGE_TOLERANCE:.0%}: peak FLOP/s ÷ peak bytes/s.")
    decode, matmul = attempt.kernels.get("decode"), attempt.kernels.get("matmul")
    if any(k and "side" in dict(k.unread) for k in (decode, matmul)):
        five = unsure("the grader could not read the side you gave decode or the 4096 matmul")
    elif not (decode and decode.side) or not (matmul and matmul.side):
        five = Check(False, "Decode and the 4096 matmul are not placed yet.")
    elif decode.side == "below" and matmul.side == "above":
        five = Check(True, "Decode below and the 4096 matmul above the ridge.")
    else:
        five = Check(False, "Look again at which side of the ridge decode and the 4096 matmul sit: compare each"
                            " intensity with the ridge.")
    refusals = [_refuses(attempt, item, what, kept) for item, (_, what) in _REFUSED_FIX.items()]
    return [_regimes_criterion(items, kept), *refusals, four, five]


#: How the page names each item beside its lines ("A7", "Part B"), and the anchor it links to.
_ITEM_NAMES = {**{i.id: (i.id.upper(), i.id) for i in drill.incidents()},
               "part_b": ("Part B", "part-b"), "part_c": ("Part C", "part-c")}


def open_lines(items: dict[str, Any]) -> list[dict[str, Any]]:
    """Each attempted item with lines not passed yet: its name, its anchor, those lines' labels, in page order.

    A write-up can pass the five criteria with a line still wrong or empty (A7's evidence, A8's lever):
    this is what to look at beside the verdict.
    """
    out = []
    for key, (name, anchor) in _ITEM_NAMES.items():
        item = items.get(key, {})
        labels = [c["label"] for c in item.get("checks", {}).values() if c["passed"] is not True]
        if item.get("attempted") and labels:
            out.append({"item": key, "name": name, "anchor": anchor, "labels": labels, "passed": item["passed"]})
    return out


def grade(raw: object, kept: Collection[str] = ()) -> dict[str, Any]:
    """Grade an attempt object; a RegimeError names the first bad field.

    ``kept`` names the items (``a3``, ``part_b``) that were saved by another version and set aside: the
    criteria say so of them, rather than "not attempted yet".
    """
    attempt = parse_attempt(raw)
    items: dict[str, Any] = {i.id: grade_incident(i.id, attempt.part_a.get(i.id)) for i in drill.incidents()}
    items["part_b"] = grade_part_b(attempt)
    items["part_c"] = grade_part_c(attempt.part_c)
    criteria = _criteria(attempt, items, frozenset(kept))
    return {
        "passed": verdict_of(criteria),
        "criteria": [{"id": n, "text": text, **c.to_json()}
                     for n, (text, c) in enumerate(zip(CRITERIA, criteria, strict=True), start=1)],
        "items": items,
        "open": open_lines(items),
    }
