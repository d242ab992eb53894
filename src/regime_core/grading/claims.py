"""An evidence line read as claims, each checked against what the incident says.

A number in a learner's line is never evidence on its own: it says something. ``62% of peak HBM
bandwidth`` claims a share of the memory roof; ``busy 80% of the time`` claims the GPU works most of
the time; ``16 FLOP/B, above the ridge`` claims a side; ``14 GB / 300 GB/s ≈ 4.7 ms`` claims a
quotient; ``8 ms → 14 ms`` claims which came first. :func:`read` turns a line into :class:`Claim` s
and :class:`Sum` s, and :class:`Facts` holds the same claims read from the classifier's own evidence
and the incident's text, so that the learner's words and the core's arithmetic are read by one reader.
A claim contradicts a fact when it carries the fact's number with another roof, side or share, or a
number off the fact's by a slip people make (a power of ten, bits for bytes, one of two bytes).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from regime_core.catalogue.quantity import Dim, format_quantity, plain_numbers, quantity_spans
from regime_core.grading.language import negated

#: How close a learner's number must be to a fact's to be that fact (a pencil rounds).
MATCH = 0.10
#: How far written arithmetic may be off before it is wrong (``14 / 300 ≈ 0.05``).
ARITHMETIC = 0.15

_CLAUSE = re.compile(r"[;!?()\[\]—–]|:\s|\.(?=\s|$)|,\s|\b(?:but|whereas|while|because|since|so|and|which)\b")
_ROOF_WORDS = {
    "flops": re.compile(r"\b(?:t?flops?(?:/s)?|tflop|pflop|gflop|tensor|compute|math|mfu|mma|fma|tops|arithmetic)\b"),
    "bandwidth": re.compile(r"\b(?:bandwidth|bw|hbm|dram|memory|mbu|[kmgtp]?i?b/s|bytes?/s)(?![\w/])"),
}
_SHARE_WORDS = {
    "busy": re.compile(r"\b(?:busy|active|utili[sz]\w*|working|running|computing|doing work|occupied)\b"),
    "idle": re.compile(r"\b(?:idle|idles|idling|gaps?|waiting|waits|wasted|stalled|empty|doing nothing|dead time)\b"),
}
# A share that is occupancy or nvidia-smi's GPU-Util: neither is a share of a roof (Rule 4; GPU-Util is the
# share of time some kernel runs).
_METRIC_WORDS = {
    "occupancy": re.compile(r"\boccupancy\b"),
    "gpu_util": re.compile(r"\b(?:nvidia-smi|gpu[- ]?util\w*|sm[- ]?util\w*|volatile)\b"),
}
_SIDE = re.compile(r"\b(?P<word>above|over|beyond|past|higher than|right of|below|under|beneath|lower than|left of)"
                   r"\s+(?:the |its |a |our |any |every |this |that |all )?(?:[\w-]+'?s |\d[\d.,]*\s?(?:flop/b\w*\s)?)?ridge")
_SPEED = re.compile(r"\b(?:faster|slower|speed-?ups?|slow-?downs?|quicker|improvements?|gains?|wins?|bought|jumps?|jumped"
                    r"|went|rose|grew|dropped|fell)\b")
#: How far a speed multiplier may be from the incident's own before it is another figure ("about 2×" for 1.75×).
SPEED_MATCH = 0.25
_BELOW = ("below", "under", "beneath", "lower than", "left of")
# A clause about what would or could be, not what is ("int8 would halve it to 23 ms").
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might|if|once|after|target|wants?|goal|needs? to|should|halv\w*|doubl\w*"
                           r"|instead|best case|ideal\w*|theoretical\w*|int8|int4|fp8|quantis\w*|quantiz\w*)\b")
# An operator may follow a word that names what the number counts ("40,000 launches × 10 µs").
_OPERATOR = re.compile(r"\s?(?:[a-z]+\s?)?(?P<op>/|÷|×|\*|·|\bover\b|\bdivided by\b|\btimes\b)\s?")
_RELATION = re.compile(r"\s?(?:(?!is\b)[a-z]+\s?)?(?:=|≈|≃|~|\bis about\b|\bis roughly\b|\bis\b|\bgives\b|\bequals\b|\bcomes to\b)\s?")
_ARROW = re.compile(r"\s?(?:→|->|=>|\bto\b|\bup to\b|\bjumps? to\b|\bwent to\b)\s?")
_POWER = re.compile(r"(?:\^|\*\*)(\d)|([²³⁴])")
_SUPER = {"²": 2, "³": 3, "⁴": 4}


@dataclass(frozen=True)
class Claim:
    """One number in a line and what the words around it say of it."""

    value: float
    dim: Dim
    start: int
    end: int
    written: str
    roof: str | None = None  # "flops" or "bandwidth": which peak a share or a rate is of
    side: str | None = None  # "above" or "below" the ridge
    share: str | None = None  # "busy" or "idle": which part of the time a share is
    hypothetical: bool = False
    multiplier: bool = False  # written "3.8×"
    metric: str | None = None  # "occupancy" or "gpu_util": a share that is neither roof's
    speed: bool = False  # a multiplier said of speed ("3.8× faster", "a 6× slowdown")

    def busy(self) -> float | None:
        """The share of the time the GPU works, where the claim is one ("idles 80%" is busy 20%)."""
        if self.share is None:
            return None
        return self.value if self.share == "busy" else 1 - self.value

    def shown(self) -> str:
        """The number as the learner wrote it, for feedback."""
        return self.written.strip()


@dataclass(frozen=True)
class Sum:
    """Arithmetic written in a line: ``left`` (the operands and operators as written) and the result given."""

    written: str
    computed: float
    given: Claim
    dim: Dim
    unitless: bool = False  # an operand written without its unit or prefix
    #: ``a / b × c`` read as ``a / (b × c)`` (what "1.37e11 FLOP over 3 × 4096² × 2 B" means), and the
    #: denominator alone (what "1.37e11 FLOP over 3 × 4096² × 2 ≈ 1e8 bytes" gives).
    over_all: float | None = None
    denominator: float | None = None


@dataclass(frozen=True)
class Reading:
    """A line read: its claims, its sums, its transitions (``8 ms → 14 ms``) and its side phrases."""

    claims: tuple[Claim, ...]
    sums: tuple[Sum, ...]
    transitions: tuple[tuple[Claim, Claim], ...]
    sides: tuple[str, ...]


#: The most numbers read from one line: a line holds a handful; more is read by its first ones, so that no
#: text, however long, takes more than linear time.
MAX_CLAIMS = 200
_REACH = 160  # characters either side of a number in which its clause is looked for


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - _REACH)
    before = [m.end() for m in _CLAUSE.finditer(text, lo, start)]
    after = _CLAUSE.search(text, end, end + _REACH)
    return (before[-1] if before else lo), (after.start() if after else min(len(text), end + _REACH))


def _words(text: str, limit: int, *, last: bool) -> str:
    words = text.split()
    return " ".join(words[-limit:] if last else words[:limit])


def _nearest(patterns: dict[str, re.Pattern[str]], before: str, after: str) -> str | None:
    """The key of the pattern matched nearest the number: first in ``after``, else last in ``before``."""
    best: tuple[int, str] | None = None
    for key, pattern in patterns.items():
        found = pattern.search(after)
        if found and (best is None or found.start() < best[0]):
            best = (found.start(), key)
    if best is not None:
        return best[1]
    last: tuple[int, str] | None = None
    for key, pattern in patterns.items():
        for found in pattern.finditer(before):
            if last is None or found.end() > last[0]:
                last = (found.end(), key)
    return last[1] if last else None


def _flip(key: str | None, pairs: tuple[str, str]) -> str | None:
    return None if key is None else pairs[1] if key == pairs[0] else pairs[0]


def _claim(text: str, value: float, dim: Dim, start: int, end: int) -> Claim:
    lo, hi = _clause_bounds(text, start, end)
    before, after = _words(text[lo:start], 4, last=True), _words(text[end:hi], 6, last=False)
    multiplier = text[end:end + 1] in ("×", "x") and dim is Dim.COUNT
    roof = {Dim.FLOP_RATE: "flops", Dim.BYTE_RATE: "bandwidth"}.get(dim)
    if dim is Dim.FRACTION:
        roof = _nearest(_ROOF_WORDS, before, after)
    # A label before the figure reaches across a colon ("occupancy: 62%").
    label = _words(text[max(0, start - 40):start], 3, last=True)
    metric = _nearest(_METRIC_WORDS, label, after) if dim is Dim.FRACTION else None
    share = _nearest(_SHARE_WORDS, before, after) if dim is Dim.FRACTION and metric != "occupancy" else None
    if metric == "gpu_util":
        share = "busy"  # GPU-Util is the share of time some kernel runs
    if share is not None and negated(text, start, end):
        share = _flip(share, ("busy", "idle"))
    side = None
    if dim in (Dim.INTENSITY, Dim.COUNT) and not multiplier:
        found = _SIDE.search(text, end, end + _REACH // 2)  # "1365 FLOP/byte, which is above the ridge"
        between = text[end:found.start()] if found else ""
        if found and not re.search(r"\d", re.sub(r"\d+(?:\.\d+)?\s?×", "", between)) and "ridge of" not in text[lo:start][-12:]:
            side = "below" if found["word"] in _BELOW else "above"
            if negated(text, found.start(), found.end()):
                side = _flip(side, ("above", "below"))
    speed = multiplier and bool(_SPEED.search(text, max(0, start - _REACH // 2), hi))
    return Claim(value, dim, start, end, text[start:end], roof, side, share,
                 bool(_HYPOTHETICAL.search(text, lo, hi)), multiplier, metric, speed)


def _power(text: str, claim: Claim) -> tuple[float, int]:
    """A claim's value raised to a power written right after it (``4096^3``, ``4096³``), and where it ends."""
    found = _POWER.match(text, claim.end)
    if not found or claim.dim is not Dim.COUNT:
        return claim.value, claim.end
    exponent = int(found[1]) if found[1] else _SUPER[found[2]]
    return claim.value ** exponent, found.end()


