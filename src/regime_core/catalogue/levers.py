"""Levers and the vocabulary that recognises them in free text (``data/levers.json``)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from regime_core.resources import load_json

#: The regimes of one device, and communication: the time is on the interconnect, not on the device at all.
REGIMES = ("compute", "memory", "overhead", "communication")


@dataclass(frozen=True)
class Lever:
    """A class of optimisation, the regimes it helps and the words that name it."""

    id: str
    label: str
    fits: tuple[str, ...]
    synonyms: tuple[str, ...]
    phrase: str = ""
    names_a_problem: bool = False
    #: kind of kernel -> why this lever, though it fits the regime, may not move that kind (levers.json).
    doubtful_for: tuple[tuple[str, str], ...] = ()
    #: Regular expressions for the ways people describe the lever without naming it (levers.json 'described').
    described: tuple[str, ...] = ()
    #: The lever leaves the work's FLOP count as it is (fusion, graphs, paging, chunking, more GPUs): said to cut
    #: the FLOPs, it is misread.
    keeps_flops: bool = False
    #: The lever leaves the work and the bytes as they are and only brings the kernel nearer its roof (better loads,
    #: tiling): it can give at most 1 ÷ the share of the roof reached.
    on_its_roof: bool = False

    def doubt(self, kind: str) -> str:
        """Why this lever may not move a kernel of ``kind`` (a classifier's kind, such as ``decode``); "" if it would."""
        return dict(self.doubtful_for).get(kind, "")


@dataclass(frozen=True)
class RegimeAdvice:
    """Per regime: its name, the one class of optimisation allowed, what helps, what wastes."""

    name: str
    allowed: str
    helps: str
    wastes: str


@dataclass(frozen=True)
class Mention:
    """Where a lever is named in a text: its id and the span of the words that name it."""

    lever: str
    start: int
    end: int


def _data() -> dict[str, Any]:
    return load_json("levers.json")


_SNAKE = re.compile(r"(?<=[a-z])_(?=[a-z])")


def unsnake(text: str) -> str:
    """Words joined by underscores as words ("cuda_graphs", "overhead_bound"): how the grader reads identifiers."""
    return _SNAKE.sub(" ", text) if "_" in text else text


@cache
def levers() -> tuple[Lever, ...]:
    """Every lever in the vocabulary."""
    return tuple(Lever(e["id"], e["label"], tuple(e["fits"]), tuple(dict.fromkeys(unsnake(s) for s in e["synonyms"])),
                       e.get("phrase", e["label"]),
                       bool(e.get("names_a_problem", False)), tuple(sorted(e.get("doubtful_for", {}).items())),
                       tuple(e.get("described", ())), bool(e.get("keeps_flops", False)),
                       bool(e.get("on_its_roof", False)))
                 for e in _data()["levers"])


@cache
def advice(regime: str) -> RegimeAdvice:
    """The advice for one regime."""
    raw = _data()["regimes"][regime]
    return RegimeAdvice(raw["name"], raw["allowed"], raw["helps"], raw["wastes"])


@cache
def kinds() -> tuple[str, ...]:
    """The kinds of kernel the classifier's rules name (``Verdict.kind``), in ``levers.json``'s order."""
    return tuple(_data()["kinds"])


#: A measured fusion (or compile) speed-up at or under this bought nothing worth a week: fusion is not the lever
#: to offer, and refusing it is right.
FUSION_BOUGHT_NOTHING = 1.25


def kind_advice(kind: str, work: str | None = None, dtype: str | None = None,
                fused_speedup: float | None = None) -> tuple[str, RegimeAdvice]:
    """A kind's regime, and its advice: the kind's own lever lines where it has them, else the regime's.

    Where the kind is the plain regime and the work is one kernel (``work``: matmul, attention, elementwise,
    raw), the lines for that work (levers.json 'by_work'), so a GEMM is not offered shorter prompts; work
    already in FP8 is not offered FP8. A fusion measured at ``fused_speedup`` of at most
    ``FUSION_BOUGHT_NOTHING`` is not offered where the kind has lines without it ('helps_fusion_measured').
    """
    raw = _data()["kinds"][kind]
    regime = advice(raw["regime"])
    helps = raw.get("helps", regime.helps)
    if fused_speedup is not None and fused_speedup <= FUSION_BOUGHT_NOTHING and "helps_fusion_measured" in raw:
        helps = raw["helps_fusion_measured"].format(speedup=f"{fused_speedup:g}")
    own = RegimeAdvice(regime.name, regime.allowed, helps, raw.get("wastes", regime.wastes))
    fitted = _data().get("by_work", {}).get(kind, {}).get(work or "") if kind == raw["regime"] else None
    if fitted:
        helps = fitted.get("helps_fp8", fitted["helps"]) if dtype == "fp8" else fitted["helps"]
        own = RegimeAdvice(regime.name, regime.allowed, helps, fitted["wastes"])
    return raw["regime"], own


def regime_names(regime: str) -> tuple[str, ...]:
    """The words learners use for ``regime``, such as ``memory``, ``mem``, ``bw`` and ``hbm``."""
    return tuple(_data()["regimes"][regime]["names"])


@cache
def regime_described(regime: str) -> re.Pattern[str] | None:
    """One pattern for the ways learners describe ``regime`` without naming it, or None.

    "Limited by how fast the tensor cores can multiply" describes compute-bound.
    """
    found = _data()["regimes"][regime].get("described", [])
    return re.compile("|".join(f"(?:{p})" for p in found)) if found else None


# A resource said to set the pace, in any words for the resource ('resources' in levers.json): after it, a copula
# and a noun for a limit ("HBM is the bottleneck"), or a verb of running out ("the CPU can't keep up", "bandwidth
# maxed out"); before it, a participle of limiting ("starved for bandwidth", "waiting on the host", "the bottleneck
# is the launches"). The words between are kept apart (``gap``) so a denial among them ("memory, which isn't
# saturated") can be told from the phrase itself.
_COPULA = r"(?:is|are|was|were|'s|’s|remains?|becomes?|stays?|seems?|looks?)"
_LIMIT_NOUN = (rf"{_COPULA}\s+(?:clearly\s+|really\s+|still\s+|just\s+|simply\s+|obviously\s+|now\s+)?"
               r"(?:the|our|its|their|a)\s+(?:real\s+|main\s+|actual\s+|true\s+|binding\s+|only\s+|hard\s+|big\s+)?"
               r"(?:bottleneck|limit(?:er|ing factor)?|wall|culprit|constraint|choke ?point|pace[- ]?setter)\b"
               rf"|{_COPULA}\s+what(?:'s|’s| is)?\s+(?:limiting|holding|slowing|capping|throttling|takes|eats|sets)\b")
_RUNS_OUT = (r"(?:can'?t|cannot|can not|couldn'?t|could not)\s+keep up\b|never gets?\s+up to speed\b"
             rf"|(?:{_COPULA}\s+)?(?:too slow|saturated|maxed(?: out)?|pegged|flat out|limiting|running out)\b"
             r"|\b(?:runs?|ran) out\b|\bsaturat(?:es|ing)\b|\bmax(?:es|ing) out\b|\bchok(?:es|ing)\b"
             r"|\bhold(?:s|ing)? (?:[\w-]+ ){0,2}back\b|\bdominat(?:es?|ing)\b|\bsets? the pace\b"
             r"|\b(?:decides?|determines?|governs?|dictates?) (?:the )?(?:time|pace)\b"
             r"|\beats? (?:up )?(?:the|all the|most of the) time\b"
             r"|(?:can'?t|cannot|can not|couldn'?t|could not)\s+(?:feed|keep (?:the gpu |it |them )?(?:fed|busy))\b")
_A_RESOURCE = r"(?:memory|hbm|dram|bandwidth|launch\w*|host|cpu)\b"
_LIMITED_BY = (r"\b(?:bottlenecked|limited|bound|capped|throttled|gated|held back|starved|starving|choked|stalled|stuck"
               r"|waiting|waits|waited|blocked|constrained|dominated)\s+(?:on|by|for|of)\b"
               r"|\bthe (?:real |main |actual )?(?:bottleneck|limit|limiter|culprit|constraint) (?:is|was|being|=|:)")


@cache
def regime_limited(regime: str) -> re.Pattern[str] | None:
    """One pattern for a clause that says one of ``regime``'s resources sets the pace, or None.

    Groups: ``gap``, the words between the resource and what is said of it (a denial there denies the clause).
    "HBM is the bottleneck" and "starved for bandwidth" name memory; "the CPU can't keep up" names overhead.
    """
    found = _data()["regimes"][regime].get("resources", [])
    if not found:
        return None
    resource = "(?:" + "|".join(found) + r")(?![\w-])"
    return re.compile(rf"(?<![\w-]){resource}(?P<gap>(?:\s+[\w'’,-]+){{0,4}}?)\s+(?:{_LIMIT_NOUN}|{_RUNS_OUT})"
                      # (the words between name no resource of their own: "waiting on memory between launches" waits
                      # on memory, not on the launches)
                      rf"|(?:{_LIMITED_BY})\s+(?P<gap2>(?:(?!{_A_RESOURCE})[\w'’-]+\s+){{0,3}}?){resource}"
                      # said as a cleft: "so is the kernels' maths that slow, not the memory"
                      rf"|\b(?:it'?s|is|it is|was)\s+(?:the\s+)?(?:[\w'’-]+\s+){{0,2}}?{resource}\s+(?:that(?:'s| is)?\s+)"
                      r"(?:slow|too slow|limits?|limiting|holds? (?:it|things) back)\b")


@cache
def regime_denied(regime: str) -> re.Pattern[str] | None:
    """One pattern for sentences that say ``regime`` does not hold ("the GPU is mostly busy" of overhead), or None."""
    found = _data()["regimes"][regime].get("denied_by", [])
    return re.compile("|".join(f"(?:{p})" for p in found)) if found else None


@cache
def regime_blamed(regime: str) -> re.Pattern[str] | None:
    """One pattern for clauses that give ``regime``'s cause as the reason for a time or a speed-up, or None.

    "Compile's 3.8× comes from faster math" blames compute; "the 8 µs gaps are DRAM latency" blames memory.
    """
    found = _data()["regimes"][regime].get("blamed_on", [])
    return re.compile("|".join(f"(?:{p})" for p in found)) if found else None


def a_kernel(regime: str) -> str:
    """``a compute-bound kernel``, ``an overhead / host-bound kernel``: the regime's name with its article."""
    name = advice(regime).name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} kernel"


