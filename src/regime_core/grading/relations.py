"""What an incident states of its parts, as data, and the readings that hold a line to it in any words.

Each incident's ``grading`` in drill.json may name its ``entities`` (a name, and the words learners use for it:
``"compiled": ["compiled", "torch.compile", "inductor"]``) and its ``relations``, each of one kind:

- ``faster``: ``{"fast": E, "slow": E, "by": x}``: the same work runs ``x``× faster as ``fast`` than as ``slow``.
  Said the other way round ("eager's 3.8× quicker", "compiled came out slower"), a time for ``fast`` longer than
  the time given for ``slow``, or ``fast`` said to buy nothing, is a contradiction.
- ``unchanged``: ``{"what": E}``: ``what`` is the same before and after; said to have got slower, longer, heavier
  or to do more math, it is a contradiction.
- ``limit``: ``{"what": E}``: ``what`` is the resource that holds the time; said to be fine, no problem, idle, far
  from its peak, or not what limits, it is a contradiction.
- ``not_limit``: ``{"what": E}``: ``what`` is not what holds the time; said to be most of the time, the bottleneck,
  saturated or flat out, it is a contradiction.
- ``measured``: ``{"figure": "1.7 TB/s", "of": E, "not_of": [E, ...]}``: the incident measures ``figure`` of ``of``;
  given to one of ``not_of`` ("compiled gets 1.7 TB/s", "each token takes 180 ms"), it is a contradiction.

A ``faster`` relation may also give ``"slow_time"`` (``"12 µs"``): a time the line gives either side is then held to
it (the slow side's within 15%, the fast side's between ``slow_time ÷ by`` less 15% and ``slow_time``), and any
relation may give its own ``"why"``, the line of feedback.

The readings are generic: an entity's words and one of a few forms per kind, so a new phrasing of the same claim
about another incident is read without a new pattern. A clause the learner denies ("eager is not faster"), puts as
a condition ("eager gets faster once compiled") or sets beside another ("compiled, unlike eager, ...") does not
count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from regime_core.catalogue.quantity import Dim, quantities_in
from regime_core.errors import RegimeError
from regime_core.grading.language import NEGATION, negated

_KINDS = ("faster", "unchanged", "limit", "not_limit", "measured")
_FIELD = "drill.json grading.relations"

# A few words between an entity and what is said of it, never across "than" (the other side of a comparison).
_GAP = r"(?:'s|s)?(?:\s+(?!than\b|if\b|when\b|unless\b)[\w()'-]+(?:\.[\w()'-]+)*){0,4}?\s+"
# Between a resource and what is said of it, only a word that leaves it the subject ("the tensor cores are still fine").
_ADVERB = r"(?:'s|s)?(?:\s+(?:still|really|now|all|themselves|itself|here|already|just|basically|clearly|obviously))?\s+"
_VERB = r"(?:is|was|are|were|'s|runs?|ran|got|gets|came out|comes out|ends? up|turned out|finishes|finished)\s+"
_MULTIPLE = r"(?:~\s?|≈\s?|about\s+)?\d+(?:\.\d+)?\s?(?:×|%)\s*"
# Said of the entity: a condition that changes it ("eager gets faster once compiled"), or the entity as the object
# of a comparison or a change ("compile makes eager faster", "3.8× over eager").
# ("grew by 6 ms" is the change's size, no condition)
_CONDITION_AFTER = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:under|with|once|when|after|if|by(?!\s+(?:about\s+|~\s?|≈\s?)?\d)|via"
                              r"|using|through|thanks to)\b")
_OBJECT_BEFORE = re.compile(r"\b(?:than|makes?|made|making|over|vs\.?|versus|compared (?:to|with)|relative to|from|beats?"
                            r"|unlike|if|would|were|unless|turns?|turned)\b[^.;:!?]*$")
_CLAUSE_START = re.compile(r"[.;:!?\n]|,\s|\b(?:but|whereas|while|and|so)\b")
_HEDGED = re.compile(r"\b(?:almost|nearly|next to|virtually|practically|basically|essentially|little more than|hardly"
                     r"|barely|all but|pretty much|effectively)\b")
# A figure between an entity and a time, other than a multiplier ("compiled is 1.08× of that, ~13 µs"), or an operator
# ("4 eager launches × ~3 µs"), makes the time another quantity's.
_OTHER_FIGURE = re.compile(r"\d(?![\d.]*\s?×)|(?<![\d.\s])\s?[×*/]|\b(?:per|each|a piece)\b")
_WHAT_IF_NEAR = re.compile(r"\b(?:would|could|might|if|were)\b|'d\b")
_FIGURE_REACH = 40  # characters after an entity in which its figure is looked for
# A figure said as a difference, not as a side's own: "saves … under 1 µs", "~0.9 µs off it", "(~0.9 µs saved)".
_DIFFERENCE_BEFORE = re.compile(r"\b(?:sav\w*|cut\w*|shav\w*|gain\w*|win\w*|by|off|less|trims?|knocks?)\b")
_DIFFERENCE_AFTER = re.compile(r"[\d.,]*\s?[a-zµ/]*\s*(?:saved|off\b|less\b|faster|quicker|shorter|better|gained|sooner"
                               r"|of (?:saving|difference|gain))")
# A time said at a bandwidth is a floor, bytes ÷ bandwidth, not the side's measured time ("eight eager passes,
# ~0.13 µs at 2 TB/s").
_FLOOR_AFTER = re.compile(r"\s*(?:at|@|over|across|on)\s+(?:~\s?|≈\s?|about\s+)?[\d.]+\s?[kmgtp]?b/s", re.IGNORECASE)
_FIGURE_WRITTEN = re.compile(r"[\d.,]*\s?[a-zµ]*")  # a figure and its unit ("0.13 µs"): matches from any digit
_COMPARED_BEFORE = re.compile(r"\b(?:than|dan|over|vs\.?|versus|compared (?:to|with)|against)\s+(?:the\s+)?$")
_NOUN_REACH = 16  # characters after a figure in which its own noun is looked for
_SAVED_SLACK = 0.5  # a saving said beside a multiplier ("≈0.9 µs", "under 1 µs"): roughly
_TIME_SLACK = 0.15  # a time said of a side, against the incident's ("~12 µs"): its "~" allows this much
_SAME = 0.03  # a figure the same as the incident's, as written with a rounding


@dataclass(frozen=True)
class Figure:
    """A figure a line may give one side, read after the side's words: wrong inside ``[low, high]`` or outside it."""

    side: re.Pattern[str]
    others: re.Pattern[str]  # the other sides' words: a figure after them is theirs
    dim: Dim
    low: float
    high: float
    wrong_inside: bool  # the figure of another side, given to this one; else a range this side's figure keeps to
    why: str
    also: tuple[float, float] | None = None  # another range a figure of this side may keep to (what it saves)

    def wrong_in(self, text: str) -> bool:
        """Whether ``text`` gives this side a figure that is wrong by the incident."""
        for found in self.side.finditer(text):
            if _COMPARED_BEFORE.search(text[max(0, found.start() - 24):found.start()]):  # "slower than compile, at …"
                continue
            figure = _figure_after(text, found.end(), self.others, self.dim, across_commas=not self.wrong_inside)
            if figure is None:
                continue
            if self.wrong_inside and _WHAT_IF_NEAR.search(text, found.end(), found.end() + _FIGURE_REACH + 20):
                continue  # "eager at 1.7 TB/s would move its 262 KB in 0.15 µs": a what-if, said as one
            inside = self.low <= figure <= self.high or (self.also is not None and self.also[0] <= figure <= self.also[1])
            if inside == self.wrong_inside:
                return True
        return False