_RESULT_DIM = {
    (Dim.BYTE, "/", Dim.BYTE_RATE): Dim.SECOND, (Dim.FLOP, "/", Dim.FLOP_RATE): Dim.SECOND,
    (Dim.FLOP, "/", Dim.BYTE): Dim.INTENSITY, (Dim.FLOP_RATE, "/", Dim.BYTE_RATE): Dim.INTENSITY,
    (Dim.BYTE_RATE, "/", Dim.BYTE_RATE): Dim.FRACTION, (Dim.FLOP_RATE, "/", Dim.FLOP_RATE): Dim.FRACTION,
}


def _sums(text: str, claims: list[Claim]) -> list[Sum]:
    """Arithmetic chains ``a op b [op c] (=|≈) r``; a chain opening with an operator goes on from the last result."""
    out: list[Sum] = []
    by_start = {c.start: c for c in claims}
    index = {c.start: n for n, c in enumerate(claims)}
    previous: tuple[float, Dim, str] | None = None
    i = 0
    while i < len(claims):
        claim = claims[i]
        value, at = _power(text, claim)
        dim, written, units = claim.dim, text[claim.start:at], [claim.dim]
        lead = _OPERATOR.search(text, max(0, claim.start - 4), claim.start)
        led = bool(previous is not None and lead and lead.end() == claim.start
                   and not text[lead.start() - 1:lead.start()].isdigit())
        if led and previous is not None and lead is not None:
            pvalue, pdim, pwritten = previous
            value, dim, written, units = _apply(pvalue, lead["op"], value), pdim, f"{pwritten} {lead['op']} {written}", [pdim, claim.dim]
        operators = 0
        numerator, denominator = value, None  # for the reading a / (b × c)
        j = i
        while True:
            op = _OPERATOR.match(text, at)
            nxt = by_start.get(op.end()) if op else None
            if op is None or nxt is None:
                break
            j = index[nxt.start]
            operand, at = _power(text, nxt)
            dim = _RESULT_DIM.get((dim, _op(op["op"]), nxt.dim), dim if nxt.dim is Dim.COUNT else
                                  nxt.dim if dim is Dim.COUNT and _op(op["op"]) != "/" else Dim.COUNT)
            value = _apply(value, op["op"], operand)
            if denominator is not None:
                denominator *= operand
            elif _op(op["op"]) == "/":
                denominator = operand
            else:
                numerator *= operand
            written += f" {op['op'].strip()} {text[nxt.start:at]}"
            units.append(nxt.dim)
            operators += 1
        relation = _RELATION.match(text, at)
        result = by_start.get(relation.end()) if relation else None
        if result is not None and (operators or led):
            if math.isfinite(value):
                over_all = numerator / denominator if denominator else None
                out.append(Sum(written, value, result, result.dim if result.dim is not Dim.COUNT else dim,
                               Dim.COUNT in units, over_all, denominator))
                previous = (result.value, out[-1].dim, text[result.start:result.end])
            i = index[result.start]
            continue
        previous = (value, dim, written) if operators else previous
        i = j + 1
    return out