@cache
def vocabulary() -> frozenset[str]:
    """Every word of every lever synonym and regime name: the words a misspelling is corrected towards."""
    phrases = [s for lever in levers() for s in lever.synonyms]
    phrases += [n for regime in REGIMES for n in regime_names(regime)]
    return frozenset(w for p in phrases for w in re.findall(r"[a-z]+", p))


def _trie(phrases: list[str]) -> str:
    """One regex for many phrases, shared prefixes factored out (fast on long text), longest match first.

    Word boundaries apply only where a phrase starts or ends with a word character (".item()").
    """
    root: dict[str, Any] = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict[str, Any], last: str) -> str:
        options = [("(?<!\\w)" if not last and char.isalnum() else "") + re.escape(char) + build(child, char)
                   for char, child in sorted(node.items()) if char]
        if "" in node:
            options.append("(?!\\w)" if last.isalnum() else "")
        return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"

    return build(root, "")


@cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    owner = {s: lever.id for lever in levers() for s in lever.synonyms}
    return re.compile(_trie(list(owner))), owner


@cache
def _described() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((lever.id, re.compile("|".join(f"(?:{p})" for p in lever.described)))
                 for lever in levers() if lever.described)


def _spans(pattern: re.Pattern[str], lowered: str) -> list[tuple[int, int]]:
    """Where ``pattern`` matches, a match that starts inside another and runs on past it joining that one.

    One description can start inside another's words ("operations into one custom kernel": "operations into one",
    then "one custom kernel"), and the whole stretch is the lever's: the longer reading then wins over another
    lever's shorter words inside it ("custom kernel").
    """
    spans: list[tuple[int, int]] = []
    found = pattern.search(lowered)
    while found is not None:
        start, end = found.span()
        if spans and start < spans[-1][1]:
            if end > spans[-1][1]:
                spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
        found = pattern.search(lowered, start + 1)
    return spans