@dataclass(frozen=True)
class Relation:
    """One stated relation, with the patterns that say its opposite and the feedback that says what is so."""

    kind: str
    says_against: tuple[re.Pattern[str], ...]
    why: str
    fast: re.Pattern[str] | None = None  # for ``faster``: the two sides' words, to compare their times
    slow: re.Pattern[str] | None = None
    figures: tuple[Figure, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise RegimeError(_FIELD, f"a relation's kind is one of {', '.join(_KINDS)}, not {self.kind!r}")

    def against(self, lowered: str) -> str:
        """The feedback where ``lowered`` (normalised) says the opposite of this relation, in any of its forms, or ""."""
        if any(_said(lowered, found, self.kind) for p in self.says_against for found in p.finditer(lowered)):
            return self.why
        if wrong := next((f.why for f in self.figures if f.wrong_in(lowered)), ""):
            return wrong
        return self.why if self.kind == "faster" and _times_reversed(self, lowered) else ""


def _words(entities: dict[str, list[str]], name: str) -> str:
    if name not in entities or not entities[name]:
        raise RegimeError(_FIELD, f"a relation names {name!r}, which the incident's entities do not list")
    return r"(?<!\w)(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in entities[name]) + r")(?!\w)(?!\s+intensit)"  # "arithmetic intensity" is no resource