def _op(op: str) -> str:
    return "/" if op.strip() in ("/", "÷", "over", "divided by") else "×"


def _apply(a: float, op: str, b: float) -> float:
    if _op(op) == "/":
        return a / b if b else math.inf
    return a * b


def _transitions(text: str, claims: list[Claim]) -> list[tuple[Claim, Claim]]:
    by_start = {c.start: c for c in claims}
    out = []
    for claim in claims:
        arrow = _ARROW.match(text, claim.end)
        nxt = by_start.get(arrow.end()) if arrow else None
        if nxt is not None and (nxt.dim is claim.dim or Dim.COUNT in (nxt.dim, claim.dim)) and nxt.value != claim.value:
            out.append((claim, nxt))
    return out


def read(lowered: str) -> Reading:
    """A normalised line (``language.with_units``) read as claims, sums, transitions and side phrases."""
    text = plain_numbers(lowered)
    claims = [_claim(text, v, d, s, e) for v, d, s, e in quantity_spans(text, limit=MAX_CLAIMS)]
    sides = []
    for found in itertools.islice(_SIDE.finditer(text), MAX_CLAIMS):
        side = "below" if found["word"] in _BELOW else "above"
        sides.append(_flip(side, ("above", "below")) if negated(text, found.start(), found.end()) else side)
    return Reading(tuple(claims), tuple(_sums(text, claims)), tuple(_transitions(text, claims)),
                   tuple(s for s in sides if s))