def mentions(lowered: str) -> list[Mention]:
    """Every lever named or described in already lower-cased text, where it is, in order."""
    pattern, owner = _pattern()
    found = [Mention(owner[m.group(0)], m.start(), m.end()) for m in pattern.finditer(lowered)]
    for lever_id, described in _described():
        found += [Mention(lever_id, start, end) for start, end in _spans(described, lowered)]
    # A word inside a longer phrase of another lever is that phrase's ("keep the four ops in registers" is fusion,
    # not register trimming): the longer, more specific reading wins.
    # Only a mention starting at most the longest mention's length before another can hold it: looked up by start,
    # so a field of 10,000 characters full of lever words stays linear.
    found.sort(key=lambda m: m.start)
    starts = [m.start for m in found]
    longest = max((m.end - m.start for m in found), default=0)
    found = [m for m in found if not any(
        n.lever != m.lever and m.end <= n.end and n.end - n.start > m.end - m.start
        for n in found[bisect.bisect_left(starts, m.start - longest):bisect.bisect_right(starts, m.start)])]
    return sorted(found, key=lambda m: (m.start, -m.end))


def recognise(text: str) -> list[str]:
    """Lever ids named in ``text``, in order of first mention, each once."""
    found: list[str] = []
    for mention in mentions(unsnake(text.lower())):
        if mention.lever not in found:
            found.append(mention.lever)
    return found


def by_id(lever_id: str) -> Lever:
    """A lever by id (KeyError when unknown)."""
    return _by_id()[lever_id]


@cache
def _by_id() -> dict[str, Lever]:
    return {lever.id: lever for lever in levers()}


def fits(lever_ids: list[str], regime: str) -> bool:
    """Whether any of the levers helps ``regime``."""
    return any(regime in by_id(i).fits for i in lever_ids)


def phrases(lever_ids: list[str]) -> str:
    """The levers inside a sentence: ``fusion and more GPUs``."""
    names = [by_id(i).phrase for i in lever_ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