def _faster(entities: dict[str, list[str]], spec: dict[str, Any]) -> Relation:
    fast, slow, by = _words(entities, spec["fast"]), _words(entities, spec["slow"]), float(spec["by"])
    quicker = r"(?:faster|quicker|speedier)\b"
    slower = r"(?:slower|worse)\b"
    patterns = (
        rf"{slow}{_GAP}{_VERB}(?:\w+\s+)?(?:{_MULTIPLE})?{quicker}", rf"{slow}(?:'s)?\s+(?:{_MULTIPLE})?{quicker}",
        rf"{fast}{_GAP}{_VERB}(?:\w+\s+)?(?:{_MULTIPLE})?{slower}", rf"{fast}(?:'s)?\s+(?:{_MULTIPLE})?{slower}",
        # "the compiled version is the slow one", "eager is the quick one", "compiled, 3.8× behind eager"
        rf"{fast}{_GAP}{_VERB}(?:the\s+)?(?:slow|slower|slowest)\s+one\b",
        rf"{slow}{_GAP}{_VERB}(?:the\s+)?(?:fast|faster|fastest|quick|quicker|quickest)\s+one\b",
        rf"{fast}{_GAP}(?:{_MULTIPLE})behind\s+(?:the\s+)?{slow}", rf"{slow}{_GAP}(?:{_MULTIPLE})ahead of\s+(?:the\s+)?{fast}",
        rf"{fast}{_GAP}(?:gives?|gave|buys?|bought|brings?|brought|wins?|won|gains?|gained|yields?|does|did|changes?"
        rf"|changed|achieves?|achieved|delivers?|delivered)\s+(?:absolutely\s+|literally\s+)?(?:nothing|zero|no"
        rf" (?:speed-?up|gain|difference|improvement|change|win)s?)\b",
    )
    name_fast, name_slow = spec["fast"], spec["slow"]
    why = spec.get("why") or (f"The incident says the other way round: {name_fast} runs the same work {by:g}× faster"
                              f" than {name_slow}" + (" (a small win, but not none)." if by < 1.5 else "."))
    fast_words, slow_words = re.compile(fast, re.IGNORECASE), re.compile(slow, re.IGNORECASE)
    figures: tuple[Figure, ...] = ()
    if "slow_time" in spec:
        value, dim = _quantity(spec["slow_time"])
        said = spec.get("why_time") or (f"The incident measures {name_slow} at {spec['slow_time']} and {name_fast}"
                                         f" {by:g}× faster, about {value / by * 1e6:.3g} µs.")
        saved = value - value / by  # "compile's 1.08× (≈0.9 µs)": what it saves, said beside its multiplier
        figures = (Figure(slow_words, fast_words, dim, value * (1 - _TIME_SLACK), value * (1 + _TIME_SLACK), False, said),
                   Figure(fast_words, slow_words, dim, value / by * (1 - _TIME_SLACK), value, False, said,
                          (saved * (1 - _SAVED_SLACK), saved * (1 + _SAVED_SLACK))))
    return Relation("faster", tuple(re.compile(p, re.IGNORECASE) for p in patterns), why, fast_words, slow_words,
                    figures)


_MORE_WORK = r"(?:[\d.]+\s?%\s+|~?[\d.]+\s?×\s+)?more\s+(?:math|flops|compute|arithmetic|work|tensor[- ]core work)\b"