def same(a: Claim, b: Claim, rel: float = MATCH) -> bool:
    """Whether two claims carry the same number (a plain count matches any unit with that value)."""
    if a.dim is not b.dim and Dim.COUNT not in (a.dim, b.dim):
        return False
    return math.isclose(a.value, b.value, rel_tol=rel)


_SLIPS = ((10.0, "a power of ten"), (100.0, "a power of ten"), (1000.0, "a power of ten"),
          (8.0, "a factor of 8"), (2.0, "a factor of 2"))
# Where a factor of 8 or 2 has a usual cause: bits read as bytes; one byte counted for a 16-bit value.
_CAUSES = {8.0: "bits for bytes?", 2.0: "one byte counted where a 16-bit value has two?"}
_BYTE_DIMS = (Dim.BYTE, Dim.BYTE_RATE, Dim.SECOND, Dim.TOKEN_RATE, Dim.INTENSITY)
_SLIP_DIMS = (Dim.SECOND, Dim.TOKEN_RATE, Dim.BYTE, Dim.BYTE_RATE, Dim.FLOP_RATE, Dim.FLOP, Dim.INTENSITY, Dim.FRACTION)


def slip(value: float, against: float, dim: Dim) -> str:
    """How ``value`` is off ``against`` by a slip people make, or ""; fractions only by powers of ten."""
    if value <= 0 or against <= 0:
        return ""
    ratio = max(value, against) / min(value, against)
    for factor, name in _SLIPS:
        if dim is Dim.FRACTION and factor < 10:
            continue
        if math.isclose(ratio, factor, rel_tol=0.08):
            return f"{name}: {_CAUSES[factor]}" if factor in _CAUSES and dim in _BYTE_DIMS else name
    return ""


def show(value: float, dim: Dim) -> str:
    """A number in the form the core prints it."""
    return format_quantity(value, dim)


@dataclass(frozen=True)
class Facts:
    """What an incident says, as claims read by the same reader: the verdict's evidence and the incident's text.

    ``deciding`` are the claims of the classifier's evidence (a learner citing one cites what decides);
    ``known`` adds the incident's own figures; ``side`` is where the kernel sits against the ridge.
    """

    deciding: tuple[Claim, ...]
    known: tuple[Claim, ...]
    transitions: tuple[tuple[Claim, Claim], ...] = ()
    side: str | None = None
    ridge: float | None = None

    @classmethod
    def read(cls, deciding_lines: list[str], other_lines: list[str], side: str | None = None,
             ridge: float | None = None) -> Facts:
        """Facts from the classifier's evidence lines and the incident's own text (normalised)."""
        decided = [read(line) for line in deciding_lines]
        others = [read(line) for line in other_lines]
        deciding = tuple(c for r in decided for c in r.claims)
        known = deciding + tuple(c for r in others for c in r.claims)  # a sum's result is one of its line's claims
        transitions = tuple(t for r in [*decided, *others] for t in r.transitions)
        return cls(deciding, known, transitions, side, ridge)


