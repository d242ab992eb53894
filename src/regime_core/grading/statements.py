"""What a line says in words of the incident's parts, and which of those statements nothing here could read.

A line's figures are claims (``claims.judge``). The rest of it may state things too: "the HBM is saturated", "the
kernels did not change", "the gaps are the GPU still crunching". A *statement* is a clause with no figure in it that
names a resource or a part of the incident: any entity of any incident in drill.json (``grading.entities``: the
tensor cores, memory bandwidth, launch overhead, the gaps, the host sync, …) or the ridge. A statement is *read*
when one of these accounts for it:

- it says of an entity of this incident what the incident's relation says of it: a ``limit`` saturated, the
  bottleneck, flat out, holding the time; a ``not_limit`` idle, waiting, fine, not the problem; an ``unchanged``
  one unchanged; the ``faster`` side faster or the slower side slower;
- it names the incident's regime, or denies another;
- it puts the kernel on the side of the ridge the incident's facts put it;
- it holds one of the incident's stated facts (``grading.facts``) or one of the true statements its grading lists
  (``grading.statements``: phrases such as "reads once" that say how the incident works, read but not citing it);
- it is put as a condition ("if it were compute-bound, …"): an argument's step, not a statement about this incident.

A statement read by none of these is *unread*: the evidence check names it as not checked and does not pass the line.
A statement that says the opposite of the incident is not this module's to judge: the relations and the other
readings of the evidence check find it first, and the line is wrong before its unread statements are asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from regime_core.grading.language import negated

# Where a statement ends: the clause marks a learner writes between two things said.
# A bracket or an "and" stays inside: "a perfect kernel (100% of peak) gets only to ~112 ms" is one statement, its
# figures the claims'.
_CLAUSE = re.compile(r"[;!?—–\n•]|:\s|\.(?=\s|$)|,\s|\s-\s|\b(?:but|whereas|while|because|since|so|which|thus|hence"
                     r"|therefore|meaning|i\.e\.)\b")
_FIGURE = re.compile(r"\d")
# A condition or a prediction: what a change would do is the levers' to judge, not a statement of the incident.
_CONDITION = re.compile(r"\b(?:if|unless|would|could|might|were it|had it|whether|suppose|imagine|assuming|will|won't"
                        r"|wouldn't|can|can't|cannot)\b|'d\b")
_RIDGE = re.compile(r"\bridge\b")
_ABOVE = re.compile(r"\b(?:above|over|past|beyond|right of|(?:more|bigger|greater|larger|higher) than|compute side"
                    r"|compute half)\b")
_BELOW = re.compile(r"\b(?:below|under|beneath|left of|(?:less|smaller|lower) than|short of|memory side|bandwidth side)\b")
# Every incident placed against the ridge sits far from it, on its side: "nowhere near the ridge" is so of each.
_FAR = re.compile(r"\b(?:nowhere near|far from|miles from|a long way from|way off)\s+(?:the\s+|any\s+|a\s+)?ridge\b")

# What holds the time, said of a resource.
_HOLDS = (r"(?:saturat\w*|bound|limit\w*|bottleneck\w*|binding|flat[- ]out|maxed(?:[- ]out)?|pegged|full|busy|fully"
          r" (?:busy|used|utili[sz]ed)|working hard|at (?:its |the )?(?:limit|peak|roof|ceiling|max\w*)|near (?:its |the )?"
          r"(?:limit|peak|roof|ceiling|max\w*)|close to (?:its |the )?(?:limit|peak|roof|ceiling)|dominat\w*|hold\w*|sets?"
          r" the (?:pace|time)|decides?|(?:takes?|eats?) most of (?:the|each|every) (?:time|step|token|request)|the (?:main |real |whole )?(?:limit\w*|bottleneck|problem|constraint|cost|story)"
          r"|the wall|what (?:limits|holds|sets|decides)|capped|throttled|starv\w* (?:the|it)|eat\w* the time"
          r"|(?:most|all|the bulk) of the (?:time|step|cost)"
          # "the tensor cores are doing the work", "tensor cores are well fed", "the tensor cores are working"
          r"|doing (?:the|all the|most of the) work|well[- ]fed|working(?!\s+(?:on|around|out)))")
_HELD_BY = r"(?:limited|held(?: back)?|bound|bottlenecked|capped|throttled|set|decided|dominated|gated|paced)\s+by"
# What does not hold the time, said of a resource.
_SPARE = (r"(?:idle|idling|wait\w*|sitting|starv\w*|stall\w*|empty|unused|underused|under-used|bored|fine|ok|okay"
          r"|irrelevant|innocent|not (?:the |a |an )?(?:\w+ )?(?:limit\w*|bottleneck|problem|issue|constraint|culprit|cause)"
          r"|not (?:limit\w*|saturated|busy|bound|binding|the story)|far from (?:its |the )?(?:peak|roof|limit)"
          r"|doing (?:nothing|little)|has (?:room|headroom|slack)|with (?:room|headroom|slack)|to spare|underutili[sz]ed)")
_UNCHANGED = (r"(?:unchanged|untouched|unaffected|(?:the )?same|identical|constant|flat|steady|stable|did ?n[o']t change"
              r"|didn'?t change|do(?:es)? ?n[o']t change|never changed|not changed|ent change|haven'?t changed"
              r"|did not move|didn'?t move|no change|as before|don'?t change)")
_QUICKER = r"(?:faster|quicker|speedier|wins?|ahead|better)"
_SLOWER = r"(?:slower|behind|worse|loses?)"
# Denied of a resource that does not hold the time: "occupancy isn't a regime", "the kernels are not the cause".
_DENIED = r"(?:isn'?t|aren'?t|int|ain'?t|is not|are not|was not|were not|not|never|≠|doesn'?t|does not|don'?t|do not" \
          r"|decides? nothing|says? nothing|tells? (?:you |us )?nothing|no longer)\b"
# A regime denied by name: "not compute", "neither memory nor compute", "⇒ not mem/compute".
_REGIME_WORDS = {"compute": r"compute|math|arithmetic|flops?|tensor cores?|alus?", "memory": r"memory|mem|bandwidth|hbm|bytes"
                 r"|traffic", "overhead": r"launch\w*|overhead|host|cpu|python"}
_NOT_BEFORE = r"\b(?:not|neither|nor|no|isn'?t|aren'?t|never|nowhere near|far from)\s+(?:[\w/-]+\s+){0,3}?(?:[\w-]+/)?"
# Each regime's words, and the same words denied: compiled once.
_REGIME_SAID = {regime: (re.compile(rf"\b(?:{words})"), re.compile(_NOT_BEFORE + rf"(?:{words})\b"))
                for regime, words in _REGIME_WORDS.items()}
# Words that say nothing by themselves: a clause of these and a resource's name states nothing ("eager and compiled").
_EMPTY = frozenset(["a", "an", "the", "of", "to", "in", "on", "at", "for", "from", "by", "with", "and", "or", "but",
                    "so", "as", "is", "are", "was", "were", "be", "it", "its", "this", "that", "these", "those",
                    "both", "either", "alike", "each", "every", "all", "one", "two", "yet", "also", "too", "still",
                    "then", "than", "versus", "vs", "per", "token", "tokens", "step", "steps", "time", "times",
                    "side", "case", "here", "there", "just", "only", "even", "same", "while", "whereas", "though",
                    "although", "because", "since", "which", "thus", "hence", "therefore", "meaning", "not", "no",
                    "never", "nor", "neither"])
# A figure's label ("gpu_busy_pct: 80", "eager µs = 12"), or a task named before a comma ("tuning the kernels, …").
_LABEL_AFTER = re.compile(r"\s*(?::|=)\s*[~≈]?\s*\d")
_TOPIC = re.compile(r"^\W*[a-z]+ing\s+(?:the\s+|its\s+|a\s+|an\s+)?[\w-]+\W*$")
# A formula in words ("bytes ÷ bandwidth", "FLOPs / bytes"): the working's label, nothing stated.
_FORMULA = re.compile(r"^\W*[a-z][a-z\s-]{0,30}?\s*[÷/×*]\s*[a-z][a-z\s-]{0,30}?\W*$")
# A regime ruled out in so many words: "memory-bound is ruled out".
_RULED_OUT = re.compile(r"\b(?:ruled out|excluded|eliminated|out of the question|off the table|impossible)\b")
_LINK = r"(?:'s|s)?(?:\s+[\w'-]+){0,4}?\s+"  # a few words between a resource and what is said of it


def _alternation(words: Sequence[str]) -> str:
    return r"(?<![\w-])(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)) \
        + r")(?![\w])"


def _entity_words(entities: Mapping[str, Sequence[str]], name: str) -> str:
    return _alternation([name.removeprefix("the "), *entities.get(name, ())])


def _denied(what: str) -> list[str]:
    """A part denied: "not the kernels", "occupancy isn't a regime"."""
    return [rf"\b(?:not|never|isn'?t|aren'?t|no|neither|nor)\s+(?:\w+\s+){{0,3}}?{what}",
            rf"{what}(?:'s|s)?(?:\s+[\w'-]+){{0,3}}?\s*{_DENIED}"]


def _forms(grading: Mapping[str, Any]) -> list[re.Pattern[str]]:
    """The forms that say, of this incident's entities, what its relations say of them."""
    entities = grading.get("entities", {})
    forms: list[str] = []
    for spec in grading.get("relations", []):
        kind = spec.get("kind")
        if kind == "limit":
            what = _entity_words(entities, spec["what"])
            forms += [rf"{what}{_LINK}{_HOLDS}", rf"{what}[- ](?:bound|limited|heavy)", rf"{_HELD_BY}\s+(?:\w+\s+)?{what}",
                      rf"{_HOLDS}\s+(?:\w+\s+){{0,2}}(?:is\s+|are\s+|=\s+|:\s+)?{what}",
                      rf"\b(?:waiting|wait\w*)\s+(?:on|for)\s+(?:the\s+)?(?:\w+\s+)?{what}"]
        elif kind == "not_limit":
            what = _entity_words(entities, spec["what"])
            forms += [rf"{what}{_LINK}{_SPARE}", *_denied(what), rf"{what}{_LINK}(?:is|are|was|were|'s)\s+(?:\w+\s+)?not\b",
                      rf"\bnot\s+(?:\w+\s+)?{_HELD_BY}\s+(?:\w+\s+)?{what}"]
        elif kind == "unchanged":
            what = _entity_words(entities, spec["what"])
            forms += [rf"{what}{_LINK}{_UNCHANGED}", rf"{_UNCHANGED}\s+(?:\w+\s+)?{what}",
                      rf"\b(?:nothing|none)\s+(?:has\s+)?changed\s+(?:in|about|with|for)\s+(?:the\s+)?(?:[\w-]+\s+)?{what}",
                      rf"\b(?:nothing|none)\s+(?:about|in|of|with)\s+(?:the\s+)?(?:[\w-]+\s+)?{what}(?:\s+[\w'-]+){{0,2}}?\s+"
                      r"(?:changed?|moved?)\b", *_denied(what),
                      rf"{what}(?:\s+[\w/'-]+){{0,3}}?\s+(?:did ?n[o']t|don'?t|never|não|no)\s+(?:change|mudaram|move)"]
        elif kind == "faster":
            fast, slow = _entity_words(entities, spec["fast"]), _entity_words(entities, spec["slow"])
            forms += [rf"{fast}{_LINK}{_QUICKER}", rf"{slow}{_LINK}{_SLOWER}", rf"{_QUICKER}\s+(?:\w+\s+)?{fast}"]
    return [re.compile(f) for f in forms]