def _unchanged(entities: dict[str, list[str]], spec: dict[str, Any]) -> Relation:
    what = _words(entities, spec["what"])
    worse = r"(?:slower|slow|longer|heavier|worse|regressed|changed|different|costlier|more expensive|bigger)\b"
    patterns = (
        rf"{what}{_GAP}(?:{_VERB}|now\s+|became\s+|become\s+|went\s+|go\s+)(?:\w+\s+)?(?:{_MULTIPLE}|~?[\d.]+\s?ms\s+)?"
        rf"{worse}",
        rf"{what}{_GAP}(?:slowed|regressed|grew|doubled)\b", rf"\b(?:slower|heavier|regressed)\s+{what}",
        # "matmul and attention time went from 8 to 14 ms": the step's change given to them
        rf"{what}(?:\s+(?:time|times|kernels?))?\s+(?:went|rose|grew|jumped|increased|climbed)\s+(?:up\s+)?from\s+~?[\d.]+",
        # "the matmul and attention must be taking 6 ms longer"
        rf"{what}{_GAP}(?:taking|take|takes|took|spending|spend|spends|spent)\s+(?:(?:~\s?|about\s+)?[\d.]+\s?(?:ms|µs)\s+)?"
        rf"(?:longer|more)\b",
        rf"\b(?:doing|does|do|did|run|runs|ran|running|execut\w*|perform\w*)\s+(?:\w+\s+)?{_MORE_WORK}",
    )
    why = f"The incident says {spec['what']} are unchanged: the time that was added is not theirs."
    return Relation("unchanged", tuple(re.compile(p, re.IGNORECASE) for p in patterns), why)


def _limit(entities: dict[str, list[str]], spec: dict[str, Any]) -> Relation:
    what = _words(entities, spec["what"])
    fine = (r"(?:fine|ok|okay|good enough|no (?:problem|issue|bottleneck|concern)|not (?:the |a |an )?(?:problem|issue"
            r"|bottleneck|limit\w*|constraint|concern)|not limiting|irrelevant|beside the point|idle|underused"
            r"|under-used|far from (?:its |the )?(?:peak|roof|limit))\b")
    patterns = (
        rf"{what}(?:{_ADVERB}(?:is|are|was|were|stays?|remains?|looks?|seems?)|'s)\s+(?:\w+\s+)?{fine}",
        rf"\b(?:not|never|isn't|aren't|wasn't|n't)\s+(?:\w+\s+)?(?:limited|held|bound|bottlenecked|capped|throttled)"
        rf"\s+(?:back\s+)?by\s+(?:the\s+)?(?:\w+\s+)?{what}",
        # "memory cannot be the limit", "bandwidth isn't what limits it"
        rf"{what}\s+(?:cannot|can'?t|could\s?n'?t|could not|can not|isn'?t|is not|ain'?t)\s+(?:possibly\s+)?(?:be\s+)?"
        rf"(?:the\s+)?(?:{_LIMIT_NOUN}|what (?:limits|holds|sets|decides))\b",
        # Another thing named the limit, this one set aside: "that's the bottleneck, not HBM", "the limit is X, not Y".
        rf"\b{_LIMIT_NOUN}\b(?:\s+(?:here|now|then))?(?:\s+(?:is|was|=|:)\s+[\w\s.'-]{{1,40}}?)?\s*,?\s+(?:and\s+|but\s+)?"
        rf"not\s+(?:the\s+)?{what}(?!\s+(?:alone|only|just))",
    )
    why = spec.get("why") or f"The incident says what holds the time is {spec['what']}: the roof this kernel sits against."
    return Relation("limit", tuple(re.compile(p, re.IGNORECASE) for p in patterns), why)


# What a line calls the thing that holds the time, and the words that may come between it and what it names.
_LIMIT_NOUN = (r"(?:bottleneck|limiter|limit|limiting factor|culprit|constraint|binding constraint|choke\s?point"
               r"|(?:real\s+)?problem)")
_FIRST = r"(?:real|main|true|actual|biggest|key|primary|only|chief|dominant)"
_FILLER = r"(?:(?:the|its|really|actually|still|just|clearly|obviously|simply)\s+){0,2}"
_LARGE = r"(?:big|bigger|major|large|larger|significant|huge|main|real|sizable|sizeable|substantial|good)"
# A resource said to be waiting or empty ("mostly the gpu sitting idle") is not said to hold the time.
_NOT_STATE = r"(?![-\w])(?!\s+(?:\w+\s+)?(?:idle|wait\w*|sitting|starv\w*|stall\w*|empty|unused|doing nothing))"