@dataclass(frozen=True)
class Judgement:
    """What a line's claims come to.

    The first one the incident contradicts (""), whether one decides, and the numbers that could not be placed.
    """

    wrong: str
    cites: bool
    unplaced: tuple[str, ...]


def _sum_wrong(s: Sum) -> str:
    given = s.given.value
    if s.computed <= 0 or any(math.isclose(v, given, rel_tol=ARITHMETIC) for v in (s.computed, s.over_all, s.denominator) if v):
        return ""
    ratio = max(s.computed, given) / min(s.computed, given)
    exponent = math.log10(ratio)
    whole = math.isclose(exponent, round(exponent), abs_tol=0.03)
    if whole and ((s.given.dim is Dim.COUNT and exponent >= 1.9) or (s.unitless and round(exponent) % 3 == 0)):
        return ""  # a unit or a prefix left off ("14 / 300 = 47", meaning ms; "7 × 2 = 14 GB", meaning 7e9)
    dim = s.dim if s.dim is not Dim.COUNT else s.given.dim
    why = slip(s.computed, given, dim)
    return f"{s.written} is {show(s.computed, dim)}, not {s.given.shown()}" + (f" ({why})" if why else "")


def _attribute_wrong(claim: Claim, matches: list[Claim], facts: Facts) -> str:
    roofs = {m.roof for m in matches if m.roof}
    if claim.roof and roofs and claim.roof not in roofs:
        fact_roof = "peak FLOP/s" if "flops" in roofs else "peak bandwidth"
        return f"{claim.shown()} is of {fact_roof}, not of {'peak FLOP/s' if claim.roof == 'flops' else 'bandwidth'}"
    busy = [f.busy() for f in facts.known if f.share and not f.hypothetical]
    claimed = claim.busy()
    if claimed is not None and busy and not any(math.isclose(b or 0, claimed, abs_tol=MATCH) for b in busy):
        fact = busy[0] or 0
        return (f"the GPU is busy {show(fact, Dim.FRACTION)} of the time and idle {show(1 - fact, Dim.FRACTION)},"
                f" not {claim.share} {claim.shown()}")
    if claim.side and facts.side and claim.side != facts.side and not (facts.ridge and math.isclose(
            claim.value, facts.ridge, rel_tol=MATCH)):
        return f"{claim.shown()} is {facts.side} the ridge, not {claim.side} it"
    return ""


def judge(facts: Facts, reading: Reading) -> Judgement:
    """Each claim of a learner's line against the incident's facts and the core's arithmetic."""
    for s in reading.sums:
        wrong = _sum_wrong(s)
        if wrong:
            return Judgement(wrong, False, ())
    cites, unplaced = False, []
    speeds = [f for f in facts.known if f.speed]
    for claim in reading.claims:
        matches = [f for f in facts.known if same(claim, f)]
        wrong = _attribute_wrong(claim, matches, facts)
        if wrong:
            return Judgement(wrong, False, ())
        if claim.metric:
            continue  # occupancy and GPU-Util decide no roof
        if claim.share and any(f.share and math.isclose(claim.busy() or 0, f.busy() or 0, abs_tol=MATCH)
                               for f in facts.deciding):
            cites = True
        if claim.speed and speeds and not claim.hypothetical and not any(
                math.isclose(c.value, f.value, rel_tol=SPEED_MATCH) for f in speeds for c in reading.claims if c.speed):
            return Judgement(f"{claim.shown()}× is not this incident's figure: it says {speeds[0].shown()}×", False, ())
        if matches:
            cites = cites or any(same(claim, f) for f in facts.deciding)
            continue
        if claim.dim in _SLIP_DIMS and not claim.hypothetical:
            for fact in facts.known:
                if fact.dim is claim.dim and (why := slip(claim.value, fact.value, claim.dim)):
                    return Judgement(f"{claim.shown()} is off the incident's {show(fact.value, fact.dim)} by {why}",
                                     False, ())
        if claim.dim is not Dim.COUNT:
            unplaced.append(claim.shown())
    for first, then in reading.transitions:
        if any(same(first, b) and same(then, a) for a, b in facts.transitions):
            return Judgement(f"it went from {then.shown()} to {first.shown()}, not the other way", False, ())
    if facts.side and reading.sides and all(side != facts.side for side in reading.sides) and not any(
            c.side for c in reading.claims):
        return Judgement(f"the kernel sits {facts.side} the ridge, not {reading.sides[0]} it", False, ())
    return Judgement("", cites, tuple(unplaced))