def _resources(every_grading: Sequence[Mapping[str, Any]]) -> re.Pattern[str]:
    """Every entity's words across the drill, and the ridge: what makes a clause a statement about the incident."""
    words: set[str] = {"ridge"}
    for grading in every_grading:
        for name, said in grading.get("entities", {}).items():
            words.add(name.removeprefix("the "))
            words.update(w for w in said if len(w) > 2)
    return re.compile(_alternation(sorted(words)))


class Statements:
    """The statement reader of one incident: built once from its ``grading`` and every incident's entities."""

    def __init__(self, grading: Mapping[str, Any], every_grading: Sequence[Mapping[str, Any]]) -> None:
        self._forms = _forms(grading)
        self._resources = _resources(every_grading)
        self._facts = tuple(f.lower() for f in grading.get("facts", []))
        self._stated = tuple(f.lower() for f in grading.get("statements", []))

    def unread(self, lowered: str, regime: str | None, side: str | None,
               regime_of: Callable[[str], str | None]) -> list[tuple[int, int]]:
        """The spans of ``lowered`` (normalised text) that state something of the incident and that nothing read.

        ``regime_of`` names the one regime a clause names (negations aside), or None.
        """
        spans = []
        start = 0
        for end in [*(m.start() for m in _CLAUSE.finditer(lowered)), len(lowered)]:
            clause = lowered[start:end]
            lo = start
            start = end
            if not clause.strip() or _FIGURE.search(clause) or not self._resources.search(clause):
                continue
            if not set(re.findall(r"[a-z][a-z'-]*", self._resources.sub(" ", clause))) - _EMPTY:
                continue  # names a resource, says nothing of it ("eager and compiled")
            if _LABEL_AFTER.match(lowered, end) or _TOPIC.match(clause) or _FORMULA.match(clause) or lowered.startswith(
                    "?", end):
                continue  # a label, a task named, a formula in words, or a question asked: nothing stated
            if self._read(clause, regime, side, regime_of):
                continue
            strip = len(clause) - len(clause.lstrip(" ,.-"))
            spans.append((lo + strip, lo + len(clause.rstrip())))
        return spans

    def _read(self, clause: str, regime: str | None, side: str | None, regime_of: Callable[[str], str | None]) -> bool:
        if _CONDITION.search(clause):
            return True
        if any(f in clause for f in self._facts) or any(f in clause for f in self._stated):
            return True
        if any(form.search(clause) for form in self._forms):
            return True
        for other, (named_words, denied) in _REGIME_SAID.items():
            if other != regime and (denied.search(clause) or (named_words.search(clause) and _RULED_OUT.search(clause))):
                return True
        named = regime_of(clause)
        if named is not None and named == regime:
            return True
        if side is not None and _FAR.search(clause):
            return True
        if _RIDGE.search(clause) and side is not None:
            said = "above" if _ABOVE.search(clause) else "below" if _BELOW.search(clause) else None
            if said == side and not any(negated(clause, m.start(), m.end()) for m in _RIDGE.finditer(clause)):
                return True
        return False