def _not_limit(entities: dict[str, list[str]], spec: dict[str, Any]) -> Relation:
    what = _words(entities, spec["what"])
    holds = (r"(?:(?:most|the bulk|the majority|nearly all|almost all|all) of the (?:time|step|request|runtime|latency"
             r"|wall(?:[- ]?clock)?)|the (?:main\s+)?(?:bottleneck|problem|limit\w*|culprit|constraint|limiting factor)"
             r"|what (?:limits|holds|sets|decides)|saturated|flat out|maxed(?: out)?|pegged|fully (?:busy|used|utili[sz]ed)"
             r"|(?:running|working) flat out|at (?:its |the )?(?:limit|peak|roof))\b")
    patterns = (
        rf"{what}(?:{_ADVERB}(?:is|are|was|were)|'s|{_ADVERB}(?:take|takes|took|make up|makes up|eat|eats))\s+"
        rf"(?:\w+\s+)?{holds}",
        rf"{what}{_GAP}dominat\w*",
        rf"\b(?:limited|held back|bound|bottlenecked|capped|throttled)\s+by\s+(?:the\s+)?(?:\w+\s+)?{what}",
        # Kept at its limit by something: "the kernels are keeping the card flat out".
        rf"\b(?:keep\w*|kept|driv\w*|push\w*)\s+(?:the\s+)?{what}\s+(?:\w+\s+)?(?:flat out|saturated|maxed(?: out)?"
        rf"|pegged|fully (?:busy|used|utili[sz]ed)|at (?:its |the )?(?:limit|peak|roof))",
        # The limit named first: "the real limiter is occupancy", "the bottleneck here: launch latency".
        rf"\bthe\s+(?:{_FIRST}\s+)?{_LIMIT_NOUN}\s+(?:here\s+|now\s+|then\s+)?(?:is|was|=|:)\s+{_FILLER}{what}",
        # Most of the time said to be it: "most of the 180 ms is host-side tokenising and scheduling".
        rf"\b(?:most|the bulk|the majority|nearly all|almost all) of the (?:[\d.,]+\s?(?:ms|µs|s)\s+|time\s+|step\s+"
        rf"|ttft\s+|latency\s+|wall(?:[- ]?clock)?\s+)?(?:is|are|was|goes (?:to|on)|is spent (?:on|in))\s+(?:\w+\s+)?"
        rf"{what}{_NOT_STATE}",
        # The time said to be made of it: "the 180 ms ttft is mostly launch and scheduling latency".
        rf"\b(?:is|'s|are|was|were)\s+(?:mostly|mainly|largely|primarily|predominantly|dominated by|chiefly)\s+"
        rf"(?:the\s+)?{what}{_NOT_STATE}",
        # A large part of the cost: "the arithmetic is also a big part of the cost".
        rf"{what}{_ADVERB}(?:is|are|was|were)\s+(?:also\s+|still\s+)?(?:a|the)\s+{_LARGE}\s+(?:part|share|chunk"
        rf"|fraction|portion|slice|piece)\s+of\s+(?:the\s+|its\s+)?(?:cost|time|step|runtime|latency|bill|work)\b",
        # The time spent on it: "wasting time on the arithmetic" (Kriol "wastin time pan di arithmetic").
        rf"\b(?:wast\w*|spend\w*|spent|burn\w*)\s+(?:its\s+|the\s+|their\s+|(?:most|all)\s+(?:of\s+)?(?:its|the|their)\s+)?"
        rf"time\s+(?:on|in|pan|doing|over)\s+(?:the\s+)?{what}{_NOT_STATE}",
    )
    why = spec.get("why") or f"The incident says it is not {spec['what']} that holds the time here."
    return Relation("not_limit", tuple(re.compile(p, re.IGNORECASE) for p in patterns), why)


def _measured(entities: dict[str, list[str]], spec: dict[str, Any]) -> Relation:
    value, dim = _quantity(spec["figure"])
    own = _words(entities, spec["of"])
    wrong_sides = [_words(entities, name) for name in spec["not_of"]]
    every = re.compile("|".join([own, *wrong_sides]), re.IGNORECASE)
    why = spec.get("why") or f"The incident measures {spec['figure']} of {spec['of']}, not of {spec['not_of'][0]}."
    figures = tuple(Figure(re.compile(side, re.IGNORECASE), every, dim, value * (1 - _SAME), value * (1 + _SAME), True,
                           why) for side in wrong_sides)
    return Relation("measured", (), why, figures=figures)


_BUILDERS = {"faster": _faster, "unchanged": _unchanged, "limit": _limit, "not_limit": _not_limit,
             "measured": _measured}


def _quantity(written: str) -> tuple[float, Dim]:
    found = quantities_in(written)
    if len(found) != 1:
        raise RegimeError(_FIELD, f"a relation's figure is one quantity with its unit, such as '12 µs'; not {written!r}")
    return found[0]


def relations(grading: dict[str, Any]) -> tuple[Relation, ...]:
    """An incident's stated relations, built from its ``grading`` entry."""
    entities = grading.get("entities", {})
    built = []
    for spec in grading.get("relations", []):
        kind = spec.get("kind")
        if kind not in _BUILDERS:
            raise RegimeError(_FIELD, f"a relation's kind is one of {', '.join(_KINDS)}, not {kind!r}")
        built.append(_BUILDERS[kind](entities, spec))
    return tuple(built)


def _clause_before(text: str, start: int) -> str:
    ends = [m.end() for m in _CLAUSE_START.finditer(text, 0, start)]
    return text[ends[-1] if ends else 0:start]


def _said(text: str, found: re.Match[str], kind: str) -> bool:
    """Whether a match states the opposite of the relation, rather than denying it or putting it as a condition."""
    before = _clause_before(text, found.start())
    if _OBJECT_BEFORE.search(before) or _HEDGED.search(before) or _HEDGED.search(found.group()):
        return False
    if kind == "limit":  # its forms carry their own "not": only a denial before the match counts
        return not re.search(r"\b(?:not|never|no)\b|n't", before)
    if _CONDITION_AFTER.match(text, found.end()) or NEGATION.search(found.group()):
        return False
    if re.search(r"\b(?:not|never|no|cannot)\b|n't", " ".join(text[:found.start()].split()[-3:])):
        return False  # "the launches can't keep the card flat out"
    # a denial after the match counts only inside its clause ("… flat out, and the host can't feed it" denies nothing)
    closes = _CLAUSE_START.search(text, found.end())
    return not negated(text[:closes.start()] if closes else text, found.start(), found.end())


def _figure_after(text: str, end: int, others: re.Pattern[str], dim: Dim, *, across_commas: bool) -> float | None:
    """The first figure of ``dim`` said of the side that ends at ``end``, before another side or the clause ends.

    A figure said as a difference ("the fused version saves a few launches, under 1 µs") is not the side's.
    """
    window = text[end:end + _FIGURE_REACH]
    stop = re.search(r"[;:!?\n]|\.(?=\s|$)|\bthan\b" + ("" if across_commas else r"|,"), window)
    other = others.search(window)
    cut = min([m.start() for m in (stop, other) if m] or [len(window)])
    for digit in re.finditer(r"(?<![\w.,])\d", window[:cut]):  # not a name's digit ("a2s")
        if _OTHER_FIGURE.search(window[:digit.start()]):  # "eager's 8 passes are ~262 KB, ≈ 0.13 µs": a floor
            return None
        if re.match(r"[\d.,]*\s?×", window[digit.start():]):  # a multiplier on the way ("1.08× of that, ~13 µs")
            continue
        found = quantities_in(window[digit.start():cut])
        if found and found[0][1] == dim:
            if _DIFFERENCE_BEFORE.search(window[:digit.start()]):
                return None
            after = text[end + digit.end():end + digit.end() + _NOUN_REACH]
            written = _FIGURE_WRITTEN.match(window, digit.start())
            figure_end = end + (written.end() if written else digit.end())
            if _DIFFERENCE_AFTER.match(after) or _FLOOR_AFTER.match(text, figure_end):
                return None
            return None if others.search(after) else found[0][0]  # "kernels with 8 µs gaps": the gaps' figure
        return None
    return None


def _times_reversed(relation: Relation, text: str) -> bool:
    """Whether the line gives the faster side a longer time than the slower ("eager ~12 µs, compiled ~13 µs")."""
    if relation.fast is None or relation.slow is None:
        return False
    fast = [t for m in relation.fast.finditer(text)
            if (t := _figure_after(text, m.end(), relation.slow, Dim.SECOND, across_commas=True)) is not None]
    slow = [t for m in relation.slow.finditer(text)
            if (t := _figure_after(text, m.end(), relation.fast, Dim.SECOND, across_commas=True)) is not None]
    return bool(fast and slow) and min(fast) > max(slow) * 1.001


