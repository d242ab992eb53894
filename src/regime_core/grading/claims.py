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

import ast
import dataclasses
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from regime_core.catalogue import hardware
from regime_core.catalogue.levers import mentions
from regime_core.catalogue.quantity import Dim, format_quantity, plain_numbers, quantity_spans
from regime_core.grading import derived as dv
from regime_core.grading.language import NEGATION, cached_line, negated
from regime_core.model.work import weight_format_bytes

#: How close a learner's number must be to a fact's to be that fact (a pencil rounds).
MATCH = 0.10
#: How far a share may be from the incident's in percentage points and still be it (62% said "about 60%").
SHARE_POINTS = 0.03
#: How far written arithmetic may be off before it is wrong: one unit of the result's last written digit
#: (``14 / 300 ≈ 0.05``; ``14 / 8 = 1.5`` is off), never tighter than ARITHMETIC_FLOOR nor looser than ARITHMETIC.
ARITHMETIC = 0.15
ARITHMETIC_FLOOR = 0.02

_CLAUSE = re.compile(r"[;!?()\[\]—–\n\t•]|:\s|\.(?=\s|$)|,\s|\b(?:but|whereas|while|because|since|so|and|which)\b")
_ROOF_WORDS = {
    "flops": re.compile(r"\b(?:t?flops?(?:/s)?|tflop|pflop|gflop|tensor|compute|math|mfu|mma|fma|tops|arithmetic|alus?"
                       r"|multipl(?:y|ies|iers?)|(?:cuda |fp32 |fp16 )?cores?)\b"),
    # "only 58% of the pipe": the memory pipe, as learners call the bandwidth
    "bandwidth": re.compile(r"\b(?:bandwidth|bw|hbm|dram|memory|mbu|[kmgtp]?i?b/s|bytes?/s|(?:memory|the|hbm|dram)\s+pipe)(?![\w/])"),
}
_SHARE_WORDS = {
    "busy": re.compile(r"\b(?:busy|duty(?: cycle)?|active|utili[sz]\w*|working|works|running|computing|computes|doing work|occupied|occupying"
                       r"|occup(?:y|ies)|take up|takes up|taking up"
                       r"|ocupad[ao]|toils?|toiling|turning|spinning|crunching"
                       r"|kernels? (?:are|is|take|takes|make up|makes up|account for|accounts for)"
                       r"|spent (?:on|doing|in)(?! (?:the )?(?:gaps?|waiting|idle|stall\w*|sync\w*|host|launch\w*|overhead|cpu"
                       r"|python|nothing)\b))\b"),
    "idle": re.compile(r"\b(?:idle|idles|idling|gaps?|waiting|waits|wasted|stalled|empty|doing nothing|dead time)\b"),
}
# What a time is a span of on a timeline: the kernels running, or the gaps between them.
_SPAN_WORDS = {
    # "8 µs on the clock between moves" is no time on
    # "6 ms tacked on every token" is no time on either
    "busy": re.compile(r"\b(?:kernels?|(?<!tacked )(?<!added )(?<!bolted )(?<!piled )(?<!stuck )(?<!tagged )"
                       r"on(?!\s+(?:the|a|an|its|their|every|each|top)\b)|busy|running|compute|work|working|drives?"
                       r"|driving)\b"),
    "idle": re.compile(r"\b(?:gaps?|off|idle|idles|between|waits?|waiting|nothing|dead|bubbles?)\b"),
}
# A share that is occupancy or nvidia-smi's GPU-Util: neither is a share of a roof (Rule 4; GPU-Util is the
# share of time some kernel runs).
_METRIC_WORDS = {
    "occupancy": re.compile(r"\boccupancy\b"),
    "gpu_util": re.compile(r"\b(?:nvidia-smi|gpu[- ]?util\w*|sm[- ]?util\w*|volatile)\b"),
}
_SIDE = re.compile(r"\b(?P<word>above|over|beyond|past|higher than|more than|greater than|right of|below|under|beneath"
                   r"|lower than|less than|smaller than|left of)"
                   # a determiner in any English ("above da 156 ridge", "below di ridge")
                   r"\s+(?:the |its |a |our |any |every |this |that |all |d[aei] )?(?:[\w-]+'?s |[a-z]{0,3}\d{1,4}[a-z]?'?s? "
                   r"|(?:~|≈|about )?\s?\d[\d.,]*\s?(?:flop/b\w*\s)?)?ridge")
_SIDE_NEXT = re.compile(r"\s*(?:" + _SIDE.pattern + ")")
# A side denied by the words right before it ("not above the ridge", "isn't far below it"); a "cannot" later in the
# clause denies something else.
_SIDE_DENIED = re.compile(r"\b(?:not|never|isn'?t|aren'?t|no longer)\s+(?:\w+\s+){0,2}?(?:above|over|beyond|past|below|under"
                          r"|beneath|higher|lower|more|less|greater|smaller|right|left)\b")
_SPEED = re.compile(r"\b(?:faster|slower|speed-?ups?|slow-?downs?|quicker|improvements?|gains?|wins?|bought|jumps?|jumped"
                    r"|went|rose|grew|dropped|fell)\b")
_SIZE_WORDS = re.compile(r"\b(?:size|elements?|tensors?|shapes?|bytes|data)\b")
#: How far a speed multiplier may be from the incident's own before it is another figure ("about 2×" for 1.75×).
SPEED_MATCH = 0.25
#: How close a speed-up the incident did not measure must be to one it derives (2.0 ÷ 1.7 = 1.18, said "1.2×").
_SPEED_DERIVED = 0.03
_BELOW = ("below", "under", "beneath", "lower than", "less than", "smaller than", "left of")
# What is left under a roof in words that need no roof named beside them ("a 30% shortfall", "18% headroom").
_GAP_TO_ROOF = re.compile(r"\s*gap\s+(?:to|from|below|under)\s+(?:the\s+|its\s+)?(?:peak|roof\w*|frontier|ceiling|limit"
                         r"|max\w*|top|theoretical|datasheet)\b")
_SHORTFALL = re.compile(r"\s*(?:of\s+)?(?:shortfall|headroom|untapped|unexploited|left on the table)\b")
# "30% left", "30% of peak unused", "30% of peak is the only slack": what is left, said right beside its number
_LEFT_BESIDE = re.compile(r"\s*(?:of (?:the |its )?(?:peak|b/w|bw|hbm|bandwidth|[\w-]+ (?:rate|bandwidth|capacity))\s+)?"
                          r"(?:(?:is|are)\s+)?"
                          r"(?:sitting\s+|lying\s+)?(?:left|unused|untapped|to spare|remaining|remains|recoverable"
                          r"|not (?:being |getting )?used|going unused)\b"
                          r"|\s*(?:of (?:the |its )?peak\s+)?(?:is|are)\s+(?:(?:the|all the)\s+)?(?:only\s+)?(?:slack|headroom"
                          r"|spare capacity)\b")
# "the remaining 30%", "remaining room is only the 30%", "maximum recoverable: 30%": what is left, said before it
_REMAINING_BEFORE = re.compile(r"\b(?:the\s+)?(?:remaining|last|final|other|missing)\s*(?:~|≈|about)?\s*$"
                               r"|\b(?:(?:win|wins|won|claw|claws|get|gets|bring|brings)\s+back|recover\w*)\s+(?:most of\s+)?"
                               r"(?:the\s+)?(?:~|≈|about)?\s*$|\b(?:(?:remaining|spare|leftover"
                               r"|free|unused)\s+(?:room|headroom|capacity|slack)|headroom)\s+(?:is|of|=|:)\s*"
                               r"(?:(?:only|just|about|roughly|at most)\s+|[~≈]\s?)*(?:the\s+)?$"
                               r"|\b(?:max(?:imum)?\s+)?recoverable\s*(?:is\s+|=\s*|:\s*)?(?:only\s+|just\s+|about\s+|~\s?)?$"
                               # "bandwidth left on the table is only 0.3 TB/s", "what remains is 30%"
                               r"|\b(?:left(?: on the table| over)?|unused|what remains|what'?s left)\s+(?:is|=|:)\s*"
                               r"(?:(?:only|just|about|roughly|at most)\s+|[~≈]\s?)*$")
_SHORTFALL_OF = re.compile(r"\b(?:shortfall|headroom) of\s*(?:~|≈|about)?\s*$")
_SPARE = re.compile(r"\b(?:unused|left|spare|headroom|remaining|untapped|on the table|unexploited|to spare|free"
                    r"|recoverable)\b")
_CHANGE = re.compile(r"\b(?:increase[sd]?|more|higher|lower|longer|slower|faster|speed-?ups?|less|shorter|drops?|cut|saving|savings"
                     r"|reduction|reduces?|jumps?|jumped|rises?|rose|regression|slow-?downs?|worse|better|improvements?"
                     r"|gains?|grew|grows?|growing|added|adds|increment|fell|falls?|fallen|dropped|declined?|decreased?|up|on top"
                     r"|down|shrinks?|shrank)\b")
_BOUND = re.compile(r"(?:\b(?P<below>under|below|less than|at most|no more than|fewer than|up to|within|not even|not quite"
                    r"|shy of)"
                    r"|\b(?P<above>over|above|more than|at least|beyond|greater than|exceeds?|exceeding)"
                    r"|(?P<lt>(?<!<)<(?![-=])|≤)|(?P<gt>(?<![-=])>|≥))\s*(?:another\s+|a further\s+|an extra\s+)?"
                    r"(?:~|≈|about|roughly|around)?\s*$")
_BOUND_OF_A_VALUE = re.compile(r"[<>≤≥]|\bat (?:most|least)\b|\bno more than\b|\bup to\b")
# A bound with its working between it and the multiplier ("at most 1/0.85 ≈ 1.18×").
_BOUND_WORKED = re.compile(r"\b(?P<below>at most|no more than|up to)\s+\(?[\d.]+\)?\s*[/÷]\s*\(?[\d.]+\)?\s*(?:≈|=|~)\s*$")
# A change whose direction is said just before it: "throughput is down 75%", "ITL rose 75%".
_DIRECTION_BEFORE = re.compile(r"up|down|rose|risen|fell|fallen|dropped|grew|grown|grows?|shrinks?|shrank|shrunk|increased|decreased"
                               r"|rises|falls|drops|climbed|sank|sunk|slid|jumped")
_MADE_UP_OF = re.compile(r"\b(?:mak\w*|made|tak\w*|took)\s+up\s*$")
_RISE_BEFORE = re.compile(r"up|rose|risen|grew|grown|grows?|increased|rises|climbed|jumped")
_CHANGE_OF = re.compile(r"\b(drop|fall|decline|decrease|reduction|cut|loss|saving|rise|increase|jump|gain|growth|slowdown"
                        r"|slow-down)s? (?:of|by) (?:about |roughly |~|≈)?$")
_DIRECTION_WORKED = re.compile(r"\b(up|down|rose|fell|dropped|grew|shrank|increased|decreased|rises|falls|drops)\s+"
                               r"(?:by\s+)?[\d.,\s/÷×*()+−-]+[=≈]\s*~?$")
_EXACTLY = re.compile(r"\b(?:exactly|precisely|guaranteed|definitely|surely|for sure|certainly|will (?:run|be|get|give"
                      r"|come in|come out|land|hit|reach|end up|finish|make it|bring|take|cut|drop|deliver|get (?:it|us|you|ttft))"
                      r"|is going to (?:be|run|come|land|hit|bring|take))\b")
# A figure named first and then promised ("1.43×, and that's exactly what tile tuning will deliver").
_EXACTLY_AFTER = re.compile(r"[^.;!?]{0,15}?\b(?:that'?s|that is|which is|this is)\s+(?:exactly|precisely)\s+what\b")
_WORK_SIZE_NOUN = re.compile(r"\s*(?:of\s+)?(?:the\s+|its\s+)?(?:weights?|params|parameters|model|kv|activations)\b")
_CAPACITY = re.compile(r"\b(?:memory|hbm|vram|capacity|fits?|card|gpu has|of ram)\b")
_NOT_BEFORE = re.compile(r"(?:\b(?:not|no|never|cannot|nor|dont|wont|cant|doesnt|shouldnt|wouldnt)|n't|n’t)"
                         r"(?:\s+[\w'~-]+){0,3}\s*$")  # (the apostrophe left off: "dont expect more than 1.4×")
_HEADROOM = re.compile(r"\b(?:headroom|room|to go|left|short of|away from|from (?:the )?(?:peak|roof)"
                       r"|(?:from|by) (?:better|faster|perfect|tuned|ideal|flawless) kernels?|(?:from|by) (?:kernel )?tuning"
                       r"|reach(?:es|ing)? (?:the )?(?:peak|roof)|perfect(?:ly tuned)?|flawless|ideal"
                       # a speed-up bounded: what is left to a roof, said as its most ("1.43× faster at best")
                       r"|at (?:the )?(?:best|most|max|maximum)|max(?:imum)?|best[- ]case|upper bound|ceiling"
                       r"|no more than|tops? out|most (?:we|you|one|it) (?:can|could))\b")
_OPERAND_OF_PRODUCT = re.compile(r"\s?[×x*]\s*[\d(]")
_FACTOR_AFTER = re.compile(r"[×x]\s*\d")  # "180× 0.62": a factor follows, so the × is a product's
_ARITHMETIC_NEAR = re.compile(r"[*×·/÷()]")
# A percent said of speed ("56% faster", "a 125% speed-up") is a rise in speed: 180 → 80 ms is 125% faster, and its
# 56% is the cut in time.
_RISE = re.compile(r"(?:more|longer|slower|increase\w*|rises?|higher|up|jump\w*|worse|regression|slow-?down|faster"
                   r"|quicker|speed-?ups?)\b")
_FALL = re.compile(r"(?:less|shorter|cut|drops?|lower|down|fewer|reduction|saving\w*|better)\b")
_RULE = re.compile(r"\brules?\s*#?\s*$")
_NUMBERED = re.compile(r"(?:\b(?:lines?|steps?|items?|points?|cells?|no\.?)|#|\b(?:in|out)\s?\[)\s*$")
_NUMBERED_END = re.compile(r"\s*(?:[:.)\]]|\]:)")
_SHRINK = re.compile(r"\bshr[iu]nk")
_HEDGE = re.compile(r"\b(?:nearly|almost|about|roughly|around|close to|~|≈)\s*$|~\s*$")
_SHARE_OF_PEAK = re.compile(r"\b(?!100\s?%)\d+(?:\.\d+)?\s?%\s+of\s+(?:the\s+|its\s+)?peak")
_AT_PEAK = re.compile(r"\b(?:100\s?%|peak|full speed|the roof|roofline speed|theoretical|perfect (?:kernels?|tuning))")
# The roof a time is said at: 100% of it, its peak, full speed.
_ROOF_REACHED = r"(?:100\s?%|(?:the |its |full )?peak\b|the roof|full speed)"
# "get the kernels to 100%", "push it to peak": the roof reached by a move.
_MOVED_TO = (r"\b(?:get|gets|got|getting|bring\w*|tak(?:e|es|ing)|push\w*|driv\w*)\s+(?:[\w-]+\s+){0,3}?to\s+"
             + _ROOF_REACHED)
_AT_THE_ROOF = re.compile(r"\bat (?:100\s?%|(?:the |its |full )?peak|the roof|full speed|full (?:rating|rate|power|throughput))|"
                          + _MOVED_TO)
_COMPLETE = re.compile(r"\b(?:would|could|at)\b")
# The same roof in the clause just before a time's ("get kernels to 100% and TTFT is …"; "if it ran at 100% of peak,
# TTFT would be …"), the condition closing where the time's clause opens.
_MOVED_TO_THE_ROOF = re.compile(_MOVED_TO + r"(?:\s+of\s+(?:the\s+|its\s+)?peak)?\s*,?\s*(?:and|then)?\s*$")
_IF_AT_THE_ROOF = re.compile(r"\b(?:if|once|when|suppose)\b[^.;:]{0,60}?\b(?:to|at|hit\w*|reach\w*)\s+" + _ROOF_REACHED
                             + r"(?:\s+(?:of\s+)?(?:the\s+|its\s+)?(?:peak|roof))?\s*,?\s*(?:then\s+)?$")
# What a clause after such a condition says the time comes to: "if kernels reach 100% peak, time becomes 68 ms".
_COMES_TO = re.compile(r"\b(?:would|could|at|becomes?|takes?|will be|drops? to|falls? to|comes? down to|goes? (?:down )?to)\b")
# A clause about what would or could be, not what is ("int8 would halve it to 23 ms").
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might|if|once|after|target|wants?|goal|needs? to|should|halv\w*|doubl\w*"
                           r"|instead|best case|ideal\w*|theoretical\w*|int8|int4|fp8|quantis\w*|quantiz\w*)\b")
# An operator may follow a word that names what the number counts ("40,000 launches × 10 µs").
# "2 µs on / 8 µs off" names two spans, it divides nothing.
_OPERATOR = re.compile(r"\s?(?:(?:per|a|each|every) (?:step|token|request|call|iteration|pass) (?=at\b))?"
                       r"(?:(?!(?:on|off|busy|idle|kernel|gap|compute|work)\b)[a-z]+\s?)?"
                       r"(?P<op>/|÷|×|\*|·|(?<=\s)x(?=\s)|\bover\b|\bdivided by\b|\btimes\b|\bat\b)[^\S\n]?")  # (a line ends it)
_RELATION = re.compile(r"\s?(?:(?:of|per|a|each) [a-z]+\s?(?=[=≈≃~]))?(?:(?!is\b)[a-z]+\s?)?(?:=|≈|≃|~|\bis about\b|\bis roughly\b|\bis\b|\bgives\b|\bequals\b"
                       r"|\bcomes to\b|\bmeans\b)\s?(?:[~≈]\s?)?")
_ARROW = re.compile(r"\s?(?:→|->|=>|\bto\b|\bup to\b|\bjumps? to\b|\bwent to\b|\b(?:down|drops?|dropped|falls?|fell|goes"
                    r"|went down|comes? down|cut|reduced|shrinks?|shrank|rises?|rose|climbs?|climbed|grows?|grew) to\b)\s?"
                    r"(?:(?:about|around|roughly|approximately|nearly)\s|~\s?|≈\s?)?")
_POWER = re.compile(r"(?:\^|\*\*)\{?(\d{1,2})(?![\d.])\}?|([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2})(?![⁰¹²³⁴⁵⁶⁷⁸⁹])")
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


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
    spare: bool = False  # a share of a roof said of what is left ("15% of the bandwidth unused")
    change: bool = False  # a percent said of a change ("+75%", "a 44% speed-up")
    bound: str | None = None  # "<" or ">": said as a bound ("well under 1 µs", "at least 2×")
    at_peak: bool = False  # a time said of the roof's 100% ("at 100% of peak it would take 112 ms")
    of_time: bool = False  # a share said of the time ("busy 70% of the time")
    direction: str | None = None  # "+" or "-": a change said to raise or to cut ("+75%", "43% more", "56% less")
    span: str | None = None  # "busy" or "idle": which part of a timeline a time is ("2 µs of kernel", "8 µs gaps")
    capacity: bool = False  # a size said of a card's memory ("80 GB of HBM", "fits in 141 GB"), not of bytes moved

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
    operands: tuple[int, ...] = ()  # where each operand starts in the line
    #: ``x − a / b`` read as the difference (what "1 − 1/3.8 ≈ 74%" means): the chain here is ``a / b``.
    complement: float | None = None
    less: float | None = None  # the ``x`` it is taken from
    #: An operand written in the result's own unit ("40,000 × 8 µs = 320 µs"): no prefix was left off the line.
    unit_kept: bool = False


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


_KEY_WORDS = 5


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - _REACH)
    before = list(_CLAUSE.finditer(text, lo, start))
    after = _CLAUSE.search(text, end, end + _REACH)
    # A value right after "key: " is that key's ("headroom at peak bw: 1.85×"): its clause takes the key in, where the
    # key is a label (a few words, no figures), not a clause of its own ("8 → 14 ms with the same kernels: 6 ms …").
    if before and text[before[-1].start()] == ":" and not text[before[-1].end():start].strip():
        key = text[before[-2].end() if len(before) > 1 else lo:before[-1].start()]
        if len(key.split()) <= _KEY_WORDS and not any(c.isdigit() for c in key):
            before.pop()
    return (before[-1].end() if before else lo), (after.start() if after else min(len(text), end + _REACH))


_HEDGE_WORD = re.compile(r"about|roughly|around|approximately|approx\.?|nearly|almost|some|~|≈")


def _word_before(text: str) -> str:
    """The last word of ``text``, a hedge passed over ("ITL's up about 43%": "up")."""
    words = text.split()
    if len(words) > 1 and _HEDGE_WORD.fullmatch(words[-1]):
        words = words[:-1]
    if len(words) > 1 and words[-1] == "by" and words[-2] != "down":  # "the ITL went up by about 43%": the direction
        words = words[:-1]  # before "by" ("slowing down by 75%" is slower, no fall)
    return words[-1] if words else ""


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


_THEN = re.compile(r"\s*(?:then|and then|before|after|followed by)\b")


def _side_said(text: str, lo: int, start: int, end: int, dim: Dim, *, multiplier: bool) -> str | None:
    """The side of the ridge said of a figure ("1365 FLOP/byte, which is above the ridge"; "about 9× below it").

    A multiplier says which side the kernel is on, and how far; a side is denied only by the words right before it
    ("not above the ridge"), not by a "cannot" later in the clause.
    """
    if multiplier:
        found = _SIDE_NEXT.match(text, end + 1 if text[end:end + 1] in ("×", "x") else end)
        if found and not _SIDE_DENIED.search(text, max(0, found.start() - 16), found.start() + 4):
            return "below" if found["word"] in _BELOW else "above"
        return None
    if dim not in (Dim.INTENSITY, Dim.COUNT):
        return None
    # a side said before a colon of each figure listed after it: "every kernel sits above it: the add at 0.33, …"
    listed = _SIDE_BEFORE_A_LIST.search(text, max(0, start - 80), start)
    if listed and not _SIDE_DENIED.search(text, max(0, listed.start() - 16), listed.start() + 4):
        return "below" if listed["word"] in _BELOW else "above"
    found = _SIDE.search(text, end, end + _REACH // 2)
    between = text[end:found.start()] if found else ""
    if not found or re.search(r"\d", re.sub(r"\d+(?:\.\d+)?\s?×", "", between)) or "ridge of" in text[lo:start][-12:]:
        return None
    if re.search(r"[.;!?](?:\s|$)", between):
        return None  # "ridge 156. int below ridge": the next sentence's side is its own subject's
    side = "below" if found["word"] in _BELOW else "above"
    denied = _SIDE_DENIED.search(text, max(0, found.start() - 16), found.start() + 4)
    return _flip(side, ("above", "below")) if denied else side


_SIDE_BEFORE_A_LIST = re.compile(r"\b(?P<word>above|over|below|under|beneath)\s+(?:it|the ridge|that|this)\s*:\s*[^.;:]*?"
                                 r"(?:\bat\s+|\bis\s+|=\s*)(?:~|≈|about\s+)?$")
_BRACKET_AFTER_A_FIGURE = re.compile(r"\d\s?[a-zA-Zµ/]{0,8}\s?\(\s*(?:~|≈|about\s)?$")


def _spare_said(text: str, at: tuple[int, int, int], before: str, after: str, *, roof: bool) -> bool:
    """Whether a share is said of what is left under a roof (``at``: its clause's start, its own start and end).

    "a 30% shortfall", "headroom of 18%": a word of what is left needs no roof only right beside its number; "the
    speed-up left from 70% of peak" starts from the 70%: it is not what is left.
    """
    lo, start, end = at
    said_left = _SPARE.search(before + " " + after)
    if said_left and said_left.end() <= len(before) and re.match(r"\s*from\b", before[said_left.end():]):
        said_left = _SPARE.search(after)
    # the same left-over said again in brackets after its figure ("left on the table is only 0.3 TB/s (15%)")
    restated = bool(_BRACKET_AFTER_A_FIGURE.search(text, max(0, start - 20), start)) and bool(
        _SPARE.search(text, max(0, start - 60), start))
    return ((roof and bool(said_left)) or restated or bool(_SHORTFALL.match(text, end) or _SHORTFALL_OF.search(text, lo, start))
            or bool(_GAP_TO_ROOF.match(text, end))
            or bool(_LEFT_BESIDE.match(text, end) or _REMAINING_BEFORE.search(text, lo, start)))


_OF_THE_WHOLE = re.compile(r"\s*of (?:it|that|them|those|this|which|the total|the whole)(?: (?:is|are|was|in|as))?\b")


def _span_said(text: str, lo: int, start: int, end: int, hi: int) -> str | None:
    """What part of a timeline a time is ("2 µs of kernel", "8 µs gaps"), from the words right beside it.

    The words after a time name it only up to a connective ("drives 2 µs then waits 8 µs": "waits" is the 8 µs's);
    "on" is read with the word after it ("lives on the host" is no time on).
    """
    rest = text[end:hi]
    if found := _OF_THE_WHOLE.match(rest):  # "80 ms of it gaps", "320 ms of which is gaps": the words after that
        rest = rest[found.end():]
    if found := _OF_EVERY_CYCLE.match(rest):  # "spending 8 µs of every 10 µs in gaps": the words after the cycle
        rest = rest[found.end():]
    rest = _NEXT_TERM.split(rest, maxsplit=1)[0]  # "kernel 2 µs + gap 8 µs": "gap" is the next term's
    following = rest.split()[:3]
    following = following if following[1:2] == ["on"] else following[:2]
    # the words before a time after "then" are its own: "2 µs working then 8 µs …" gives "working" to the 2 µs
    before = text[lo:start]
    if (joined := list(_JOINED_BEFORE.finditer(before))):
        before = before[joined[-1].end():]
    return _nearest(_SPAN_WORDS, _words(before, 2, last=True),
                    "" if _THEN.match(text, end) else " ".join(following))


_PART_IS = re.compile(r"\b(?P<part>[a-z]+)\s+(?:line|time|total|part|portion|share|side|bit|lane|row)?\s*(?:is|are|was|=|:)\s*"
                      r"(?:~\s?|≈\s?|about\s+|only\s+|just\s+)?$")
_OF_EVERY_CYCLE = re.compile(r"\s*(?:of|out of|in)\s+(?:every|each|a|the)?\s*[\d.]+\s*[µnm]?s\b")
_NEXT_TERM = re.compile(r"\s[+=→×*/]\s|\s-\s|\s(?:against|vs\.?|versus|compared (?:with|to))\s")  # "8 µs against kernel 2 µs"
_JOINED_BEFORE = re.compile(r"\b(?:then|followed by|and then|after that)\b")


_AT_A_SHARE = re.compile(r"\s*[(,]?\s*at\s+(?!100\b)\d+(?:\.\d+)?\s?%")
# A time a change starts from: "at 100% the 180 ms would drop to 112 ms", "180 ms only gets to 112 ms".
_CHANGES_TO = re.compile(r"\s?(?:(?:would|could|will|might|only|then|just)\s)*(?:(?:drop|fall|go|get|come|shrink|turn"
                         r"|become|be cut|go down|come down|fall)s?\s(?:down\s)?)?(?:to|→|->)\s?(?:about\s|~|≈)?\d")
# A share of some work's count ("0.01% of the matmul's FLOPs"), not of a roof ("70% of the flops are unused").
_OF_THE_WORK = re.compile(r"\s*of\s+(?:the\s+|its\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}?(?:[\w-]+['’]s|matmul|gemm|relu|kernel|chain"
                          r"|layer|model|op|total|useful)\s+(?:flops|flop count|operations|ops|bytes|traffic)\b"
                          r"(?!\s*/\s*s|\s+(?:per|a)\s+second)")
_OF_A_TIME_IS = re.compile(r"\s*of\s+(?:the\s+|its\s+)?(?:~\s?)?[\d.,]+\s*(?:ms|µs|ns|s)\s+(?:is|are|was|were)\s+(?:spent\s+)?"
                           r"(?:(?:just|all|pure|simply)\s+)?(?P<word>idle|wasted|waiting|stalled|busy|working|computing)\b")
_COPULA = re.compile(r"\s*(?:(?:is|are|was|means|represents|stands for|measures)\b|[=≈])")


_WHAT_CHANGED = re.compile(r"throughput|speed|latency|itl|ttft|time|runtime|rate|bandwidth")


def _change_named_before(text: str, lo: int, start: int) -> str:
    """"up" or "down" where a change is named just before a percent ("a drop of 43%", "an increase of 75%"), or ""."""
    named = _CHANGE_OF.search(text, max(lo, start - 24), start)
    if named is None:
        return ""
    return "up" if named[1].startswith(("rise", "increase", "jump", "gain", "growth", "slow")) else "down"


_NEXT_NUMBER = re.compile(r"\d")
# What ends another figure's words before this one: "8 µs gap → 20%", "2 µs kernel : 8 µs gap, 20%".
_HANDED_ON = re.compile(r"\d[^\d]*?(?:→|->|=>|[:;,/])[^\d]*$")


def _own_words(text: str, lo: int, start: int, end: int, hi: int) -> tuple[str, str]:
    """The words beside a share that are its own, before it and after it.

    After it, up to the next figure and its label ("busy 20% / idle 80%": "idle" is the 80%'s); before it, from the
    last figure's separator on ("8 µs gap → 20%": "gap" is the 8 µs's).
    """
    rest = text[end:hi]
    nxt = _NEXT_NUMBER.search(rest)
    if nxt:  # the words up to the next figure, but not those after a separator, which are its label ("/ idle 80%")
        rest = rest[:nxt.start()]
        cuts = [i for i in (rest.find(mark) for mark in ("→", "->", "/", ",", ";")) if i >= 0]
        rest = rest[:min(cuts)] if cuts else rest
    after = _words(rest, 6, last=False)
    ahead = text[lo:start]
    handed = _HANDED_ON.search(ahead)
    if handed:
        cut = max(ahead.rfind(mark) for mark in ("→", "->", "=>", ":", ";", ",", "/"))
        ahead = ahead[cut + 1:] if cut >= 0 else ahead
    return _words(ahead, 4, last=True), after


def _share_roof(text: str, end: int, hi: int, before: str, after: str) -> str | None:
    """Which roof a share is of, from its words: "flops", "bandwidth" or None."""
    if _OF_THE_WORK.match(text, end):  # "the relu is 0.01% of the matmul's FLOPs": a share of work, of no roof
        return None
    # "62% is like how much of the memory bandwidth is used": what a share is of may follow its copula far off
    return _nearest(_ROOF_WORDS, before, _words(text[end:hi], 9, last=False) if _COPULA.match(text, end) else after)


def _share_said(text: str, at: tuple[int, int, int, int], dim: Dim, metric: str | None, before: str) -> str | None:
    """Which part of the time a share is ("busy" or "idle"), from its own words, or None."""
    lo, start, end, hi = at
    share = _nearest(_SHARE_WORDS, *_own_words(text, lo, start, end, hi)) if (
        dim is Dim.FRACTION and metric != "occupancy") else None
    if share is None and dim is Dim.FRACTION and metric != "occupancy":  # "busy share = 2/8 = 25%": the label's
        # ... or the label right before the working ("the GPU's busy 8/(2+8) = 80%")
        written = re.search(r"([a-z][a-z ]{0,30}?)\s*(?:[=:]\s*(?:[\d.\s/+×*()-]*=\s*)?|[\d.\s/+×*()-]*\d[\d.\s/+×*()-]*=\s*)$",
                            text[max(0, start - 80):start])
        share = _nearest(_SHARE_WORDS, written[1], "") if written else None
    if share is None and dim is Dim.FRACTION and (of_a_time := _OF_A_TIME_IS.match(text, end)):
        share = "busy" if of_a_time["word"] in ("busy", "working", "computing") else "idle"  # "62% of the 180 ms is idle"
    if metric == "gpu_util":
        share = "busy"  # GPU-Util is the share of time some kernel runs
    # "not busy 20%", "isn't idle": a share is denied by the words before it ("the FLOPs are trivial" later denies
    # something else)
    if share is not None and re.search(r"\b(?:not|never|isn'?t|aren'?t|wasn'?t|no longer)\b", before):
        share = _flip(share, ("busy", "idle"))
    if share == "idle" and _GAP_TO_ROOF.match(text, end):  # "a 30% gap to the peak" is what is left, not idle time
        share = None
    return share


def _claim(text: str, value: float, dim: Dim, start: int, end: int) -> Claim:
    lo, hi = _clause_bounds(text, start, end)
    before, after = _words(text[lo:start], 4, last=True), _words(text[end:hi], 6, last=False)
    # "3.8× faster" is a multiplier; "180× 0.62" (normalised "180 × 0.62") is an operand of a product
    multiplier = text[end:end + 1] in ("×", "x") and dim is Dim.COUNT and not _FACTOR_AFTER.match(text, end)
    roof = _share_roof(text, end, hi, before, after) if dim is Dim.FRACTION else {
        Dim.FLOP_RATE: "flops", Dim.BYTE_RATE: "bandwidth"}.get(dim)
    # A label before the figure reaches across a colon ("occupancy: 62%").
    label = _words(text[max(0, start - 40):start], 3, last=True)
    metric = _nearest(_METRIC_WORDS, label, after) if dim is Dim.FRACTION else None
    share = _share_said(text, (lo, start, end, hi), dim, metric, before)
    side = _side_said(text, lo, start, end, dim, multiplier=multiplier)
    # "the size dropped 16384×" is said of the work, not of its time
    speed = multiplier and bool(_SPEED.search(text, max(0, start - _REACH // 2), hi)) and not _SIZE_WORDS.search(before)
    spare = dim is Dim.FRACTION and _spare_said(text, (lo, start, end), before, _own_words(text, lo, start, end, hi)[1],
                                                roof=roof is not None)
    # a rate said to be left under its roof, right beside it ("0.3 TB/s left on the table", "0.3 TB/s of headroom")
    spare = spare or (dim in (Dim.BYTE_RATE, Dim.FLOP_RATE) and _spare_said(text, (lo, start, end), "", "", roof=False))
    # A percent is a change only where the change is said of it: "+75%", "75% slower", "a 44% speed-up", "cut by 56%"
    # ("85% of peak; compile made it 3.8× faster" says no change of 85%).
    sign, word = text[max(0, start - 2):start].strip()[-1:], _words(text[end:hi], 1, last=False)  # "(+75%)" too
    if _WHAT_CHANGED.fullmatch(word):  # "a 75% throughput drop": the change word after what changed
        word = (_words(text[end:hi], 2, last=False).split()[1:] or [word])[0]
    if _SPACED_DASH.search(text, max(0, start - 5), start):  # "liming 8 µs - 20% busy": a dash between clauses
        sign = ""
    # "ITL rose 6/14 = 43%": the direction word before the working is the result's
    # ("a drop of 43%", "an increase of 75%": the change named before its figure)
    just_before = (named if dim is Dim.FRACTION and (named := _change_named_before(text, lo, start))
                   else worked[1] if (worked := _DIRECTION_WORKED.search(text, max(lo, start - 40), start))
                   else _word_before(text[lo:start]))
    said_before = dim is Dim.FRACTION and bool(_DIRECTION_BEFORE.fullmatch(just_before)) and not _MADE_UP_OF.search(
        text, max(lo, start - 14), start)  # "the gaps that make up 80% of each cycle" is a share, no rise
    change = dim is Dim.FRACTION and (sign in ("+", "-", "−") or bool(_CHANGE.match(word)) or said_before
                                      or (bool(re.search(r"\bby\s*$", text[max(lo, start - 6):start]))
                                          and bool(_CHANGE.search(_words(text[lo:start], 3, last=True)))))
    bound = None
    if dim is not Dim.COUNT or multiplier:
        window = max(lo, start - 24)
        found = _BOUND.search(text[window:start]) or (_BOUND_WORKED.search(text[max(0, start - 40):start])
                                                      if multiplier else None)  # its brackets end no clause
        window = window if found is None or found.re is _BOUND else max(0, start - 40)
        if found and dim is Dim.INTENSITY and not _BOUND_OF_A_VALUE.search(found.group()):
            found = None  # "below 156 FLOP/byte" places a kernel against the ridge; "≤ 0.25 FLOP/B" bounds the value
        if found:
            bound = "<" if found["below"] or found["lt"] else ">"
            # "I wouldn't expect more than 1.4×" is at most 1.4×: a bound under a negation turns over.
            if _NOT_BEFORE.search(text, max(lo, window + found.start() - 40), window + found.start()):
                bound = ">" if bound == "<" else "<"
    hypothetical = bool(_HYPOTHETICAL.search(text, lo, hi))
    clause = text[lo:hi]
    others = clause.replace(text[start:end], "")
    # "at 100% it would take 112 ms", "even at 100% it's 180 × 0.62 ≈ 112 ms": a time said of the roof itself
    # "hitting 80 ms would need 140% of peak" names a share of the peak, not the roof reached
    roof_named = bool(_AT_PEAK.search(_SHARE_OF_PEAK.sub(" ", others)))
    # "180 ms at 62% → at 100% about 112 ms": a time said at a share of the roof is the measured one
    at_peak = dim is Dim.SECOND and not _AT_A_SHARE.match(text, end) and not _CHANGES_TO.match(text, end) and (
        (hypothetical and roof_named and bool(_COMPLETE.search(clause))) or bool(_AT_THE_ROOF.search(others))
        # "if we got the kernels to 100% of peak, TTFT would come down to about 80 ms": the roof in the condition
        or (bool(_COMES_TO.search(clause)) and bool(_IF_AT_THE_ROOF.search(text, max(0, lo - 80), lo)))
        # "get kernels to 100% and TTFT is 180 × 0.38 ≈ 68 ms": the roof reached by a move, then what it gives
        or bool(_MOVED_TO_THE_ROOF.search(text, max(0, lo - 80), lo)))
    direction = None
    if change:
        direction = ("+" if sign == "+" or _RISE.match(word) else "-" if sign in ("-", "−") or _FALL.match(word)
                     else None)
        if direction is None and said_before:
            direction = "+" if _RISE_BEFORE.fullmatch(just_before) else "-"
        by = re.search(r"\b(\w+) by\s*$", text[max(lo, start - 30):start])  # "throughput fell by 75%"
        if direction is None and by and _DIRECTION_BEFORE.fullmatch(by[1]):
            direction = "+" if _RISE_BEFORE.fullmatch(by[1]) else "-"
            if by[1] == "down" and re.search(r"\bslow\w*\s+down\s+by\s*$", text[max(lo, start - 30):start]):
                direction = "+"  # "the kernels slowing down by 75%": slower, the time up
    # "62% of the time" is a share of the time, said with a busy or idle word or not
    of_time = dim is Dim.FRACTION and bool(re.match(r"\s*of (?:the |its |all )?(?:time|timeline|wall)\b", text[end:hi]))
    # Only the words right beside a time name its span ("2 µs of kernel", "8 µs gaps", "gaps of 8 µs").
    span = _span_said(text, lo, start, end, hi) if dim is Dim.SECOND else None
    # a size of the work ("140 GB of weights to drag through HBM") is no card's memory, whatever follows it
    capacity = dim is Dim.BYTE and bool(_CAPACITY.search(f"{before} {text[end:min(hi, end + 40)]}")) and not \
        _WORK_SIZE_NOUN.match(text, end)
    return Claim(value, dim, start, end, text[start:end], roof, side, share,
                 hypothetical, multiplier, metric, speed, spare, change, bound, at_peak, of_time, direction, span,
                 capacity)


def _power(text: str, claim: Claim) -> tuple[float, int]:
    """A claim's value raised to a power written right after it (``4096^3``, ``4096³``), and where it ends."""
    found = _POWER.match(text, claim.end)
    if not found or claim.dim is not Dim.COUNT:
        return claim.value, claim.end
    exponent = int(found[1]) if found[1] else int(found[2].translate(_SUPER))
    return claim.value ** exponent, found.end()


_RESULT_DIM = {
    (Dim.BYTE, "/", Dim.BYTE_RATE): Dim.SECOND, (Dim.FLOP, "/", Dim.FLOP_RATE): Dim.SECOND,
    (Dim.FLOP, "/", Dim.BYTE): Dim.INTENSITY, (Dim.FLOP_RATE, "/", Dim.BYTE_RATE): Dim.INTENSITY,
    (Dim.BYTE_RATE, "/", Dim.BYTE_RATE): Dim.FRACTION, (Dim.FLOP_RATE, "/", Dim.FLOP_RATE): Dim.FRACTION,
}


@dataclass
class _Chain:
    """Arithmetic being read left to right: its value so far, unit, text, operands, and where reading stands."""

    value: float
    dim: Dim
    written: str
    units: list[Dim]
    starts: list[int]
    at: int
    numerator: float  # for the reading a / (b × c)
    denominator: float | None = None
    operators: int = 0
    last: int = -1  # where the last operand starts
    added: bool = False  # a "+" read ("2 + 8 = 10 µs")
    mixed: bool = False  # "+" beside × or ÷: its order is not read here, so the chain is no sum


_PLUS = re.compile(r"\s?(?P<op>\+)\s?")
_PLUS_BEFORE = re.compile(r"\+\s?$")


def _extend(text: str, chain: _Chain, by_start: dict[int, Claim], start: int) -> None:
    """Read operators and operands after the chain (from ``start``), then a count its product is said of each of."""
    _read_operators(text, chain, by_start)
    chain.value, chain.written = _for_each(text, start, chain.at, chain.value, chain.written)


def _read_operators(text: str, chain: _Chain, by_start: dict[int, Claim]) -> None:
    """Read operators and operands after the chain for as long as they follow one another."""
    while True:
        op = _OPERATOR.match(text, chain.at)
        nxt = by_start.get(op.end()) if op else None
        share_of = _SHARE_OF.match(text, chain.at) if chain.dim is Dim.FRACTION and not chain.operators else None
        if op is None and share_of is not None and (whole := by_start.get(share_of.end())) is not None and (
                whole.dim not in (Dim.COUNT, Dim.FRACTION)):
            op, nxt = share_of, whole  # "70% of 312 TFLOP/s is 218 TFLOP/s": a share of a figure is their product
        if op is None and (plus := _PLUS.match(text, chain.at)) and (term := by_start.get(plus.end())) is not None and (
                term.dim is chain.dim or Dim.COUNT in (term.dim, chain.dim)) and term.dim is not Dim.FRACTION:
            chain.last = term.start
            operand, chain.at = _power(text, term)
            chain.mixed = chain.mixed or (chain.operators > 0 and not chain.added)
            chain.dim = chain.dim if chain.dim is not Dim.COUNT else term.dim
            chain.value += operand
            chain.numerator, chain.added = chain.value, True
            chain.written += f" + {text[term.start:chain.at]}"
            chain.starts.append(term.start)
            chain.units.append(term.dim)
            chain.operators += 1
            continue
        if op is None or nxt is None or (op["op"] == "at" and (chain.dim, nxt.dim) not in _AT_PAIRS):
            return
        chain.mixed = chain.mixed or chain.added
        chain.last = nxt.start
        operand, chain.at = _power(text, nxt)
        sym = "/" if op["op"] == "at" and (chain.dim, nxt.dim) in _FLOOR_PAIRS else _op(op["op"].replace("of", "×"))
        chain.dim = _RESULT_DIM.get((chain.dim, sym, nxt.dim), chain.dim if nxt.dim is Dim.COUNT else
                                    nxt.dim if chain.dim is Dim.COUNT and sym != "/" else Dim.COUNT)
        chain.value = _apply(chain.value, sym, operand)
        if chain.denominator is not None:
            chain.denominator *= operand
        elif sym == "/":
            chain.denominator = operand
        else:
            chain.numerator *= operand
        chain.written += f" {op['op'].strip()} {text[nxt.start:chain.at]}"
        chain.starts.append(nxt.start)
        chain.units.append(nxt.dim)
        chain.operators += 1


def _raised(text: str, result: Claim | None) -> Claim | None:
    """A sum's result with the power written after it ("= 2²⁷" is 134,217,728, not 2)."""
    if result is None or (raised := _power(text, result))[1] == result.end:
        return result
    return dataclasses.replace(result, value=raised[0], end=raised[1], written=text[result.start:raised[1]])


def _opens_on(text: str, claim: Claim, claims: list[Claim], previous_end: int) -> re.Match[str] | None:
    """The operator right before ``claim`` that goes on from the last result ("= 1356; × 2 = 2712"), or None.

    Not after ")" (a bracket not read here: "(125 − 71.4)/125"), not after a one-letter name ("intensity n/3"
    divides the name), and not where another number stands between ("8 × 2k. each byte does 2 flops per token × 8":
    the × is the nearer number's).
    """
    lead = _OPERATOR.search(text, max(0, claim.start - 4), claim.start)
    if lead is None or lead.end() != claim.start or lead["op"] == "at":
        return None
    before = text[lead.start() - 1:lead.start()]
    if before.isdigit() or before == ")" or _NAMED_OPERAND.search(text, max(0, lead.start("op") - 3), lead.start("op")):
        return None
    if _SENTENCE_END.search(text, previous_end, lead.start()):
        return None  # "busy = 2/10 = 20 %. × 40 000 = 0.4 s": a new sentence may go on from any figure before it
    return None if any(previous_end <= c.start < claim.start for c in claims) else lead


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def _sums(text: str, claims: list[Claim]) -> list[Sum]:
    """Arithmetic chains ``a op b [op c] (=|≈) r``; a chain opening with an operator goes on from the last result."""
    out: list[Sum] = []
    by_start = {c.start: c for c in claims}
    index = {c.start: n for n, c in enumerate(claims)}
    previous: tuple[float, Dim, str] | None = None
    previous_end = 0  # where the text that previous was read from ends
    i = 0
    while i < len(claims):
        claim = claims[i]
        value, at = _power(text, claim)
        dim, written, units = claim.dim, text[claim.start:at], [claim.dim]
        led = (lead := _opens_on(text, claim, claims, previous_end) if previous is not None else None) is not None
        if led and previous is not None and lead is not None:
            pvalue, pdim, pwritten = previous
            value, dim, written, units = _apply(pvalue, lead["op"], value), pdim, f"{pwritten} {lead['op']} {written}", [pdim, claim.dim]
        chain = _Chain(value, dim, written, units, [claim.start], at, value)
        _extend(text, chain, by_start, claim.start)
        # a product after "+" is one term of a sum ("40,000 × 2 µs + 40,000 × 8 µs = 400 ms"), not the whole
        chain.mixed = chain.mixed or bool(chain.operators and _PLUS_BEFORE.search(text, max(0, claim.start - 3),
                                                                                    claim.start))
        if chain.mixed or any(_VARIABLE.match(text, by_start[n].end) for n in chain.starts if n in by_start) or (
                _VARIABLE_BEFORE.search(text, max(0, claim.start - 3), claim.start)):  # "x*2+1": code, not arithmetic
            i += 1  # algebra on a variable ("2n^3/(3·2n^2) = n/3"): its numbers are coefficients, not operands
            previous = None
            continue
        value, dim, written, units, at, operators = (chain.value, chain.dim, chain.written, chain.units, chain.at,
                                                     chain.operators)
        numerator, denominator, starts = chain.numerator, chain.denominator, chain.starts
        j = index[chain.last] if chain.last >= 0 else i
        result = _result_after(text, claim, at, by_start, alone=not operators and not led, product=denominator is None)
        conversion = _conversion_said(text, claim, result) if not operators and not led else None
        if conversion is not None and result is not None:
            out.append(conversion)
            previous, previous_end = (result.value, result.dim, text[result.start:result.end]), result.end
            i = index[result.start]
            continue
        after = _OPERATOR.match(text, result.end) if result is not None else None
        if after is not None and after["op"] == "at" and result is not None and after.end() in by_start and (
                result.dim, by_start[after.end()].dim) not in _AT_PAIRS:
            after = None  # "≈ 112 ms at 100% peak": "at" names where, it multiplies nothing
        if result is not None and after is not None and after.end() in by_start:  # "2 × 4096³ = 2 × 68,719,476,736 = …": read on from the right side
            previous = None
            i = index[result.start]
            continue
        if result is not None and (operators or led):
            if math.isfinite(value):
                over_all = numerator / denominator if denominator else None
                # "1 − 1/3.8": the chain read here is 1/3.8; what the line states is its complement.
                # "1 − 1/3.8", "12 - 12/1.08": the chain read here is the part after the minus; the line states
                # the difference.
                less = _LESS.search(text, max(0, claim.start - 12), claim.start)
                minuend = float(less[1]) if less and dim in (Dim.COUNT, Dim.FRACTION) else None
                out.append(Sum(written, value, result, result.dim if result.dim is not Dim.COUNT else dim,
                               Dim.COUNT in units, over_all, denominator, tuple(starts),
                               None if minuend is None else minuend - value, minuend,
                               result.dim is not Dim.COUNT and result.dim in units))
                previous, previous_end = (result.value, out[-1].dim, text[result.start:result.end]), result.end
            i = index[result.start]
            continue
        previous, previous_end = (((value, dim, written), at) if operators and not chain.added  # "(2 + 8) µs × …":
                                  else (previous, previous_end))  # brackets unread
        i = j + 1
    return out


_VARIABLE = re.compile(r"[nkmxy](?![a-z])")
_VARIABLE_BEFORE = re.compile(r"(?<![a-z0-9])[a-z]\s?[*×/+-]\s?$")
# "A, B, C at 4096^2 × 2 bytes each ≈ 100.7 MB": a product said of each of the items named just before it.
_EACH = re.compile(r"\s*each\b")
_ITEMS_NAMED = re.compile(r"\b([a-z])(?:\s*,\s*|\s+and\s+)([a-z])(?:(?:\s*,\s*|\s+and\s+)([a-z]))?(?:(?:\s*,\s*|\s+and\s+)"
                          r"([a-z]))?\b[^.;]{0,16}$|\b(two|three|four|[234])\s+(?:[\w-]+\s+)?(?:matrices|tensors|operands|arrays"
                          r"|buffers|inputs)\b[^.;]{0,16}$")
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}


def _for_each(text: str, start: int, at: int, value: float, written: str) -> tuple[float, str]:
    """A product said of each of the items named before it, times their count; else the product as it is."""
    if not _EACH.match(text, at):
        return value, written
    named = _ITEMS_NAMED.search(text, max(0, start - 40), start)
    if named is None:
        return value, written
    count = _COUNT_WORDS[named[5]] if named[5] else sum(1 for g in named.groups()[:4] if g)
    return value * count, f"{count} × ({written})"
_RATIO_SAID_AFTER = re.compile(r"\s?[×x]\s*(?:less|more|smaller|larger|bigger|fewer|faster|slower|quicker|the size)\b")
# "4,096 tokens in 180 ms is ~22,800 tokens/s": the tokens over the time, not one over it
_TOKENS_IN = re.compile(r"\d\s*(?:-\s?)?(?:prompt\s+|input\s+)?tok(?:en)?s?\s+(?:in|over|per|within)\s+(?:about\s+|~\s?)?$")
_NAMED_OPERAND = re.compile(r"(?<![a-z])[a-z]\s?$")
_SHARE_OF = re.compile(r"\s?(?P<op>of)\s")
_LESS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[−-]\s*\(?\s*$")
# "14 GB at 300 GB/s" divides; "40,000 launches at 10 µs" multiplies; "at" between other figures is no operator.
_FLOOR_PAIRS = {(Dim.BYTE, Dim.BYTE_RATE), (Dim.FLOP, Dim.FLOP_RATE)}
_AT_PAIRS = {*_FLOOR_PAIRS, (Dim.COUNT, Dim.SECOND)}


# "11.7 ms a token, so about 85 tok/s": a time per token and the rate it comes to, the rate closing its clause.
_SO_LINK = re.compile(r",?\s?(?:(?:so|thus|hence|i\.e\.,?|or|which is|that's|that is)\s|→\s?|->\s?)(?:about\s|roughly\s|around\s"
                      r"|~\s?|≈\s?)?")
_TOKEN_TIME_LINK = re.compile(r",?\s?(?:so|thus|hence|i\.e\.,?|or|which is|that's|that is|meaning)\s(?:(?:each|a|one|per|every)"
                              r" token(?:'s|\s(?:is|takes))\s)?(?:about\s|roughly\s|around\s|~\s?|≈\s?)?")
_COMMA_LINK = re.compile(r",\s?(?:about\s|roughly\s|around\s|~\s?|≈\s?)?")
_PER_TOKEN = re.compile(r"\s?(?:/\s?|(?:a|per|each)\s)tok(?:en)?s?\b")
_CLAUSE_CLOSES = re.compile(r"\s?(?:[.,;:)!?—–]|$|\s(?:ceiling|max\w*|tops|at (?:best|most)|or so|and\b))")


def _result_after(text: str, claim: Claim, at: int, by_start: dict[int, Claim], *, alone: bool,
                  product: bool = False) -> Claim | None:
    """The result a chain ending at ``at`` is said to give ("= 47 ms"); for a figure ``alone``, the rate a time is.

    After a ``product`` (no division), a multiplier said of a comparison is no result: "8×32×32 is 16,384× less
    data" is a ratio said of the two shapes.
    """
    relation = _RELATION.match(text, at)
    result = _raised(text, by_start.get(relation.end())) if relation else None
    if result is not None and product and result.multiplier and _RATIO_SAID_AFTER.match(text, result.end):
        return None
    return _rate_said_after(text, claim, at, by_start) if result is None and alone else result


def _rate_said_after(text: str, claim: Claim, at: int, by_start: dict[int, Claim]) -> Claim | None:
    """The rate a time per token is said to come to after "so" or "or" ("11.7 ms, so about 43 tok/s"), or None.

    And the time per token a rate is said to come to ("38 tok/s, so each token's 26 ms").
    """
    if claim.dim is Dim.TOKEN_RATE:
        link = _TOKEN_TIME_LINK.match(text, at)
        time = by_start.get(link.end()) if link else None
        return time if time is not None and time.dim is Dim.SECOND and (
            _CLAUSE_CLOSES.match(text, time.end) or _PER_TOKEN.match(text, time.end)) else None
    link = _SO_LINK.match(text, at) if claim.dim is Dim.SECOND else None
    per_token = _PER_TOKEN.match(text, at) if link is None and claim.dim is Dim.SECOND else None
    if per_token:
        # "11.7 ms a token, about 85 tok/s", "47 ms per token, which is 21 tok/s"
        link = _SO_LINK.match(text, per_token.end()) or _COMMA_LINK.match(text, per_token.end())
    rate = by_start.get(link.end()) if link else None
    if rate is None or rate.dim is not Dim.TOKEN_RATE or not _CLAUSE_CLOSES.match(text, rate.end):
        return None
    return rate


_ARROW_BEFORE = re.compile(r"(?:→|->)\s?(?:about\s|~|≈)?$")


def _conversion_said(text: str, claim: Claim, result: Claim | None) -> Sum | None:
    """A rate said to be a time per token or the reverse, right after it ("38 tok/s is 26 ms a token"), or None.

    Not two changes side by side ("ITL 8 ms → 14 ms is 125 tok/s → ~71 tok/s": start with start, end with end), nor a
    count of tokens ("512 tokens is …").
    """
    if result is None or _TOKENS_IN.search(text, max(0, claim.start - 30), claim.start):
        return None
    if _ARROW_BEFORE.search(text, max(0, claim.start - 4), claim.start) and _ARROW.match(text, result.end):
        return None
    return _conversion(claim, result)


def _conversion(claim: Claim, result: Claim) -> Sum | None:
    """Read "38 tok/s is 26 ms a token": a rate and its time per token are each other's reciprocal."""
    if {claim.dim, result.dim} != {Dim.TOKEN_RATE, Dim.SECOND} or not claim.value:
        return None
    return Sum(f"1 ÷ {claim.shown()}", 1 / claim.value, result, result.dim, operands=(claim.start,))


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


# A bare number joined to the next by one of these takes its unit: "8 → 14 ms", "1.7 of 2.0 TB/s", "2-3 µs".
_SHARED_UNIT = re.compile(r"\s?(?:→|->|-|–|\bto\b|\band\b|\bor\b|\bof\b|\bvs\.?|\bversus\b)\s?"
                          r"(?:(?<=to )(?:about|around|roughly|approximately|nearly)\s)?")
# An analogy's own figures ("like a lineout taking twelve seconds to set"): not the incident's.
_ANALOGY = re.compile(r"\b(?:like|as if|as though|akin to|imagine|think of|picture|suppose)\s+(?:a|an|the|my|your|our|some|someone|you"
                     r"|[a-z]+ing)\b")  # "like guiding a group where each step takes 2 s"
_BOTH_WAYS = re.compile(r"\bread\s*(?:\+|and|&|/)\s*writ\w*|\bin and out\b|\bboth ways\b|\beach way\b|\bround[- ]trip\b"
                        r"|\bload(?:s|ed)?\s*(?:\+|and|&|/)\s*stor\w*")
_SPACED_DASH = re.compile(r"(?<=[\w)%/])\s+[-–]\s+$|^\s+[-–]\s+$")
_NUMERAL = re.compile(r"[\d.,]+(?:e[+-]?\d+)?")
_RESULT_ARROW = re.compile(r"\s?(?:→|->)\s?")
_DIVIDED_BY = re.compile(r"(?:\bof|\bout of|/|÷|\bover|\bon)\s*$")


def _shared_units(text: str, spans: list[tuple[float, Dim, int, int]]) -> list[tuple[float, Dim, int, int]]:
    # An exponent ("4096^3", "10**2") is part of the number before it, not a claim of its own.
    out = [span for span in spans if not (text[max(0, span[2] - 1):span[2]] == "^" or text[max(0, span[2] - 2):span[2]] == "**")]
    for n in range(len(out) - 2, -1, -1):
        value, dim, start, end = out[n]
        nvalue, ndim, nstart, _ = out[n + 1]
        if dim is not Dim.COUNT or ndim is Dim.COUNT or text[end:end + 1] in ("×", "x"):
            continue
        joined = _SHARED_UNIT.fullmatch(text, end, nstart)
        numeral = _NUMERAL.match(text, nstart)
        if not joined or not numeral:
            continue
        try:
            written = float(numeral.group().replace(",", ""))
        except ValueError:
            continue
        # "0.85 → 85%" writes one share twice, as a fraction and as a percent: no unit shared; nor "1.7 TB/s out of
        # 2.0 → 85%", whose arrow gives the quotient's result.
        if ndim is Dim.FRACTION and ((value <= 1 and math.isclose(value * 100, written, rel_tol=0.02)) or (
                _RESULT_ARROW.fullmatch(joined.group()) and _DIVIDED_BY.search(text, max(0, start - 10), start))):
            continue
        # "1.7 TB/s out of 2.0 - 85%": a dash gives the quotient's result, as the arrow does; no range spans 40×
        if _SPACED_DASH.fullmatch(joined.group()) and (_DIVIDED_BY.search(text, max(0, start - 10), start) or (
                value > 0 and written > 0 and max(value, written) / min(value, written) > 10)):
            continue
        # "1.7 TB/s is 0.85 of 2.0 TB/s": a fraction of the figure after it, that figure said just before, is a share
        if value < 1 and joined.group().strip() == "of" and n > 0 and out[n - 1][1] is ndim and math.isclose(
                out[n - 1][0], value * nvalue, rel_tol=0.03):
            out[n] = (value, Dim.FRACTION, start, end)
            continue
        if written > 0:
            out[n] = (value * nvalue / written, ndim, start, end)
    return out


# Arithmetic with brackets or a minus, on bare numbers: "(125 − 71.4)/125 = 42.9%", "(14-8)/(8) = 75%".
_BRACKETED = re.compile(r"(?<![\w.])(?P<expr>[(\d][\d.,\s()+\-×*/÷·]{2,80}?)\s*(?:=|≈)\s*~?(?=\d)")
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd)


# "1.61× (1/0.62)": a multiplier, then in brackets how it was got.
_ASIDE = re.compile(r"\s*(?P<said>\d+(?:\.\d+)?)\s?[×x]\s\((?P<how>[^()]+)\)\s*")


def _said_how(expression: str) -> bool:
    """Whether an expression is a multiplier with its working in brackets beside it, which multiplies nothing."""
    aside = _ASIDE.fullmatch(expression)
    how = _evaluate(f"({aside['how']})") if aside else None
    return aside is not None and how is not None and math.isclose(how, float(aside["said"]), rel_tol=0.05)


def _evaluate(expression: str) -> float | None:
    """A bracketed expression of bare numbers, evaluated; None where it is not one."""
    plain = expression.replace("×", "*").replace("·", "*").replace("÷", "/").replace(",", "")
    if "(" not in plain and "-" not in plain:
        return None  # the operator chains read these, with their units
    try:
        tree = ast.parse(plain.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    if not all(isinstance(node, _NODES) for node in ast.walk(tree)) or not any(
            isinstance(node, ast.BinOp) for node in ast.walk(tree)):
        return None
    try:
        value = eval(compile(tree, "<arithmetic>", "eval"), {"__builtins__": {}})  # numbers only: every node checked above
    except (ArithmeticError, ValueError, TypeError):
        return None
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


# "40 ms out of 400, i.e. 10%", "6 of the 14 ms (43%)": a part, its whole, and the share said of them.
_PART_OF = re.compile(r"\s?(?:out of|of(?: the| a| every| each)?|in(?: every| each)?)\s")
_SHARE_SAID = re.compile(r"\s?(?:,\s?)?(?:\(|i\.e\.,?\s?|=\s?|≈\s?|is\s|that'?s\s|or\s|so\s)?(?:about\s|~\s?|only\s|just\s)?$")


def _parts_of_wholes(text: str, claims: list[Claim]) -> list[Sum]:
    """A part of a whole in one unit and the share said right after them ("40 ms out of 400, i.e. 10%")."""
    out = []
    for a, b, share in zip(claims, claims[1:], claims[2:], strict=False):
        if share.dim is not Dim.FRACTION or a.dim is Dim.FRACTION or b.dim is Dim.FRACTION:
            continue
        if not (a.dim is b.dim or Dim.COUNT in (a.dim, b.dim)) or (
                a.dim is b.dim and not re.search(r"[a-zµ%]", a.written)):
            continue  # "1.7 of 2.0 TB/s = 85%" is a share of the roof, read with the roofs
        # a bare side is in the other's unit as written ("40 ms out of 400", "6 of the 14 ms")
        part, whole = (a.value, b.value) if a.dim is b.dim else (_as_written_number(a), _as_written_number(b))
        if whole <= 0 or part >= whole:
            continue
        if not _PART_OF.fullmatch(text[a.end:b.start]) or not _SHARE_SAID.fullmatch(text[b.end:share.start]):
            continue
        out.append(Sum(f"{a.shown()} ÷ {b.shown()}", part / whole, share, Dim.FRACTION, operands=(a.start, b.start)))
    return out


def _as_written_number(claim: Claim) -> float:
    """A claim's number as written, before its unit scaled it ("40 ms" is 40)."""
    found = _NUMERAL.match(claim.written.lstrip("~≈ "))
    try:
        return float(found.group().replace(",", "")) if found else claim.value
    except ValueError:
        return claim.value


def _bracketed(text: str, claims: list[Claim]) -> list[Sum]:
    by_start = {c.start: c for c in claims}
    out = []
    for found in itertools.islice(_BRACKETED.finditer(text), MAX_CLAIMS):
        result = by_start.get(found.end())
        value = _evaluate(found["expr"])
        if result is None or value is None or _said_how(found["expr"]):
            continue
        if result.dim is Dim.FRACTION and math.isclose(value, result.value * 100, rel_tol=ARITHMETIC):
            value /= 100  # "(14 − 8) / 8 × 100 = 75%"
        starts = tuple(c.start for c in claims if found.start() <= c.start < found.end())
        out.append(Sum(found["expr"].strip(), value, result, result.dim, True, operands=starts))
    return out


# A result with its working after it in brackets: "139.5% of peak on one GPU (0.62 × 2.25)", "~112 ms (180 × 0.62)".
_WORKED_IN_BRACKETS = re.compile(r"[^\d();.!?]{0,30}?\(\s*(?P<expr>[\d.,\s+\-×*/÷·]{3,60}?)\s*\)")


def _worked_after(text: str, claims: list[Claim]) -> list[Sum]:
    """Each result whose working is in brackets after it, where the working gives it: a sum checked right.

    Working that does not give the figure before it may be the working of something else ("12 µs (8 × 32 × 32
    elements)"): it is left to the other readings.
    """
    by_start = {c.start: c for c in claims}
    out = []
    for claim in claims:
        found = _WORKED_IN_BRACKETS.match(text, claim.end)
        value = _evaluate(f"({found['expr']})") if found else None
        if found is None or value is None or claim.value <= 0:
            continue
        if claim.dim is Dim.FRACTION and not math.isclose(value, claim.value, rel_tol=ARITHMETIC):
            value /= 100  # "75% ((14 − 8) / 8 × 100)"
        if not math.isclose(value, claim.value, rel_tol=arithmetic_tolerance(claim.written)):
            continue
        starts = tuple(c.start for c in claims if found.start("expr") <= c.start < found.end("expr") and c.start in by_start)
        if starts:
            out.append(Sum(found["expr"].strip(), value, claim, claim.dim, True, operands=starts))
    return out


# "2/(2+8) = 1/5", "busy is 4/5": a small fraction given as a result is one number, not two counts.
_FRACTION_GIVEN = re.compile(r"(?:=|≈|~|\bis|\bare|\bmakes|\bgives)\s?(?:about\s|roughly\s|~\s?)?$")
_FRACTION_BAR = re.compile(r"\s?/\s?")
_FRACTION_ENDS = re.compile(r"(?!\s?(?:[=≈~×*·/÷^(\d.,]\S|[=≈~×*·/÷^(]|is\b|of (?:the )?\d))")


def _fractions_given(text: str, claims: list[Claim]) -> list[Claim]:
    """Each ``p/q`` of small whole numbers said as a result (``= 1/5``) read as the one number it is."""
    out: list[Claim] = []
    i = 0
    while i < len(claims):
        top = claims[i]
        bottom = claims[i + 1] if i + 1 < len(claims) else None
        bar = _FRACTION_BAR.match(text, top.end) if bottom is not None else None
        if (bottom is not None and bar is not None and bar.end() == bottom.start
                and top.dim is bottom.dim is Dim.COUNT and not (top.multiplier or bottom.multiplier)
                and top.value.is_integer() and bottom.value.is_integer() and top.value > 0 and 1 < bottom.value <= 20
                and _FRACTION_GIVEN.search(text, max(0, top.start - 12), top.start)
                and _FRACTION_ENDS.match(text, bottom.end)):
            out.append(_claim(text, top.value / bottom.value, Dim.COUNT, top.start, bottom.end))
            i += 2
            continue
        out.append(top)
        i += 1
    return out


@cached_line
def read(lowered: str) -> Reading:
    """A normalised line (``language.with_units``) read as claims, sums, transitions and side phrases."""
    text = plain_numbers(lowered)
    claims = [_claim(text, v, d, s, e) for v, d, s, e in _shared_units(text, quantity_spans(text, limit=MAX_CLAIMS))]
    sides = []
    for found in itertools.islice(_SIDE.finditer(text), MAX_CLAIMS):
        side = "below" if found["word"] in _BELOW else "above"
        sides.append(_flip(side, ("above", "below")) if negated(text, found.start(), found.end()) else side)
    claims = _fractions_given(text, claims)
    sums = _sums(text, claims) + _bracketed(text, claims) + _parts_of_wholes(text, claims)
    sums += [s for s in _worked_after(text, claims) if all(s.given.start != t.given.start for t in sums)]
    # A result written as a power ("= 2²⁷") is the power's value, in the claims as in its sum
    raised = {s.given.start: s.given for s in sums if s.given.end != next(
        (c.end for c in claims if c.start == s.given.start), s.given.end)}
    claims = [raised.get(c.start, c) for c in claims]
    return Reading(tuple(claims), tuple(sums), tuple(_transitions(text, claims)), tuple(s for s in sides if s))


_WORK_DIMS = (Dim.FLOP, Dim.BYTE, Dim.INTENSITY)


def same(a: Claim, b: Claim, rel: float = MATCH) -> bool:
    """Whether two claims carry the same number (a plain count matches any unit with that value)."""
    if a.dim is not b.dim and Dim.COUNT not in (a.dim, b.dim):
        return False
    if ((a.multiplier and b.dim in _WORK_DIMS) or (b.multiplier and a.dim in _WORK_DIMS)) and min(a.value, b.value) < 100:
        return False  # "the same 3.8×" is no "4 ops": a speed-up is no amount of work
    if a.dim is not Dim.COUNT and b.dim is Dim.COUNT and not b.multiplier and b.value >= 1e4:
        return False  # "7 GB" is not the "7e9 params" of the work's arithmetic: a large bare count has its own unit
    if a.dim is Dim.INTENSITY and b.dim is Dim.COUNT and b.value >= 2:
        return False  # "8 FLOP/byte" is no batch of 8, "2 FLOP/byte" no 2 FLOPs a weight: an intensity is a quotient
    if Dim.FRACTION in (a.dim, b.dim) and Dim.COUNT in (a.dim, b.dim) and (a.speed or b.speed or a.multiplier
                                                                        or b.multiplier):
        return False  # "108%" is not the 1.08× speed-up
    if a.dim is b.dim is Dim.COUNT and a.multiplier != b.multiplier and not (a.speed or b.speed) and a.value < 100:
        # "1.85×" is no small count of the incident's (the 2 of "x * 2 + 1", a batch of 8); "7B × 2 bytes" is a product
        return False
    if Dim.FRACTION in (a.dim, b.dim) and abs(a.value - b.value) > SHARE_POINTS:
        return False  # a pencil rounds 62% to 60%, not 80% to 74%: shares within a few points
    return math.isclose(a.value, b.value, rel_tol=rel)


# A bare number followed by what makes it a rate or a multiplier is not a figure with its unit left off.
# (an operator before a number is the working's: "180 × 0.62", "180/80")
_RATE_AFTER = re.compile(r"\s*(?:per\b|/(?!\s*[\d(])|a (?:second|sec|step|token)\b|(?:times\b|x\b|×)(?!\s*[\d(]))")


def is_fact_as_written(bare: Claim, fact: Claim) -> bool:
    """Whether a bare number is a fact as written in its unit ("(180 − 80) / 180" is of 180 ms and 80 ms)."""
    written = _NUMERAL.match(fact.written) if bare.dim is Dim.COUNT and not bare.multiplier and fact.dim is not Dim.COUNT \
        else None
    try:
        return bool(written) and math.isclose(bare.value, float(written.group().replace(",", "")), rel_tol=0.02)  # type: ignore[union-attr]
    except ValueError:
        return False


_SLIPS = ((10.0, "a power of ten"), (100.0, "a power of ten"), (1000.0, "a power of ten"), (1e6, "a power of ten"),
          (8.0, "a factor of 8"), (2.0, "a factor of 2"))
# Where a factor of 8 or 2 has a usual cause: bits read as bytes; another format's bytes per value (either way).
_CAUSES = {8.0: "bits for bytes?", 2.0: "another format's bytes per value (1 for int8, 2 for fp16)?"}
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
    ``known`` adds the incident's own figures; ``side`` is where the kernel sits against the ridge;
    ``derived`` what one step of arithmetic takes the figures to; ``datasheet`` the named card's figures.
    """

    deciding: tuple[Claim, ...]
    known: tuple[Claim, ...]
    transitions: tuple[tuple[Claim, Claim], ...] = ()
    side: str | None = None
    ridge: float | None = None
    derived: tuple[dv.Derived, ...] = ()
    datasheet: tuple[dv.Derived, ...] = ()
    #: The figures of the incidents this one names as its context (A3 is "the same chain" as A2's): a learner may
    #: quote them to contrast, and they are checked, but they never decide.
    context: tuple[Claim, ...] = ()
    #: The incident measures a figure beyond its card's roof (the classifier's anomaly): a rate worked out beyond
    #: the roof restates it rather than slips.
    anomalous: bool = False
    #: The figure beyond the roof is a real measurement of more than the incident says (a token rate past its
    #: weights' floor: batching, quantised weights): calling it an error is wrong.
    measured_real: bool = False
    #: How many times the tensor of each incident this one is set beside holds this one's (A2's (8, 4096, 4096) is
    #: 16,384× A3's (8, 32, 32)), with how: a size said "N× smaller than A2" is held to it.
    scales: tuple[tuple[float, str], ...] = ()
    #: The drill's own ridges (Part B's card), which any line may set an intensity against: "16 ≪ 156".
    drill_ridges: tuple[float, ...] = ()
    #: The names of the incidents ``context`` is from ("A2"), for feedback.
    context_named: str = ""

    @classmethod
    def read(cls, deciding_lines: list[str], other_lines: list[str], side: str | None = None,
             ridge: float | None = None, *, datasheet: tuple[dv.Derived, ...] = (),
             context_lines: list[str] | None = None, anomalous: bool = False,
             scales: tuple[tuple[float, str], ...] = (), measured_real: bool = False,
             drill_ridges: tuple[float, ...] = (), context_named: str = "") -> Facts:
        """Facts from the classifier's evidence lines and the incident's own text (normalised)."""
        decided = [read(line) for line in deciding_lines]
        others = [read(line) for line in other_lines]
        deciding = tuple(c for r in decided for c in r.claims)
        # A multiplier said of a speed-up ("3.8× faster"), not of a step that went up ("8 ms to 14 ms (1.75×)").
        faster = {c for line, r in zip([*deciding_lines, *other_lines], [*decided, *others], strict=True)
                  for c in r.claims if c.speed and re.match(r"\W{0,3}(?:faster|speed-?up|quicker)", line[c.end:c.end + 12])}
        known = deciding + tuple(c for r in others for c in r.claims)  # a sum's result is one of its line's claims
        transitions = tuple(t for r in [*decided, *others] for t in r.transitions)
        # A multiplier the incident's text says is faster is a speed-up wherever it is quoted (the verdict's "bought
        # only 1.08×" is the text's "1.08× faster").
        faster_values = {c.value for c in faster}
        figures = [dv.Figure(c.value, c.dim, c.roof, c in deciding, speed=c.speed and c.value in faster_values,
                             span=c.span)
                   for c in known
                   if not c.metric and not (c.dim is Dim.COUNT and not c.multiplier and c.value < 2)]
        figures += [dv.Figure(d.value, d.dim, None, False, True) for d in datasheet]
        context = tuple(c for line in context_lines or [] for c in read(line).claims)
        moved = [(a.value, b.value) for a, b in transitions]
        return cls(deciding, known, transitions, side, ridge, dv.derive(figures, moved), datasheet, context,
                   anomalous, measured_real, scales, drill_ridges, context_named)


@dataclass(frozen=True)
class Mark:
    """One claim of a line as the grader read it, with the learner's words and what was found.

    ``ok``: checked and right (True), checked and wrong (False), or not checked (None).
    """

    written: str
    ok: bool | None
    why: str

    def to_json(self) -> dict[str, object]:
        """As JSON: ``claim`` (the learner's words), ``passed`` and ``why``."""
        return {"claim": self.written, "passed": self.ok, "why": self.why}


@dataclass(frozen=True)
class Judgement:
    """What a line's claims come to.

    The first one the incident contradicts (""), whether one decides, the numbers that could not be placed, and
    each claim's mark.
    """

    wrong: str
    cites: bool
    unplaced: tuple[str, ...]
    marks: tuple[Mark, ...] = ()
    #: The numbers with a unit not confirmed: not checked, or off the incident's figures (what a what-if may explain).
    unconfirmed: tuple[Claim, ...] = ()

    @property
    def unchecked(self) -> tuple[Mark, ...]:
        """The claims the grader could not check."""
        return tuple(m for m in self.marks if m.ok is None)


_MANTISSA = re.compile(r"(\d[\d,_]*)(?:\.(\d+))?(?:\s*(?:e|×\s?10\^?|\*\s?10\^?)\s*([+-−]?\d+))?", re.IGNORECASE)


def arithmetic_tolerance(written: str) -> float:
    """How far a written result may be from the arithmetic: one unit of its last digit, relative to it.

    "1.5" is said to a tenth (6.7%), "47" to a unit (2.1%), "0.05" to a hundredth (capped at ARITHMETIC); a
    whole number's trailing zeros are not digits said ("1,360" to ten).
    """
    found = _MANTISSA.search(written)
    if found is None:
        return ARITHMETIC
    whole, decimals, exponent = found[1].replace(",", "").replace("_", ""), found[2], found[3]
    try:
        value = float(f"{whole}.{decimals}" if decimals else whole)
        unit = 10.0 ** -len(decimals) if decimals else 10.0 ** (len(whole) - len(whole.rstrip("0")))
    except ValueError:
        return ARITHMETIC
    if exponent is not None:
        scale = 10.0 ** int(exponent.replace("−", "-"))
        value, unit = value * scale, unit * scale
    if value <= 0:
        return ARITHMETIC
    return min(ARITHMETIC, max(ARITHMETIC_FLOOR, unit / value))


def _sum_right(s: Sum) -> bool:
    """Whether a sum's written result is what its arithmetic gives, to the digits the result is written to."""
    tolerance = arithmetic_tolerance(s.given.written)
    # the denominator alone is what "over 3 × 4096² × 2 ≈ 1e8 bytes" gives; a multiplier ("4096²/32² = 1,024×") is
    # the whole quotient
    denominator = None if s.given.multiplier else s.denominator
    return any(math.isclose(v, s.given.value, rel_tol=tolerance)
               for v in (s.computed, s.over_all, denominator, s.complement) if v)


def _written_sum_wrong(s: Sum, reading: Reading, by_start: dict[int, Claim], facts: Facts) -> str:
    """Why one written sum is wrong: its arithmetic, the roles of its figures, or the unit its operand was given."""
    return (_sum_wrong(s) or _sum_misapplied(s, [by_start[n] for n in s.operands if n in by_start], facts)
            or _unit_said_before_wrong(s, reading.claims))


def _unit_said_before(s: Sum, line: Sequence[Claim]) -> float | None:
    """A sum's result in the unit its bare first operand was given with before, or None.

    "~2.5 ms …; compiled ≈ 2.5/3.8 ≈ 0.66 ms": the 2.5 is the 2.5 ms said before, so the result is in ms, and the
    sum is held to it as written (0.66 ms, not 0.66 µs).
    """
    if not s.unitless or s.given.dim is Dim.COUNT or not s.operands or s.computed <= 0:
        return None
    by_start = {c.start: c for c in line}
    first = by_start.get(s.operands[0])
    if first is None or first.dim is not Dim.COUNT or first.value <= 0:
        return None
    said = next((c for c in line if c.end <= first.start and c.dim is s.given.dim and is_fact_as_written(first, c)), None)
    if said is None:
        return None
    # "12 − 12/1.08 ≈ 0.89 µs": where the sum is a difference, its result is the difference's
    return (s.complement if s.complement is not None else s.computed) * said.value / first.value


def _unit_said_before_wrong(s: Sum, line: Sequence[Claim]) -> str:
    """Why a sum whose first operand carries a unit said before gives its result in another prefix, or ""."""
    result = _unit_said_before(s, line)
    if result is None or result <= 0 or math.isclose(s.given.value, result, rel_tol=max(
            MATCH, arithmetic_tolerance(s.given.written))):
        return ""
    return f"{s.written} is {show(result, s.given.dim)}, not {s.given.shown()}"


def _sum_wrong(s: Sum) -> str:
    given = s.given.value
    if s.computed <= 0 or _sum_right(s):
        return ""
    # a ratio above 1 said as what it adds ("2.0/1.7 leaves ~18%", "= +18% speed"), not as a share of something unused
    if s.given.dim is Dim.FRACTION and not s.given.spare and s.computed > 1 and math.isclose(
            s.computed - 1, given, rel_tol=max(MATCH / 2, arithmetic_tolerance(s.given.written))):
        return ""
    if given <= 0:  # "2 × 4 = 0": a result of zero (or less) is off by no slip, just wrong
        return f"{s.written} is {show(s.computed, s.dim if s.dim is not Dim.COUNT else s.given.dim)}, not {s.given.shown()}"
    # A count of values given as a size carries its format's width: "if it's fp32, each pass over 8×4096×4096 is ~537
    # MB" (a width said beside the size, and not the one that gives it, is _width_said_off's to judge)
    if s.unitless and s.given.dim is Dim.BYTE and s.computed >= 1000 and any(
            math.isclose(given, s.computed * width, rel_tol=arithmetic_tolerance(s.given.written))
            for width in _whole_byte_widths()):
        return ""
    # A result written with its own power of ten ("1.34e10") states its magnitude: no prefix was left off it.
    explicit = bool(re.search(r"\de[+-]?\d|×\s?10|10\^|\d\s?[kmgt]\b|thousand|million|billion", s.given.written.lower()))
    for computed in (s.computed, s.complement):
        if computed is None or computed <= 0:
            continue
        ratio = max(computed, given) / min(computed, given)
        if any(math.isclose(ratio, 1.024 ** k, rel_tol=0.003) for k in (1, 2, 3)):
            return ""  # "8 × 2K = 16,384": a binary K (1,024) against a decimal one
        exponent = math.log10(ratio)
        whole = math.isclose(exponent, round(exponent), abs_tol=0.03)
        if whole and not explicit and not s.unit_kept and ((s.given.dim is Dim.COUNT and exponent >= 1.9)
                                                           or (s.unitless and round(exponent) % 3 == 0
                                                               and round(exponent) != 0)):
            return ""  # a unit or a prefix left off ("14 / 300 = 47", meaning ms; "7 × 2 = 14 GB", meaning 7e9)
    dim = s.dim if s.dim is not Dim.COUNT else s.given.dim
    if s.complement is not None and s.less is not None:  # said of "x − a/b": the difference is what it gives
        shown = number_shown(s.complement) if s.unitless and dim is not Dim.FRACTION else show(s.complement, dim)
        return f"{number_shown(s.less)} − {s.written} is {shown}, not {s.given.shown()}"
    why = slip(s.computed, given, dim)
    if s.written.startswith("1 ÷"):  # a reciprocal slips by its factor alone: no format's bytes are in it
        why = why.split(":")[0]
    # bare terms added ("2 + 8 = 12 µs") are in the result's unit, not its base unit
    shown = number_shown(s.computed) if " + " in s.written and s.unitless else show(s.computed, dim)
    return f"{s.written} is {shown}, not {s.given.shown()}" + (f" ({why})" if why else "")


def _roof_name(roof: str | None) -> str:
    return "peak FLOP/s" if roof == "flops" else "peak bandwidth"


def _shares_close(a: float, b: float) -> bool:
    """Two shares of the time are one when within 3 points or 10% of each other (20% is not 25%)."""
    return math.isclose(a, b, rel_tol=MATCH, abs_tol=0.03)


def _attribute_wrong(claim: Claim, matches: list[Claim], facts: Facts) -> str:
    roofs = {m.roof for m in matches if m.roof}
    if claim.roof and roofs and claim.roof not in roofs:
        return f"{claim.shown()} is of {_roof_name(next(iter(roofs)))}, not of {'peak FLOP/s' if claim.roof == 'flops' else 'bandwidth'}"
    if matches and not claim.metric and (claim.roof or claim.share) and all(m.metric for m in matches):
        what = "occupancy" if matches[0].metric == "occupancy" else "GPU utilisation"
        said = _roof_name(claim.roof) if claim.roof else f"the time ({claim.share})"
        return f"{claim.shown()} is the {what}, not a share of {said}: {what} decides no roof"
    busy = [f.busy() for f in facts.known if f.share and not f.hypothetical]
    claimed = claim.busy()
    if claimed is not None and busy and not any(_shares_close(b or 0, claimed) for b in busy):
        fact = busy[0] or 0
        return (f"the GPU is busy {show(fact, Dim.FRACTION)} of the time and idle {show(1 - fact, Dim.FRACTION)},"
                f" not {claim.share} {claim.shown()}")
    if not busy and roofs and not claim.hypothetical and not claim.metric and (
            (claimed is not None and claim.share == "idle") or claim.of_time):
        return (f"{claim.shown()} is a share of {_roof_name(next(iter(roofs)))}, not of the time: it says nothing of"
                f" how long the GPU is {claim.share or 'busy or idle'}")
    if claim.spare and roofs and not claim.hypothetical:
        used = next(m for m in matches if m.roof)
        return (f"{claim.shown()} is the share of {_roof_name(used.roof)} used; what is left is"
                f" {show(1 - used.value, Dim.FRACTION)}")
    spans = {m.span for m in matches if m.span}
    if claim.span and spans and claim.span not in spans:
        span_name = {"busy": "kernel (busy) time", "idle": "gap (idle) time"}
        return f"{claim.shown()} is the incident's {span_name[next(iter(spans))]}, not its {span_name[claim.span]}"
    if claim.side and facts.side and claim.side != facts.side and claim.multiplier:
        return f"the kernel is {claim.shown()}× {facts.side} the ridge, not {claim.side} it"
    if claim.side and facts.side and claim.side != facts.side and not (facts.ridge and math.isclose(
            claim.value, facts.ridge, rel_tol=MATCH)):
        return f"{claim.shown()} is {facts.side} the ridge, not {claim.side} it"
    return ""


# A time said as a difference: "12 µs faster", "saves 12 µs".
_DIFFERENCE_AFTER = re.compile(r"\s*(?:faster|slower|quicker|shorter|longer|saved|less|more)\b")
_DIFFERENCE_BEFORE = re.compile(r"\b(?:saves?|saving|saved|shaves?|cuts?|gains?)\s+(?:about\s+|~|≈)?$")


def _difference_wrong(claim: Claim, matches: list[Claim], facts: Facts, text: str) -> str:
    """A time of the incident said as what a speed-up saves ("12 µs faster" where 1.08× saves 0.89 µs), or ""."""
    if claim.dim is not Dim.SECOND or not any(m.dim is Dim.SECOND for m in matches) or not (
            _DIFFERENCE_AFTER.match(text, claim.end) or _DIFFERENCE_BEFORE.search(text, max(0, claim.start - 20),
                                                                                     claim.start)):
        return ""
    times = [f.value for f in facts.known if f.dim is Dim.SECOND]
    if any(math.isclose(claim.value, a - b, rel_tol=MATCH) for a in times for b in times if a > b > a / 10):
        return ""  # the difference of two of the incident's times ("8 → 14 ms, 6 ms more")
    time = next(m for m in matches if m.dim is Dim.SECOND)
    for speed in (f for f in facts.known if f.speed and f.value > 1):
        saved = time.value - time.value / speed.value
        if not math.isclose(claim.value, saved, rel_tol=MATCH):
            return (f"{claim.shown()} is the time itself; a {speed.shown()}× speed-up saves"
                    f" {time.shown()} − {time.shown()}/{speed.shown()} = {show(saved, Dim.SECOND)}")
    return ""


# A time said as what a change costs: "an extra 14 ms", "14 ms of added latency", "the sync costs 14 ms" (a verb of
# cost needs a part for its subject: "each token costs 14 ms" is the whole).
_COST_BEFORE = re.compile(r"\b(?:(?:an?\s+)?extra|added|additional|penalty of|overhead of|(?P<verb>costs?|costing|adds?"
                          r"|adding|loses?|losing|wastes?|wasting|eats?|burns?))\s+(?:about\s+|~|≈|only\s+|a full\s+"
                          r"|(?:a|the)\s+)?$")
_COST_AFTER = re.compile(r"\s*(?:(?:per|a|each)\s+\w+\s+)?(?:extra|added|additional|of (?:extra|added|additional)\b"
                         r"|penalty|of (?:sync|stall|wait)\w*"
                         # "the whole 14 ms per token is the .item() sync": a part said to be the whole
                         r"|(?:is|are|was|=)\s+(?:all\s+|entirely\s+|just\s+|purely\s+|spent\s+(?:in|on)\s+)?(?:the\s+)?"
                         r"(?:\.?item\(\)\s+|host\s+|cpu\s+)?(?:sync|stall|wait)\w*)")
_A_PART = re.compile(r"\b(?:sync\w*|synchroni\w*|stall\w*|wait\w*|cop(?:y|ies)|transfer\w*|readback"
                     r"|round[- ]trips?|host reads?|change|launch\w*|gaps?)\b|\.?\bitem\(\)|\.item\b")


def _cost_as_end(claim: Claim, facts: Facts, text: str) -> str:
    """One end of a before → after said as what the change costs ("the sync costs 14 ms": 8 → 14 ms costs 6), or ""."""
    if claim.dim is not Dim.SECOND or claim.hypothetical or claim.bound:
        return ""
    before = text[max(0, claim.start - 24):claim.start]
    said = _COST_BEFORE.search(before)
    if said and said.group("verb") and not _A_PART.search(text, max(0, claim.start - 70), claim.start):
        said = None
    if not said and not _COST_AFTER.match(text, claim.end):
        return ""
    for first, then in facts.transitions:
        if first.dim is not Dim.SECOND or then.dim is not Dim.SECOND or math.isclose(
                claim.value, abs(then.value - first.value), rel_tol=MATCH):
            continue
        when = "after" if same(claim, then) else "before" if same(claim, first) else ""
        if when:
            cost = show(abs(then.value - first.value), Dim.SECOND)
            return (f"{claim.shown()} is the whole time {when} the change; from {first.shown()} to"
                    f" {then.shown()} the change costs {then.shown()} − {first.shown()} = {cost}")
    return ""


# A rate said as what the kernel does now: "decode runs at 21 tok/s", "it runs at exactly 21 tok/s".
_RUNS_AT = re.compile(r"\b(?:runs?|running|decodes?|decoding|generates?|achieves?|delivers?|manages?|does|sits?)\s+at\s+"
                      r"(?:exactly\s+|precisely\s+|only\s+)?(?:~|≈|about\s+)?$")


def _bound_said_exact(claim: Claim, matches: list[Claim], facts: Facts, text: str) -> str:
    """A bound the incident's reading gives ("at most 21.4 tok/s") said as exact, or as the rate measured, or ""."""
    bound = next((m for m in matches if m.bound), None)
    if bound is None or claim.bound or claim.hypothetical:
        return ""
    exactly = _EXACTLY.search(text, max(0, claim.start - 40), claim.start)
    measured = next((f for f in facts.known if f.dim is claim.dim and not f.bound and not same(claim, f)), None)
    if not exactly and not (measured is not None and _RUNS_AT.search(text, max(0, claim.start - 40), claim.start)):
        return ""
    said = f"{claim.shown()} is a bound ({'at most' if bound.bound == '<' else 'at least'} {bound.shown()})"
    return said + (f", not what it runs at: the incident measured {measured.shown()}" if measured is not None else
                   ", not an exact figure")


#: The largest count read as a batch of sequences when a rate is a batch's tokens over a step's time.
_LARGEST_BATCH = 4096


def _time_as_rate(claim: Claim, facts: Facts, line: Sequence[Claim]) -> str:
    """A rate that is a time's number in milliseconds ("47 ms a token, so at most 47 tok/s"), not its inverse, or ""."""
    if claim.dim is not Dim.TOKEN_RATE:
        return ""
    times = [*(f.value for f in facts.known if f.dim is Dim.SECOND), *(c.value for c in line if c.dim is Dim.SECOND),
             *(d.value for d in facts.derived if d.dim is Dim.SECOND and d.value > 0)]
    # Read after the derived figures: a rate that is some time's inverse was accounted for there.
    time = next((t for t in times if math.isclose(claim.value, t * 1000, rel_tol=0.02)), None)
    if time is None:
        return ""
    # a batch's tokens over a step's time ("35 ms a step for a batch of 8: 229 tok/s") is the rate, not a slip
    counts = [c.value for c in line if c.dim is Dim.COUNT and 2 <= c.value <= _LARGEST_BATCH]
    steps = [c.value for c in line if c.dim is Dim.SECOND]
    if any(math.isclose(claim.value, n / t, rel_tol=0.03) for n in counts for t in steps if t != time):
        return ""
    return (f"{show(time, Dim.SECOND)} a token is 1 ÷ {show(time, Dim.SECOND)} = {show(1 / time, Dim.TOKEN_RATE)},"
            f" not {claim.shown()}")


# What follows a count that makes it a rate ("8.3k calls/s", "83,000 launches per second").
_PER_SECOND_AFTER = re.compile(r"\s*(?:(?![kmgtp]?i?b\b|bytes?\b|[kmgtp]?flops?\b|tok\w*\b)[a-z-]+\s*){0,2}(?:/\s*(?:s|sec|second)\b|per\s+(?:s|sec|second)\b|a\s+(?:sec|second)\b)")


def _rate_off_by_a_power(claim: Claim, facts: Facts, text: str) -> str:
    """A rate said per second, an incident time's inverse off by a power of ten, or "".

    "12 µs a call ≈ 8.3k calls/s": 1 ÷ 12 µs is 83k a second.
    """
    if claim.dim is not Dim.COUNT or not _PER_SECOND_AFTER.match(text, claim.end):
        return ""
    for time in (f.value for f in facts.known if f.dim is Dim.SECOND and f.value > 0):
        rate = 1 / time
        if math.isclose(claim.value, rate, rel_tol=0.05):
            return ""
        if slip(claim.value, rate, Dim.COUNT) == "a power of ten":
            return (f"1 ÷ {show(time, Dim.SECOND)} = {format_quantity(rate, Dim.COUNT)} a second, not"
                    f" {claim.shown()}")
    return ""


def _share_off(claim: Claim, facts: Facts) -> str:
    """A share of a roof the incident measures, said as another share ("1.7 of 2.0 TB/s = 75% of peak"), or "".

    Read after the derived figures: a share that is one of theirs (a what-if's, a complement) was accounted for.
    """
    if claim.dim is not Dim.FRACTION or not claim.roof or claim.hypothetical or claim.bound or claim.spare or \
            claim.at_peak or claim.change or claim.value >= 1:
        return ""
    measured = [f for f in facts.known if f.dim is Dim.FRACTION and f.roof == claim.roof and not f.hypothetical
                and not f.spare and f.value < 1]
    if not measured or any(_shares_close(f.value, claim.value) for f in measured):
        return ""
    return f"the incident measures {show(measured[0].value, Dim.FRACTION)} of {_roof_name(claim.roof)}, not {claim.shown()}"


# A percent said of a time or a speed ("needs 38% of the eager time", "cuts runtime by 38%").
_TIME_WORDS = re.compile(r"\b(?:time|runtime|run time|latency|faster|slower|quicker|less|cuts?|shorter|improvement"
                         r"|speed\w*|gain\w*|saving\w*)\b")


_CAUSE_WORDS = re.compile(r"\b(?:data movement|memory|bandwidth|traffic|launch\w*|overhead|compute|math|host|cpu)\b")


def _speed_share(claim: Claim, facts: Facts, at: _Line, shown: str) -> Mark | None:
    """The mark of a percent said of the incident's speed-up, or None where the percent is not said of it.

    Right where it is what the speed-up gives in the role its words say (3.8×: 26% of the time, 74% less time, 280%
    faster), else wrong. Read after the derived figures, and only where the line cites the speed-up (by its figure,
    or compile named in the clause) and the clause speaks of time or speed: "3.8× faster, so the compiled version
    needs 38% of the eager time" and "compile makes it 26% faster" are wrong.
    """
    if claim.dim is not Dim.FRACTION or claim.roof or claim.share or claim.metric or claim.hypothetical or claim.bound:
        return None
    lo, hi = _clause_bounds(at.text, claim.start, claim.end)
    # The speed-up cited by its figure, or by its subject in the percent's own clause ("compile cuts the time by 38%")
    named = bool(COMPILE_NAMED.search(at.text, max(0, lo - 40), hi))
    cited = [f for f in facts.known if f.speed and f.value > 1 and (named or any(
        c.speed or c.multiplier for c in at.claims if math.isclose(c.value, f.value, rel_tol=0.02)))]
    if not cited or not _TIME_WORDS.search(at.text, lo, hi) or _CAUSE_WORDS.search(at.text, lo, hi):
        return None  # "92% of the time is data movement": a share given a cause is no share of the speed-up
    speed, said = cited[0].value, cited[0].shown()
    leaves, less, faster = ((1 / speed, f"1 ÷ {said}× leaves"), (1 - 1 / speed, f"1 − 1/{said} less time"),
                            (speed - 1, f"{said}× is +"))
    if _FASTER_AFTER.match(at.text, claim.end):  # "26% faster" is a change in speed
        gives: tuple[tuple[float, str], ...] = (faster,)
    elif claim.change or _LESS_TIME.search(at.text, lo, hi):  # "cuts the time by 38%" is a change in time
        gives = (less,)
    else:
        gives = (leaves, less, faster)
    found = next((how for value, how in gives if _shares_close(claim.value, value)), None)
    if found is not None:
        return Mark(shown, True, f"{found} {show(claim.value, Dim.FRACTION)}" if found.endswith(("+", "leaves"))
                    else f"{found}: {show(claim.value, Dim.FRACTION)}")
    return Mark(shown, False, f"a {said}× speed-up leaves {show(1 / speed, Dim.FRACTION)} of the time"
                              f" ({show(1 - 1 / speed, Dim.FRACTION)} less; +{show(speed - 1, Dim.FRACTION)} speed),"
                              f" not {claim.shown()}")


#: Compile or fusion named ("compiled", "fusing", "inductor").
COMPILE_NAMED = re.compile(r"\b(?:compil\w*|fus\w*|inductor)\b")
# Read by every check below: the last of three copies, the one that was in force.
_NEEDED = re.compile(r"\b(?:need\w*|requir\w*|must|target|wants?|would have to|has to|ask\w*|goal|short of)\b")
_FASTER_AFTER = re.compile(r"[×x]?\s*(?:faster|quicker|(?:the\s+)?speed-?up|more throughput)\b")
_LESS_TIME = re.compile(r"\b(?:less|shorter|cuts?|cutting|saves?|saving|reduc\w*|shaves?)\b")


# A bound said of anything at all ("the most we could ever get", "at most … is possible"), not of one lever.
_EVER_BOUND = re.compile(r"\b(?:the most (?:we|you|it|one|anyone) (?:can|could)(?: \w+){0,2}? (?:get|gain|win|hope for)"
                         r"|(?:the )?best (?:we|you|any \w+) (?:can|could)(?: ever)? (?:get|do|gain)|(?:can|could) ever"
                         r"|is (?:all|the most) (?:that is |that's )?(?:possible|available|left)|at most [^;!?]{0,30}?possible)\b")


def _bound_beaten(claim: Claim, facts: Facts, text: str) -> str:
    """A bound on what compile or fusion can give that the incident's measured speed-up beats, or "".

    "Compile can give at most 1.18×" of a chain compile made 3.8× faster.
    """
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    ever = _EVER_BOUND.search(text, max(0, lo - 60), hi)
    if claim.multiplier:
        factor = claim.value
    elif claim.dim is Dim.FRACTION and claim.change and _FASTER_AFTER.match(text, claim.end):
        factor = 1 + claim.value  # "at most 15% faster"
    else:
        return ""
    if not (claim.bound == "<" or ever) or not (ever or COMPILE_NAMED.search(text, max(0, lo - 40), hi)):
        return ""
    beaten = next((f for f in facts.known if f.speed and f.value > factor * (1 + MATCH)), None)
    if beaten is None:
        return ""
    said = claim.shown() + ("×" if claim.multiplier else " faster")
    if not ever:
        return f"the incident measured {beaten.shown()}× from it, more than at most {said}"
    return (f"the incident measured {beaten.shown()}×, more than the most said ({said}): a share of the roof bounds"
            " only what moving the same bytes or FLOPs faster can give, and fusion or compile moves fewer")


# A what-if that makes the kernels faster ("halving each kernel's time", "making it 2x faster", "halving k") and what
# it says the whole request or step then does ("would halve the request time", "a 2× faster request", "halves T").
_KERNELS_FASTER = re.compile(r"\bhalv\w*\s+(?:each\s+|the\s+|every\s+)?(?:[\w']+\s+){0,2}?kernel|\bhalving\s+(?:it|k|them)\b"
                             r"|\bkernels?\b(?:\s+[\w']+){0,4}?\s+(?P<k>\d+(?:\.\d+)?)\s*(?:×|times)\s*faster"
                             r"|\bmak\w*\s+(?:it|them|the kernels?|each kernel)\s+(?P<k2>\d+(?:\.\d+)?)\s*×\s*faster"
                             r"|\bkernels?\b(?:\s+[\w']+){0,2}?\s+twice as fast")
_WHOLE_FASTER = re.compile(r"\bhalv\w*\s+(?:the\s+)?(?:request|step|total|t)\b|\b(?:request|step|total)s?\s+(?:\w+\s+)?halv\w*"
                           r"|\bcut\w*\s+(?:the\s+)?(?:request|step|total)"
                           r"(?:\s+time)?\s+in\s+half|\b(?P<k>\d+(?:\.\d+)?)\s*×\s*faster\s+(?:request|step)"
                           r"|\b(?:request|step)s?\b[^.;]{0,20}?\b(?P<k2>\d+(?:\.\d+)?)\s*×\s*faster"
                           # "brings the request from 400 ms to 320 ms": the request's speed-up is 400 ÷ 320
                           r"|\b(?:request|step|total)s?\b[^.;]{0,30}?\bfrom\s+(?P<a>\d+(?:\.\d+)?)\s*(?:ms|µs|s)?\s+to\s+"
                           r"(?P<b>\d+(?:\.\d+)?)\s*(?:ms|µs|s)\b")


# What a what-if's kernels give, said after them ("… and the request is only 1.19× faster", "saves 64 ms").
_SHARE_SAVED = re.compile(r"\b(?:sav\w*|cut\w*|shav\w*|trim\w*|tak\w* off|remov\w*)\s+(?:only\s+|just\s+|about\s+|~\s?)?"
                          r"(?P<share>\d+(?:\.\d+)?)\s?%\s+(?:off\s+)?(?:of\s+)?(?:the\s+|each\s+)?(?:request|step|total|time"
                          r"|runtime|wall)")
_WHAT_IF_RESULT = re.compile(r"\b(?:only|just|merely|gives?|gains?|saves?|makes?|request|step|total|whole)\b")


def kernel_what_if_wrong(facts: Facts, lowered: str) -> str:
    """Why a what-if that speeds the kernels up says the whole request speeds up as much, where gaps hold most of it.

    With 2 µs of kernel in every 10 µs, kernels twice as fast make the request (2 + 8) ÷ (1 + 8) = 1.11× faster,
    not twice as fast ("halving each kernel's time would halve the request time" is wrong). "" where the line
    says no such thing, or the incident has no kernel and gap times.
    """
    spans = _kernel_and_gap(facts)
    kernels = _KERNELS_FASTER.search(lowered) if spans else None
    if spans is None or kernels is None:
        return ""
    on, off = spans[0].value, spans[1].value
    k = float(kernels["k"] or kernels["k2"] or 2)
    # The cycle over the kernels' time (1 ÷ busy) said to be what the kernels themselves can gain: it is what the
    # request gains with every gap gone.
    whole = _WHOLE_FASTER.search(lowered, kernels.end())
    share = _SHARE_SAVED.search(lowered, kernels.end())
    if whole is None and share is not None:  # "halving the 2 µs kernel would save 40% of the request": 10%
        saved = (on - on / k) / (on + off)
        said = float(share["share"]) / 100
        if k > 1 and abs(said - saved) > SHARE_POINTS:
            return (f"the kernels are {show(on, Dim.SECOND)} of every {show(on + off, Dim.SECOND)}: {number_shown(k)}×"
                    f" faster kernels save {show(on - on / k, Dim.SECOND)} of it, {show(saved, Dim.FRACTION)}, not"
                    f" {share['share']}%")
        return ""
    if whole is None:
        if k > 1 and math.isclose(k, (on + off) / on, rel_tol=MATCH) and not _GAPS_REMOVED.search(lowered) and not (
                _WHAT_IF_RESULT.search(lowered, kernels.end())):
            return (f"({show(on, Dim.SECOND)} + {show(off, Dim.SECOND)}) ÷ {show(on, Dim.SECOND)} = {number_shown(k)}×"
                    " is what the request gains with every gap gone; it says nothing of how much faster the kernels"
                    " themselves can get")
        return ""
    claimed = float(whole["a"]) / float(whole["b"]) if whole["a"] and float(whole["b"]) else float(
        whole["k"] or whole["k2"] or 2)
    expected = (on + off) / (on / k + off)
    if k <= 0 or math.isclose(claimed, expected, rel_tol=MATCH):
        return ""
    return (f"the kernels are {show(on, Dim.SECOND)} of every {show(on + off, Dim.SECOND)}: {number_shown(k)}× faster"
            f" kernels make it ({show(on, Dim.SECOND)} + {show(off, Dim.SECOND)}) ÷ ({show(on / k, Dim.SECOND)} +"
            f" {show(off, Dim.SECOND)}) = {number_shown(expected)}× faster, not {number_shown(claimed)}×")


# The time named as what was saved, after it: "so about 4 µs saved", "0.9 µs shaved off", "4 µs of savings".
_SAVED_AFTER = re.compile(r"\s*(?:(?:is |are |was |were )?(?:saved|shav\w*(?: off)?|gained back|of savings?|of time saved)\b"
                          r"|(?:off|less) (?:per|a|each) (?:call|run|step|token)\b"
                          r"|(?:less|shorter|faster|quicker|sooner)\b(?!\s+than))")  # "took 0.9 µs less"


def _saved_wrong(claim: Claim, facts: Facts, text: str) -> str:
    """A time said to be saved that the incident's speed-up does not save ("1.08× saves ~8 µs" of 12 µs), or ""."""
    if claim.dim is not Dim.SECOND or _what_if(text, claim) or not (
            _NOT_A_SLIP.search(text, max(0, claim.start - 24), claim.start) or _SAVED_AFTER.match(text, claim.end)):
        return ""
    speeds = [f for f in facts.known if f.speed and f.value > 1]
    times = [f for f in facts.known if f.dim is Dim.SECOND]
    saved = [(t.value - t.value / s.value, t, s) for s in speeds for t in times]
    if not saved or any(math.isclose(claim.value, a.value - b.value, rel_tol=MATCH) for a in times for b in times):
        return ""
    if claim.bound:  # "saves not even 0.5 µs": the bound must hold of what the speed-up saves of the measured time
        # (the longest time: a floor under it is no time the speed-up was measured on)
        longest = max(t.value for t in times)
        measured = [x for x in saved if x[1].value == longest]
        held = [v for v, _, _ in measured if (v < claim.value * (1 + MATCH) if claim.bound == "<" else v > claim.value * (1 - MATCH))]
        if held:
            return ""
    elif any(math.isclose(claim.value, v, rel_tol=MATCH) for v, _, _ in saved):
        return ""
    value, time, speed = min(saved, key=lambda found: abs(math.log(found[0] / claim.value)))
    said = f"{'under ' if claim.bound == '<' else 'over ' if claim.bound == '>' else ''}{claim.shown()}"
    return (f"a {speed.shown()}× speed-up saves {time.shown()} − {time.shown()}/{speed.shown()} ="
            f" {show(value, Dim.SECOND)}, not {said}")


# What says a figure is what the roof would give: "even a perfect kernel only gets ~43% faster", "at best 30% less".
_AT_THE_ROOF_SAID = re.compile(r"\b(?:perfect|ideal|flawless|best|most|would|could|if|at 100\s?%|at (?:the )?(?:roof|peak)"
                               r"|max\w*|ceiling|upper bound|up to|no more than)\b")




def _derived_for(claim: Claim, facts: Facts, text: str = "") -> list[dv.Derived]:
    """The derived figures a claim may be, by its unit and by the role its words give it."""
    pool = [*facts.derived, *facts.datasheet]
    out = []
    for d in pool:
        bare = claim.dim is Dim.COUNT and not claim.multiplier
        as_written = abs(d.value) * (100 if d.dim is Dim.FRACTION else 1)  # a share is written in percent
        if bare and (d.dim is Dim.COUNT or d.role in (dv.CHANGE, dv.SPARE)
                     or not math.isclose(claim.value, as_written, rel_tol=0.02)):
            continue  # a bare number is a derived figure only as written in its unit (never a change or what is left)
        if d.dim is not claim.dim and not (claim.multiplier and d.dim is Dim.COUNT) and not bare:
            continue
        if d.role == dv.CHANGE and claim.direction and (d.value > 0) != (claim.direction == "+"):
            continue
        if d.role == dv.DATASHEET and d.dim is Dim.BYTE and not claim.capacity:
            continue  # a card's memory size is not the bytes a kernel moves ("140 GB of weights" is no H200)
        if d.role == dv.SPARE and not (claim.spare or claim.share or claim.roof):
            continue  # 1 − any share is near almost any percent: a complement is one only where it is said to be
        if d.how.endswith("more speed") and not (_FASTER_AFTER.match(text, claim.end) and (
                claim.bound or _AT_THE_ROOF_SAID.search(text, max(0, claim.start - 60), claim.start))):
            continue  # what the roof would give in speed, said as a what-if or a bound: 43% more speed is no 43% cut
        if d.role == dv.SPARE and d.dim is not Dim.FRACTION and not claim.spare:
            continue  # a rate left under the roof is that only where it is said to be left ("reaches 0.3 TB/s" is not)
        if claim.dim is Dim.FRACTION:
            if (claim.change and d.role != dv.CHANGE) or (d.role == dv.CHANGE and not claim.change):
                continue  # a percent is a change exactly where the change is said of it
            if claim.spare and d.role != dv.SPARE:
                continue
            if claim.share and d.role not in (dv.RATIO, dv.SPARE):
                continue
            # a share of a roof said as used ("eager runs at 26% of peak", "15% of peak bandwidth used") is no share
            # of the time (1 ÷ 3.8) nor what is left of the roof (100% − 85%)
            if claim.roof and not (claim.spare or claim.share or claim.of_time) and d.role in (dv.RATIO, dv.SPARE) and any(
                    f.dim is Dim.FRACTION and f.roof == claim.roof for f in facts.known):
                continue
        if claim.at_peak and d.role != dv.AT_PEAK:
            continue
        if claim.multiplier and d.role not in (dv.RATIO, dv.HEADROOM):
            continue
        if claim.dim is Dim.FRACTION and abs(claim.value - abs(d.value)) > SHARE_POINTS:
            continue
        # A headroom is a multiplier written to its digits: "1.3×" is not 1 ÷ 70% = 1.43×, "1.4×" is.
        rel = min(MATCH, arithmetic_tolerance(claim.written)) if d.role == dv.HEADROOM else MATCH
        if bare or math.isclose(claim.value, abs(d.value), rel_tol=rel):
            out.append(d)
    return out


def _fraction_misread(claim: Claim, facts: Facts) -> str:
    """A percent said of a change that is a ratio ("180 → 80 ms is a 44% speed-up"; "8 → 14 ms, +175%")."""
    if not claim.change:
        return ""
    for d in facts.derived:
        if d.role == dv.RATIO and d.dim is Dim.COUNT and math.isclose(claim.value, d.value, rel_tol=MATCH / 2):
            change = d.value - 1
            return (f"{d.how} is {number_shown(d.value)}× the time: a change of {'+' if change > 0 else '−'}"
                    f"{show(abs(change), Dim.FRACTION)}, not {claim.shown()}")
        if d.role == dv.RATIO and d.dim is Dim.FRACTION and math.isclose(claim.value, d.value, rel_tol=MATCH / 2):
            return (f"{d.how} is {show(d.value, Dim.FRACTION)} of the whole, not a change of {claim.shown()}")
    for f in facts.known:
        if f.speed and f.value > 1 and math.isclose(claim.value, f.value, rel_tol=MATCH / 2):
            return (f"{f.shown()}× is {show(1 - 1 / f.value, Dim.FRACTION)} less time, or"
                    f" {show(f.value - 1, Dim.FRACTION)} more speed, not {claim.shown()}")
    return ""


_A_RATE = re.compile(r"\b(?:throughput|tok(?:en)?s?/s|tokens? (?:per|a) second|tok/s|rate)\b")
_TIME_UNIT = re.compile(r"\d\s?(?:ms|µs|ns|s)\b")


def _change_turned(claim: Claim, facts: Facts, text: str) -> str:
    """A rate's change said as its time's, the other way round ("ITL 8 → 14 ms, so throughput fell by 75%"), or ""."""
    lo = _sentence_bounds(text, claim)[0]  # "throughput fell from 125 to 71 tok/s, a drop of 75%"
    if claim.direction is None or not _A_RATE.search(text, max(lo, claim.start - 40), claim.start):
        return ""
    said_up = claim.direction == "+"
    changes = [d for d in facts.derived if d.role == dv.CHANGE and d.dim is Dim.FRACTION]
    turned = next((d for d in changes if (d.value > 0) != said_up and _TIME_UNIT.search(d.how)
                   and math.isclose(abs(d.value), claim.value, rel_tol=MATCH / 2)), None)
    if turned is None:
        return ""
    # a rise of r in a time is a fall of r ÷ (1 + r) in its rate: 8 → 14 ms is +75% a token, −42.9% tokens a second
    rate = abs(turned.value) / (1 + turned.value)
    return (f"{turned.how} is a {'fall' if turned.value < 0 else 'rise'} of {show(abs(turned.value), Dim.FRACTION)},"
            f" not a {'rise' if said_up else 'fall'}; its rate {'rises' if turned.value < 0 else 'falls'} by"
            f" {show(rate, Dim.FRACTION)}")


_SPEED_WORD_AFTER = re.compile(r"\s*(?:faster|quicker|(?:of\s+)?speed-?ups?)\b")
_SPEED_WORD_BEFORE = re.compile(r"\b(?:speed-?up|faster|quicker)\s+(?:of|by)\s+(?:about\s+|~\s?|≈\s?)?$")


def _time_cut_said_as_speed(claim: Claim, facts: Facts, text: str) -> str:
    """A cut in time said as the rise in speed ("180 → 80 ms: a 56% speed-up"), or "".

    180 → 80 ms takes 56% off the time; the speed rises by 180 ÷ 80 − 1 = 125%.
    """
    if claim.direction != "+" or not (_SPEED_WORD_AFTER.match(text, claim.end)
                                       or _SPEED_WORD_BEFORE.search(text, max(0, claim.start - 24), claim.start)):
        return ""
    cut = next((d for d in facts.derived if d.role == dv.CHANGE and d.dim is Dim.FRACTION and -1 < d.value < 0
                and math.isclose(-d.value, claim.value, rel_tol=MATCH / 2)), None)
    if cut is None:
        return ""
    speed = 1 / (1 + cut.value) - 1
    return (f"{cut.how} takes {show(-cut.value, Dim.FRACTION)} off the time; in speed that is {show(speed, Dim.FRACTION)}"
            f" faster ({number_shown(speed + 1)}×), not {claim.shown()}")


def _bytes_floor(facts: Facts) -> dv.Derived | None:
    """The least time the incident's deciding bytes take at its roof (A4's 14 GB ÷ 300 GB/s), where it has one."""
    return next((d for d in facts.derived if d.role == dv.FLOOR and d.dim is Dim.SECOND and d.deciding), None)


def _ceiling_said_as_a_minimum(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """The most tokens a second its weights' floor allows, said as the least ("should manage at least ~21 tok/s").

    A4's 14 GB ÷ 300 GB/s ≈ 47 ms is the least time a token takes, so 21 tok/s is the most the bytes allow.
    """
    floor = _bytes_floor(facts)
    if floor is None or floor.value <= 0:
        return ""
    ceiling = 1 / floor.value
    for claim in claims:
        if claim.dim is not Dim.TOKEN_RATE or not math.isclose(claim.value, ceiling, rel_tol=MATCH):
            continue
        said = claim.bound == ">" or _A_MINIMUM_AFTER.match(text, claim.end)
        if said and not _NOT_BEFORE.search(text, max(0, claim.start - 30), claim.start):
            return (f"{floor.how} ≈ {show(floor.value, Dim.SECOND)} is the least time a token can take, so"
                    f" {show(ceiling, Dim.TOKEN_RATE)} is the most the bytes allow, not the least")
    return ""


_A_MINIMUM_AFTER = re.compile(r"[^.;]{0,20}?\b(?:minimum|at the least|or more|or better|floor rate|at a minimum)\b")


def _time_at_the_roof(facts: Facts) -> dv.Derived | None:
    """The incident's own measured time at 100% of its roof (180 ms × 62% = 112 ms), where it gives one.

    The first of the derived times at the roof is the incident's; the others are its targets' at the same share.
    """
    return next((d for d in facts.derived if d.role == dv.AT_PEAK and d.value > 0), None)


def _headroom(facts: Facts) -> dv.Derived | None:
    """How far the incident's roof is (1 ÷ the share of it reached: 1.43× at 70% of peak), where it gives a share."""
    return next((d for d in facts.derived if d.role == dv.HEADROOM and d.deciding), None)


def _headroom_wrong(claim: Claim, text: str, facts: Facts) -> str:
    """A multiplier said of the room left to a roof that is not 1 ÷ the share ("70% of peak: 3.3× headroom")."""
    if claim.bound == ">" or _OPERAND_OF_PRODUCT.match(text, claim.end) or claim.dim is not Dim.COUNT:
        return ""  # "a perfect kernel: 180 × 0.62 = 112 ms" multiplies, it says no speed-up
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    if not claim.multiplier:
        return _spare_inverted(claim, text, facts)
    # the clause, or the sentence up to the figure where its working's brackets cut the clause ("headroom 1/(1−0.7)
    # ≈ 3.3×")
    if not _HEADROOM.search(text, lo, hi) and not (
            _ARITHMETIC_NEAR.search(text, max(0, claim.start - 4), claim.start + 1)
            and _HEADROOM.search(text, _sentence_bounds(text, claim)[0], claim.start)):
        return ""
    headroom = _headroom(facts)
    if headroom is None or (any(f.speed and math.isclose(f.value, claim.value, rel_tol=SPEED_MATCH) for f in facts.known)
                            and not _UNUSED_NEAR.search(text, lo, hi)):
        return ""  # the incident's measured speed-up ("a perfect fusion gave 3.8×", "the ideal 4×") is no headroom
    room = f"the headroom is {headroom.how} = {number_shown(headroom.value)}×"
    inverse = 1 / (1 - 1 / headroom.value)  # 1 ÷ what is left: "30% left, so up to 3.3×" of 70%
    if math.isclose(claim.value, inverse, rel_tol=MATCH):
        return f"{room}; {number_shown(claim.value)}× is 1 ÷ what is left, {show(1 - 1 / headroom.value, Dim.FRACTION)}"
    if claim.bound == "<":  # "at most 1.3× is left" of 70%: a bound below what is left is false
        tolerance = min(MATCH, arithmetic_tolerance(claim.written))
        return "" if claim.value >= headroom.value * (1 - tolerance) else f"{room}, more than at most {claim.shown()}×"
    return f"{room}, not {claim.shown()}×"


# A multiplier named as how far the measured rate is from its roof: "the 3.8x is the ratio of peak to achieved
# bandwidth", "peak over achieved is 1.18×".
_TO_THE_ROOF = (r"(?:the\s+)?(?:ratio\s+(?:of|between)\s+(?:the\s+)?(?:peak|roof|datasheet)\s+(?:[\w/-]+\s+)?(?:to|and)\s+"
                r"(?:the\s+)?(?:achieved|measured|actual)|(?:peak|roof)\s*(?:over|÷|/|divided by)\s*(?:achieved|measured|actual)"
                r"|(?:gap|distance)\s+(?:to|from)\s+(?:the\s+)?(?:peak|roof)|how far (?:below|under|from|short of)"
                r"\s+(?:the\s+)?(?:peak|roof))")
_TO_THE_ROOF_AFTER = re.compile(r"\s*(?:×|x\b|times\b)?\s*(?:is|=|means|being|are)\s+(?:just\s+|simply\s+|really\s+)?"
                                + _TO_THE_ROOF)
_WORKING_AFTER = re.compile(r"\s*[/÷×*]\s*[\d(]")  # "1/0.7": an operand of the working, not the ratio said
_TO_THE_ROOF_BEFORE = re.compile(_TO_THE_ROOF + r"[\w\s/-]{0,24}?\s*(?:is|=|of|:|comes to)\s*(?:about\s+|~|≈)?$")


# A multiplier said of the measured rate against the roof: "1.7 TB/s, which is 3.8× slower than the card's 2.0 TB/s".
_SHORT_OF_THE_ROOF_AFTER = re.compile(r"\s*(?:×|x\b|times\b)\s*(?:slower|less|lower|short of|off)\s+(?:than\s+)?"
                                      r"(?:the\s+)?(?:card'?s\s+|gpu'?s\s+|peak\s+|rated\s+|datasheet\s+|roof\s+|its\s+)*"
                                      r"(?:~\s?)?(?:\d[\d.,]*\s?[TtGg][Bb]/s|peak|roof|(?:hbm\s+)?bandwidth|rating)\b")


def _ratio_to_the_roof_said(claim: Claim, facts: Facts, text: str) -> str:
    """A multiplier named as the roof over the measured rate that is not 1 ÷ the share reached.

    "3.8× is the ratio of peak to achieved bandwidth" of 1.7 of 2.0 TB/s: it is 1.18×.
    """
    if claim.dim is not Dim.COUNT or claim.bound or _WORKING_AFTER.match(text, claim.end) or not (
            _TO_THE_ROOF_AFTER.match(text, claim.end) or _SHORT_OF_THE_ROOF_AFTER.match(text, claim.end)
            or _TO_THE_ROOF_BEFORE.search(text, max(0, claim.start - 80), claim.start)):
        return ""
    headroom = _headroom(facts)
    if headroom is None or math.isclose(claim.value, headroom.value, rel_tol=MATCH):
        return ""
    return f"peak ÷ achieved is {headroom.how} = {number_shown(headroom.value)}×, not {claim.shown()}×"


# A roof said unused in so many words: "3.8× of bandwidth left unused" is no measured speed-up.
_UNUSED_NEAR = re.compile(r"\b(?:left unused|unused|untapped|idle|spare|wasted|on the table|headroom)\b")
_ROOM_LEFT = re.compile(r"\b(?:headroom|room|left|to gain|on the table|untapped|unused|spare|to spare|double|triple)\b")


def _headroom_past_roof(claim: Claim, facts: Facts, text: str) -> str:
    """Room said to be left under a roof the measured rate is already past ("38/21 ≈ 1.8× headroom still left").

    The incident measures more than its roof allows (a token rate past its weights' floor): the ratio of the two is
    how far past the roof it is, and no room is left under it.
    """
    if not (facts.anomalous and claim.multiplier and claim.dim is Dim.COUNT and claim.value > 1 and not claim.bound):
        return ""
    lo, hi = _sentence_bounds(text, claim)
    if not _ROOM_LEFT.search(text, lo, hi) or _NO_ROOM.search(text, lo, hi):
        return ""  # "1.8× past the floor, so no headroom is left" says it right
    pasts = [d for d in facts.derived if d.role == dv.RATIO and d.of is Dim.TOKEN_RATE and d.deciding and d.value > 1]
    past = next((d for d in pasts if math.isclose(claim.value, d.value, rel_tol=MATCH)), None)
    if past is not None:
        return (f"{past.how} = {number_shown(past.value)}× is how far the measured rate is past what the roof allows;"
                " no headroom is left under it (the measurement includes more than the incident says)")
    # Any gain said to be left under this roof ("a faster kernel has 2× to gain"); a lever that moves the roof
    # (fewer bytes: int8 halves them) or a what-if may gain.
    if not pasts or _what_if(text, claim) or _ROOF_MOVED.search(text, *_sentence_bounds(text, claim)):
        return ""
    return (f"the measured rate is already {number_shown(pasts[0].value)}× past what the roof allows ({pasts[0].how});"
            f" no {number_shown(claim.value)}× is left under it")


_ROOF_MOVED = re.compile(r"\b(?:int[48]|fp[48]|quanti[sz]\w*|halv\w*|compress\w*|fewer bytes|smaller (?:weights|model)"
                         r"|batch\w*|speculat\w*)")
_NO_ROOM = re.compile(r"\b(?:no|nothing|none|not|zero|without|isn'?t|aren'?t|can'?t|cannot|won'?t)\b")
_SPEED_UP_SAID = re.compile(r"\b(?:speed-?ups?|headroom|faster|room)\b(?:(?![;!?\n]|\.(?!\d)).){0,30}$")


def _spare_inverted(claim: Claim, text: str, facts: Facts) -> str:
    """A speed-up worked as 1 ÷ what is left under the roof, its × left off ("headroom 0.3 ⇒ speed-up ≤ 1/0.3 ≈ 3.3").

    Only the inverse itself is held here: a plain number is a multiplier only where a speed-up is said right before
    it, and one that is 1 ÷ (1 − the share) is that slip whatever else it might be.
    """
    headroom = _headroom(facts)
    if headroom is None or claim.value <= 1 or not _SPEED_UP_SAID.search(text, max(0, claim.start - 40), claim.start):
        return ""
    left = 1 - 1 / headroom.value
    if not math.isclose(claim.value, 1 / left, rel_tol=MATCH):
        return ""
    return (f"the headroom is {headroom.how} = {number_shown(headroom.value)}×; {number_shown(claim.value)} is 1 ÷"
            f" what is left, {show(left, Dim.FRACTION)}")


# The idle part of the time taken away ("removing the gaps", "with the bubbles closed"): what is left is the kernels.
_GAPS_REMOVED = re.compile(r"\b(?:remov\w*|eliminat\w*|clos\w*|kill\w*|cut\w*|get(?:ting)? rid of|without|delet\w*"
                           r"|hid\w*|fill\w*|no)\b(?:\s+[\w-]+){0,3}?\s+(?:gaps?|idle time|bubbles?|off[- ]time"
                           r"|dead time|waits?)\b")


def _kernel_and_gap(facts: Facts) -> tuple[Claim, Claim] | None:
    """The incident's kernel (busy) time and gap (idle) time, where it gives both ("2 µs of kernel, 8 µs of gap")."""
    on = next((f for f in facts.known if f.dim is Dim.SECOND and f.span == "busy"), None)
    off = next((f for f in facts.known if f.dim is Dim.SECOND and f.span == "idle"), None)
    return None if on is None or off is None else (on, off)


# A part of the time said to hold most of it ("that is where the time goes", "the bulk of the request").
_WHOLE = re.compile(r"\bwhole\b|\ball (?:of )?the\b")
_DOMINATES = re.compile(r"\b(?:where (?:the|all the|most of the) time goes|(?:most|bulk|majority) of (?:the )?(?:time|request"
                        r"|step|it)|dominat\w*|the bottleneck|eats? (?:up )?(?:the|most)|the lion'?s share"
                        r"|(?:that'?s|is|makes up) (?:the whole|all (?:of )?the) (?:request|time|step|token))\b")


# A measured speed-up said to come from the share of the roof left unused ("compile's 3.8× must come from using the
# remaining 15% of bandwidth").
_FROM_THE_REST = re.compile(r"\b(?:(?:come|comes|came|coming) from|(?:by|from) (?:using|filling|closing|reclaiming)|thanks to"
                            r"|because (?:it|compile|fusion) (?:used|fills?|filled|closed|closes))(?:\s+(?:using|the|that|this"
                            r"|its))*\s+(?:remaining|unused|spare|leftover|idle|rest of the)\b")


def _speed_from_the_rest_of_the_roof(claim: Claim, facts: Facts, text: str) -> str:
    """A speed-up the incident measured said to come from using the rest of a roof that cannot give it, or ""."""
    if not claim.multiplier or not any(f.speed and same(claim, f) for f in facts.known):
        return ""
    headroom = _headroom(facts)
    if headroom is None or claim.value <= headroom.value * (1 + MATCH):
        return ""
    start, end = _sentence_bounds(text, claim)
    sentence = text[start:end]
    if not _FROM_THE_REST.search(sentence) or NEGATION.search(sentence):
        return ""
    return (f"using the rest of the roof buys at most {headroom.how} = {number_shown(headroom.value)}×; the"
            f" {claim.shown()}× came from doing less (moving fewer bytes), not from using more of the roof")


# What changes the work or the roof, not how well the kernel runs under it: a speed-up past the headroom may follow.
_WORK_CHANGED = re.compile(r"\b(?:fus\w*|compil\w*|fp8|fp4|int8|int4|nf4|quanti[sz]\w*|lower[- ]precision|more gpus|gpus|shorter"
                           r"|chunk\w*|batch\w*|fewer (?:bytes|flops)|sparsit\w*|prun\w*|distil\w*|spec\w*|bigger card|h100"
                           r"|b200|another card|new card|tensor[- ]parallel\w*)")


def _tuned_past_the_roof(claim: Claim, facts: Facts, text: str) -> str:
    """A speed-up said of the kernel on its own roof past what is left under it, or "".

    "At 70% of peak the GEMM could be made 8.7× faster"; what changes the work or the roof (fusion, FP8, more GPUs)
    may go past it.
    """
    if not claim.multiplier or claim.bound or not _FASTER_AFTER.match(text, claim.end) or _NEEDED.search(
            text, _sentence_bounds(text, claim)[0], claim.start) or any(d.role == dv.RATIO for d in _derived_for(claim, facts, text)):
        return ""  # the speed-up the target needs (180 → 80 ms: 2.25×) is no claim that tuning reaches it
    headroom = _headroom(facts)
    if headroom is None or claim.value <= headroom.value * (1 + MATCH) or any(
            f.speed and math.isclose(f.value, claim.value, rel_tol=SPEED_MATCH) for f in facts.known):
        return ""  # the incident's measured speed-up ("compile 3.8× faster") changed the work
    if _WORK_CHANGED.search(text, *_sentence_bounds(text, claim)):
        return ""
    return (f"on this roof the kernel can go at most {headroom.how} = {number_shown(headroom.value)}× faster;"
            f" {claim.shown()}× needs less work or another roof")


def past_its_roof_promised(facts: Facts, reading: Reading, lowered: str) -> str:
    """Why a help line whose levers only bring the kernel nearer its roof promises more than the roof allows, or "".

    "Vectorise the loads and the chain will catch up with compile's 3.8×" of A2 at 85% of its bandwidth: better loads
    move the same bytes, so at most 1 ÷ 85% = 1.18×. A bound ("at most 1.18×") or a win denied is no promise.
    """
    headroom = _headroom(facts)
    if headroom is None:
        return ""
    for claim in reading.claims:
        if (claim.multiplier and claim.dim is Dim.COUNT and not claim.bound
                and claim.value > headroom.value * (1 + MATCH) and not _WORKING_AFTER.match(lowered, claim.end)
                and not NEGATION.search(lowered, _clause_bounds(lowered, claim.start, claim.end)[0], claim.start)):
            return (f"on this roof the kernel can go at most {headroom.how} = {number_shown(headroom.value)}× faster,"
                    f" not {claim.shown()}×: better loads or tiling move the same bytes and do the same work")
    return ""


_ENOUGH = re.compile(r"\b(?:enough|suffic\w*|gets? (?:us|it|you) (?:to|there|down)|(?:will|would|can|could) get there|takes? (?:us|it) (?:to|down)|reach(?:es)?"
                     r"|hits?|makes? it)\b")


def _change_said_after(claim: Claim, line: Sequence[Claim], text: str,
                       said_by: re.Pattern[str]) -> tuple[int, Claim, Claim, float] | None:
    """The change of time a multiplier is said to give, in its sentence after ``said_by``, or None.

    "… enough to take 180 ms to 80 ms": where the saying starts, the two times and the speed-up they need. None where
    no such change is said, or it is denied.
    """
    end = _sentence_bounds(text, claim)[1]
    said = said_by.search(text, claim.end, end)
    if said is None or NEGATION.search(text[claim.end:said.start()]):
        return None
    times = [c for c in line if c.dim is Dim.SECOND and said.end() <= c.start < end]
    if len(times) < 2 or times[1].value <= 0:
        return None
    return said.start(), times[0], times[1], times[0].value / times[1].value


def _headroom_not_enough(claim: Claim, facts: Facts, line: Sequence[Claim], text: str) -> str:
    """The headroom said to be enough for a change of time it cannot give, or "".

    "1.61× headroom, which is enough to take 180 ms to 80 ms": that needs 2.25×.
    """
    headroom = _headroom(facts)
    if claim.dim is not Dim.COUNT or headroom is None or not math.isclose(
            claim.value, headroom.value, rel_tol=min(MATCH, arithmetic_tolerance(claim.written))):
        return ""
    change = _change_said_after(claim, line, text, _ENOUGH)
    if change is None or change[3] <= headroom.value * (1 + MATCH):
        return ""
    _, before, after, needed = change
    return (f"{headroom.how} = {number_shown(headroom.value)}× at most; {before.shown()} → {after.shown()} needs"
            f" {number_shown(needed)}×")


_TAKES = re.compile(r"\b(?:enough|suffic\w*|takes?|taking|took|gets?|getting|brings?|bringing|cuts?|cutting)\b")


def _speed_up_short_of_the_change(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A speed-up said to take one time to another it cannot reach, or "".

    "FP8 alone will do it: doubling the tensor peak takes 180 ms to 80 ms": 2× takes 180 ms to 90 ms; 180 → 80 ms
    needs 2.25×. A bound ("at least 3×") or a what-if's condition ("if it were 3× faster") is left to its own checks.
    """
    if claim.dim is not Dim.COUNT or not claim.multiplier or claim.value <= 1 or claim.bound:
        return ""
    change = _change_said_after(claim, line, text, _TAKES)
    if change is None or change[3] <= claim.value * (1 + MATCH) or re.search(r"\bif\b", text[claim.end:change[0]]):
        return ""
    _, before, after, needed = change
    return (f"a {claim.shown()}× speed-up takes {before.shown()} to {show(before.value / claim.value, Dim.SECOND)};"
            f" {before.shown()} → {after.shown()} needs {number_shown(needed)}×")


# What a roof reached is said to buy: "up to 100% of peak, then 180 ms -> 80 ms", "full peak gets 180 ms to 80 ms".
_THEN_TAKES = re.compile(r"\b(?:then|so|takes?|taking|gets?|getting|brings?|bringing|gives?|giving|would|will)\b|→|->")
_OF_PEAK = re.compile(r"\s?(?:of\s(?:the\s|its\s)?(?:peak|roof|theoretical|max\w*)|peak)\b")
# A roof said not to reach the change: "even at 100% it's still 112 ms", "100% of peak is not enough for 80 ms".
_SHORT_OF_IT = re.compile(r"\b(?:even|still|not enough|isn'?t enough|never|only|at best|can'?t|cannot|won'?t|short"
                          r"|not (?:get|reach|hit|make))\b")


def _roof_short_of_the_change(claim: Claim, facts: Facts, line: Sequence[Claim], text: str) -> str:
    """The roof reached said to take the measured time to one below what the roof allows, or "".

    "Tune the GEMM up to 100% of peak, then 180 ms -> 80 ms": at 100% of the roof 180 ms × 0.62 is 112 ms; 80 ms needs
    more than the roof (less work, a faster card). Said with "even", "still" or "not enough", it is the right reading.
    """
    if claim.dim is not Dim.FRACTION or claim.value < 0.99 or claim.spare or claim.change or claim.bound == ">" or not (
            claim.roof or _OF_PEAK.match(text, claim.end)):
        return ""
    at_peak = _time_at_the_roof(facts)
    start, end = _sentence_bounds(text, claim)
    change = _change_said_after(claim, line, text, _THEN_TAKES)
    if at_peak is None or change is None or _SHORT_OF_IT.search(text, start, end):
        return ""
    _, before, after, _ = change
    measured = [f for f in facts.known if f.dim is Dim.SECOND and same(before, f)]
    if not measured or after.value >= at_peak.value * (1 - MATCH) or after.bound:
        return ""
    return (f"at 100% of the roof it would take {at_peak.how} = {show(at_peak.value, Dim.SECOND)}, not"
            f" {after.shown()}: {before.shown()} → {after.shown()} needs more than the roof")


# A fix of the kernels themselves, not of the gaps between them: "a perfect kernel", "tuning the kernels".
_KERNELS_FIXED = re.compile(r"\b(?:(?:perfect|faster|better|optimi[sz]ed|tuned|rewritten|ideal|infinitely fast|zero[- ]time"
                            r"|instant)\s(?:\w+\s)?kernels?|kernel (?:work|tuning|rewrite|speed[- ]?ups?|optimi[sz]\w*)"
                            r"|(?:tun|rewrit|optimi[sz]|micro-optimi[sz])\w* (?:the |each |every )?(?:\w+ )?kernels?)\b")
_REMOVES = re.compile(r"\b(?:remov\w*|sav\w*|cuts?|cutting|shaves?|eliminat\w*|takes? (?:away|off)|kills?|reclaims?)\b")
_CEILING = re.compile(r"\b(?:ceiling|at most|at best|max\w*|upper bound|limit|cap(?:ped)?|best case|tops out)\b")


def _kernel_fix_past_its_part(claim: Claim, facts: Facts, text: str) -> str:
    """What fixing the kernels alone is said to give beyond the kernels' part of the time, or "".

    With 2 µs of kernel and 8 µs of gap a perfect kernel takes away its 2 µs of 10 µs: 20% of the time, at most
    10 ÷ 8 = 1.25×. "A perfect kernel removes 80% of that time", "kernel work has a 5× ceiling" give it the gaps' part.
    """
    spans = _kernel_and_gap(facts)
    if spans is None or claim.bound == ">":
        return ""
    start, end = _sentence_bounds(text, claim)
    fixed = _KERNELS_FIXED.search(text, start, claim.start)
    if fixed is None or re.search(r"\bgaps?\b|\blaunch", text[start:claim.start]) or NEGATION.search(
            text, fixed.start(), claim.start):
        return ""
    on, off = spans
    total = on.value + off.value
    if claim.dim is Dim.FRACTION and not claim.share and _REMOVES.search(text, fixed.end(), claim.start) and (
            claim.value > on.value / total * (1 + MATCH) + 0.02):
        return (f"a perfect kernel takes away its own {on.shown()} of {show(total, Dim.SECOND)}:"
                f" {number_shown(100 * on.value / total)}% of the time, not {claim.shown()}")
    if claim.multiplier and _CEILING.search(text, start, end) and claim.value > total / off.value * (1 + MATCH):
        return (f"a perfect kernel takes away its own {on.shown()} of {show(total, Dim.SECOND)}: at most"
                f" {show(total, Dim.SECOND)} ÷ {off.shown()} = {number_shown(total / off.value)}×, not {number_shown(claim.value)}×")
    return ""


# A speed-up said to be what a change of rate gives: "1.7 TB/s … the full 2.0 TB/s; that difference is the 3.8×".
_RATE_CHANGE_IS = re.compile(r"\b(?:(?:that|this|the) (?:difference|gap|jump|rise|increase|climb)|explains?|accounts? for)\b")
_RATES = (Dim.BYTE_RATE, Dim.FLOP_RATE)


def _speed_up_from_a_rate_change(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A speed-up said to be the change between two rates it is not the ratio of, or "".

    "Eager at 1.7 TB/s, compiled at the full 2.0 TB/s; that difference in bandwidth is the 3.8× speed-up": 2.0 ÷ 1.7
    is 1.18×; the rest of a 3.8× came from moving fewer bytes, not from moving them faster.
    """
    if claim.dim is not Dim.COUNT or not (claim.multiplier or claim.speed) or claim.value <= 1 or claim.bound:
        return ""
    before = [c for c in line if c.end <= claim.start]
    rates = before[-2:]
    if len(rates) < 2 or rates[0].dim not in _RATES or rates[1].dim is not rates[0].dim or rates[1].value == rates[
            0].value or rates[0].value <= 0 or ". " in text[rates[0].start:claim.start]:
        return ""
    linked = _RATE_CHANGE_IS.search(text, rates[-1].end, claim.start)
    if linked is None or NEGATION.search(text, rates[-1].end, claim.start):
        return ""
    a, b = rates[-2], rates[-1]
    ratio = max(a.value, b.value) / min(a.value, b.value)
    if math.isclose(claim.value, ratio, rel_tol=MATCH):
        return ""
    return (f"{a.shown()} → {b.shown()} is {number_shown(ratio)}×, not {number_shown(claim.value)}×: the rest of the"
            " speed-up is work or bytes taken away, not the same bytes moved faster")


# A cut said before its share ("cutting 125% of the time", "a drop of 120%") or after it ("125% less time").
_CUT_BEFORE = re.compile(r"\b(?:cut\w*|drop(?:s|ped)?|fall(?:s)?|fell|reduc\w*|sav(?:e|es|ed|ing)|shav\w*|remov\w*|shed\w*"
                         r"|trim\w*|lower\w*)(?:\s+(?:the\s+|its\s+)?(?:time|ttft|latency|runtime|step|it|them))?"
                         r"(?:\s+(?:of|by))?\s+(?:about\s+|roughly\s+|~\s?|≈\s?)?$")
_CUT_AFTER = re.compile(r"\s?(?:less|shorter|lower|fewer|(?:of (?:the )?time )?(?:off|saved|cut))\b")


def _cut_past_the_whole(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A share cut from a time that is more than all of it, or "".

    "180 ms down to 80 ms means cutting 125% of the time": a time cannot lose more than itself; 180 → 80 ms is a cut
    of 56% (80 → 180 ms is the rise of 125%).
    """
    if claim.dim is not Dim.FRACTION or claim.value <= 1.0 + 1e-9 or claim.multiplier or not (
            _CUT_BEFORE.search(text, max(0, claim.start - 30), claim.start) or _CUT_AFTER.match(text, claim.end)):
        return ""
    times = [c for c in line if c.dim is Dim.SECOND and c.end <= claim.start and c.value > 0]
    if len(times) >= 2 and times[-1].value < times[-2].value:
        before, after = times[-2], times[-1]
        return (f"a cut of {claim.shown()} would take the time below zero: {before.shown()} → {after.shown()} is a cut"
                f" of {show(1 - after.value / before.value, Dim.FRACTION)}")
    return f"a cut of {claim.shown()} would take the time below zero: no time loses more than all of itself"


# What may stand between a change of time and the multiplier said of it: "400 → 80 ms, i.e. about 5×".
_RIGHT_AFTER = re.compile(r"\s*(?:[,(—–:]|\s-\s)?\s*(?:(?:i\.e\.,?|so|that'?s|that is|which is|a|an|about|roughly|around|some)\s+"
                          r"|[~≈]\s?)*")


def _speed_up_of_the_change_off(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A speed-up written to a tenth that is not the change of time said just before it, or "".

    "Going 180 → 80 ms is a 2.5× speed-up": 180 ÷ 80 is 2.25×. A multiplier written without a decimal ("about 2×")
    is held only to the usual match.
    """
    if not claim.multiplier or claim.bound:
        return ""
    start, _ = _sentence_bounds(text, claim)
    times = [c for c in line if c.dim is Dim.SECOND and start <= c.start and c.end <= claim.start and c.value > 0]
    if len(times) < 2 or not _ARROW.fullmatch(text[times[-2].end:times[-1].start]):
        return ""
    before, after = times[-2], times[-1]
    ratio = max(before.value, after.value) / min(before.value, after.value)
    if "." not in claim.written:
        # a whole multiplier right after the change is said of it, rounded at most ("400 → 80 ms, 4× faster": 5×)
        if _RIGHT_AFTER.fullmatch(text, after.end, claim.start) and abs(claim.value - ratio) > 0.5 + ratio * 0.02:
            return f"{before.shown()} → {after.shown()} is {number_shown(ratio)}×, not {number_shown(claim.value)}×"
        return ""
    if math.isclose(claim.value, ratio, rel_tol=min(MATCH, arithmetic_tolerance(claim.written))) or not math.isclose(
            claim.value, ratio, rel_tol=MATCH * 1.5):
        return ""  # right to its digits, or a multiplier of something else
    return f"{before.shown()} → {after.shown()} is {number_shown(ratio)}×, not {number_shown(claim.value)}×"


_SLOWER_THAN_FLOOR = re.compile(r"\s?(?:×\s?|x\s|times\s)?(?:slower|longer|behind|worse|short)\s+(?:than|of)\s+(?:the\s+|its\s+)?"
                                r"(?:[\w-]+\s+){0,2}?(?:floor|bound|limit|minimum|ceiling|best case)\b")


def _past_the_floor_said_slower(claim: Claim, facts: Facts, text: str) -> str:
    """A multiplier said to be how much slower than its floor a kernel runs that runs past it, or "".

    A4's 38 tok/s is 26 ms a token, under the 47 ms its weights' floor allows: "1.8× slower than the floor" turns it
    round (the measurement must include more than the floor assumes: batching, quantised weights).
    """
    if not claim.multiplier or not _SLOWER_THAN_FLOOR.match(text, claim.end):
        return ""
    floor = _bytes_floor(facts)
    past = [f for f in facts.known if f.dim is Dim.TOKEN_RATE and f.value > 0 and floor is not None
            and 1 / f.value < floor.value * (1 - MATCH)]
    if floor is None or not past:
        return ""
    return (f"{past[0].shown()} is {show(1 / past[0].value, Dim.SECOND)} a token, under the"
            f" {show(floor.value, Dim.SECOND)} floor: it runs {number_shown(floor.value * past[0].value)}× faster than"
            " the floor allows, not slower")


# A time or a token rate named as the floor the bytes allow: "the bandwidth floor works out at 38 tok/s".
_FLOOR_BEFORE = re.compile(r"\b(?:floor|lower bound)\s*(?:(?:is|of|at|=|≈|:|would be|works? out(?: at| to)?|comes?"
                           r" (?:out )?(?:at|to)|sits? at|gives?|equals)\s*)*(?:about\s|roughly\s|around\s|~|≈)?\s*$")
_FLOOR_AFTER = re.compile(r"\s?(?:(?:/\s?|per\s|a\s)tok(?:en)?s?\s)?(?:bandwidth\s|memory\s|hbm\s|weights?\s)?"
                          r"(?:floor|lower bound)\b")


def _measured_called_the_floor(claim: Claim, facts: Facts, text: str) -> str:
    """The incident's measurement, or its reciprocal, named as the floor its bytes allow, or "".

    A4's floor is 14 GB ÷ 300 GB/s ≈ 47 ms a token (21 tok/s); it measures 38 tok/s. "The floor works out at 38 tok/s"
    swaps the two.
    """
    if claim.dim not in (Dim.SECOND, Dim.TOKEN_RATE) or claim.bound:
        return ""
    floor = _bytes_floor(facts)
    if floor is None or not (_FLOOR_BEFORE.search(text, max(0, claim.start - 40), claim.start)
                             or _FLOOR_AFTER.match(text, claim.end)):
        return ""
    value = floor.value if claim.dim is Dim.SECOND else 1 / floor.value
    if math.isclose(claim.value, value, rel_tol=ARITHMETIC):
        return ""
    measured = next((f for f in facts.known if f.dim in (Dim.SECOND, Dim.TOKEN_RATE) and (
        same(claim, f) if f.dim is claim.dim else math.isclose(claim.value * f.value, 1, rel_tol=MATCH))), None)
    if measured is None:
        return ""
    as_measured = "" if measured.dim is claim.dim else f" ({measured.shown()})"  # "26 ms a token (38 tok/s)"
    return (f"{claim.shown()} is what the incident measures{as_measured}, not the floor: the bytes allow"
            f" {show(floor.value, Dim.SECOND)} a token ({show(1 / floor.value, Dim.TOKEN_RATE)})")


# A share of the step before or after a change ("the sync costs 43% of the old step").
_OF_THE_STEP = re.compile(r"\s*of\s+(?:the\s+|its\s+|each\s+)?(?P<when>old|original|previous|earlier|former|eager|baseline|before|new"
                          r"|current|later|after|resulting|slower|faster)\s+(?:[\w-]+\s+)?(?:step|itl|latency|time|token"
                          r"|tokens|request|one)\b")
_BEFORE_WORDS = ("old", "original", "previous", "earlier", "former", "eager", "baseline", "before", "faster")


def _share_of_the_step(claim: Claim, facts: Facts, text: str) -> tuple[bool, str] | None:
    """A change said as a share of the step before it or after it, checked: (right, why), or None where none is said.

    A7's 8 → 14 ms: the 6 ms are 75% of the old step and 43% of the new one.
    """
    said = _OF_THE_STEP.match(text, claim.end) if claim.dim is Dim.FRACTION else None
    if said is None:
        return None
    for before, after in facts.transitions:
        if before.dim is not Dim.SECOND or after.dim is not Dim.SECOND or min(before.value, after.value) <= 0:
            continue
        change = abs(after.value - before.value)
        of_before = said["when"] in _BEFORE_WORDS
        whole = before if of_before else after
        right = change / whole.value
        how = f"{show(change, Dim.SECOND)} is {show(right, Dim.FRACTION)} of the {said['when']} {whole.shown()}"
        if math.isclose(claim.value, right, abs_tol=SHARE_POINTS):
            return True, how
        other = change / (after.value if of_before else before.value)
        if math.isclose(claim.value, other, abs_tol=SHARE_POINTS):
            return False, f"{how}, not {claim.shown()}"
    return None


def _share_of_the_other_step(claim: Claim, facts: Facts, text: str) -> str:
    """Why a change is said as its share of the other step than the one named ("43% of the old step"), or ""."""
    found = _share_of_the_step(claim, facts, text)
    return found[1] if found is not None and not found[0] else ""


def _ceiling_said_exact(claim: Claim, facts: Facts, text: str) -> str:
    """The most that taking every gap away could give, said as what a lever will exactly give, or "".

    A6's 2 µs on and 8 µs off: with no gaps at all the request is 80 ms, 5× faster; "CUDA graphs take it to exactly
    0.08 s, a guaranteed 5×" says a ceiling is what the lever delivers (a replayed graph still costs something a
    kernel).
    """
    spans = _kernel_and_gap(facts)
    if spans is None or claim.bound or not _EXACTLY.search(text, max(0, claim.start - 30), claim.start):
        return ""
    on, off = spans
    ceiling = (on.value + off.value) / on.value
    kernels_only = [d for d in facts.derived if d.span == "busy" and d.dim is Dim.SECOND]
    if (claim.multiplier and math.isclose(claim.value, ceiling, rel_tol=MATCH)) or (
            claim.dim is Dim.SECOND and any(math.isclose(claim.value, d.value, rel_tol=MATCH) for d in kernels_only)):
        said = f"{number_shown(claim.value)}×" if claim.multiplier else claim.shown()
        return (f"{said} is the ceiling with every gap gone (at most {number_shown(ceiling)}×), not what a lever is"
                " sure to give")
    return ""


# A bound said of every fix at once ("the best any fix can do is 1.25×"), not of tuning the kernels alone.
_ANY_FIX = re.compile(r"\b(?:best (?:any|every|a|the) (?:fix|change|lever|optimi[sz]ation|solution)|(?:any|every|no)"
                      r" (?:fix|change|lever|optimi[sz]ation|solution)|at best|best case|in the best case)\b")
# (and what only moves the same work faster: "nothing much left to gain by pushing that number")
_KERNEL_FIX = re.compile(r"\b(?:kernels?|tun\w*|rewrit\w*|micro|faster math|optimi[sz]\w* (?:the )?kernel"
                         r"|push\w* (?:that|the|this|its) (?:number|rate|bandwidth|figure|throughput)|the same (?:bytes|work)"
                         # "a perfect knife still leaves 320 ms of walking": the gaps left, so the kernels bounded
                         r"|perfect|still leaves?)")


def _any_fix_bounded_by_kernels(claim: Claim, facts: Facts, text: str) -> str:
    """The most any fix can give said as what removing the kernels' time gives, where the gaps hold the rest, or "".

    With 2 µs of kernel and 8 µs of gap, taking the kernels' time away gives 10 ÷ 8 = 1.25×; taking the gaps away
    gives 10 ÷ 2 = 5×. "The best any fix can do is 1.25×" bounds every fix by the smaller part; a bound said of
    tuning the kernels alone is right.
    """
    spans = _kernel_and_gap(facts)
    if spans is None or not claim.multiplier or claim.bound == ">":
        return ""
    start, _ = _sentence_bounds(text, claim)
    before = text[start:claim.start]
    if not _ANY_FIX.search(before) or _KERNEL_FIX.search(before):
        return ""
    on, off = spans
    gaps_gone = (on.value + off.value) / on.value
    if claim.value >= gaps_gone * (1 - MATCH):
        return ""
    return (f"taking the gaps away gives ({on.shown()} + {off.shown()}) ÷ {on.shown()} = {number_shown(gaps_gone)}×:"
            f" {claim.shown()}× is the most tuning the kernels can give, not any fix")


# Every change at once: "nothing can give more than 1.18×", "no change of any kind can make it more than 18% faster".
_EVERY_CHANGE = re.compile(r"\b(?:nothing|no (?:change|fix|lever|optimi[sz]ation|software change)s?(?: of any kind| at all)?"
                           r"|any (?:change|fix|lever|optimi[sz]ation)|every (?:change|fix|lever|optimi[sz]ation)"
                           # a change that cuts the work, bounded by the same roof: "fusion can't gain more than 1.18×"
                           r"|(?<!without )(?:fus(?:ion|ing)|torch\.compile|compil(?:e|ing|ation))\s+(?:can'?t|cannot|can only"
                           r"|won'?t|will never|could never|could only)\s+(?:\w+\s+){0,2}?(?:gain|give|get|buy|deliver|do|make))\b")


def _every_change_bounded_by_the_roof(claim: Claim, facts: Facts, text: str) -> str:
    """A bound on every change below a speed-up the incident measured, or "".

    A2 at 1.7 of 2.0 TB/s can move the same bytes at most 1.18× faster; compile, which moves fewer, made it 3.8×
    faster. The roof bounds a kernel's rate, not a change that cuts its work.
    """
    if claim.multiplier:
        said = claim.value
    elif claim.change and claim.direction == "+" and claim.dim is Dim.FRACTION:
        said = 1 + claim.value  # "more than 18% faster"
    else:
        return ""
    start, _ = _sentence_bounds(text, claim)
    if not _EVERY_CHANGE.search(text, start, claim.start) or _KERNEL_FIX.search(text, start, claim.start):
        return ""
    measured = max((c.value for c in facts.known if c.multiplier and c.speed), default=0.0)
    if measured <= said * (1 + MATCH):
        return ""
    shown = f"{claim.shown()}×" if claim.multiplier else claim.shown()
    return (f"a change made this kernel {number_shown(measured)}× faster: {shown} is the most the same work gains"
            " under the roof, not the most any change can give")


def _set_aside_question(text: str, at: int) -> bool:
    """Whether the sentence that reaches ``at`` ends in a question mark (a question asks, it claims nothing)."""
    ends = [i for i in (text.find(". ", at), text.find("?", at)) if i >= 0]
    return bool(ends) and text[min(ends)] == "?"


def _minority_said_to_dominate(claim: Claim, facts: Facts, text: str) -> str:
    """The kernels' (or the gaps') time said to hold most of the time when it holds the smaller part, or ""."""
    spans = _kernel_and_gap(facts)
    # the part a time is: said ("320 ms of gaps"), or the total it is of one part ("40,000 × 8 µs = 320 ms")
    span = claim.span or next((d.span for d in facts.derived if d.span and d.dim is Dim.SECOND and math.isclose(
        d.value, claim.value, rel_tol=MATCH / 2)), None)
    if spans is None or claim.dim is not Dim.SECOND or span not in ("busy", "idle") or claim.hypothetical:
        return ""
    # a total the words do not name a part of is held only to being called the whole ("80 ms, most of the time is
    # gaps" says the gaps hold most)
    whole_only = claim.span is None
    claim = dataclasses.replace(claim, span=span)
    stop = text.find(". ", claim.end)
    region = text[claim.end:min(claim.end + 80, stop if stop >= 0 else len(text))]
    found = _DOMINATES.search(region)
    # said of this time: no other figure, and no word of the other part, between them ("2 µs of kernel, then 8 µs of
    # nothing: what is the GPU doing most of the time")
    other = _SPAN_WORDS["idle" if claim.span == "busy" else "busy"]
    between = region[:found.start()] if found else ""
    if not found or (whole_only and not _WHOLE.search(found.group())) or NEGATION.search(between) or re.search(
            r"\d", between) or other.search(between) or (
            claim.span == "busy" and "launch" in between) or _set_aside_question(text, claim.end + found.end()):
        return ""
    on, off = spans
    share = (on.value if claim.span == "busy" else off.value) / (on.value + off.value)
    part, rest = ("the kernels", "the gaps") if claim.span == "busy" else ("the gaps", "the kernels")
    if _WHOLE.search(found.group()):  # "320 ms, that's the whole request": a part said to be all of it
        return (f"{claim.shown()} is {part}' part, {show(share, Dim.FRACTION)} of the time: {rest} hold the rest, so it"
                " is not the whole")
    if share >= 0.5:  # a majority: it does hold most of the time
        return ""
    return (f"{part} hold {on.shown() if claim.span == 'busy' else off.shown()} of every"
            f" {show(on.value + off.value, Dim.SECOND)}, {show(share, Dim.FRACTION)} of the time: {rest}, not {part},"
            " hold most of it")


def _gaps_removed_wrong(claim: Claim, text: str, facts: Facts) -> str:
    """A speed-up said of taking the gaps away that is not the whole time ÷ the kernels' ("2 on, 8 off: 4×")."""
    if not claim.multiplier or claim.dim is not Dim.COUNT:
        return ""
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    if not _GAPS_REMOVED.search(text, max(0, lo - 60), hi) or (
            _KERNEL_FIX.search(text, lo, claim.start) and not _GAPS_REMOVED.search(text, lo, hi)):
        return ""  # a clause of its own on the kernels ("whereas tuning the kernels gives 1.25×") is not the gaps'
    spans = _kernel_and_gap(facts)
    if spans is None:
        return ""
    on, off = spans
    expected, how = (on.value + off.value) / on.value, f"({on.shown()} + {off.shown()}) ÷ {on.shown()}"
    # a bound holds where the speed-up lies on its side of it ("at most 5×", "over 3×"): "≤ 1.25×" does not
    if math.isclose(claim.value, expected, rel_tol=MATCH) or (claim.bound == "<" and claim.value > expected) or (
            claim.bound == ">" and claim.value < expected):
        return ""
    return (f"with the gaps gone only the kernels' time is left: {how} = {number_shown(expected)}×,"
            f" not {'at most ' if claim.bound == '<' else 'at least ' if claim.bound == '>' else ''}{claim.shown()}×")


_TO_BEFORE = re.compile(r"\b(?:down\s+)?to\s+(?:~\s?|≈\s?|about\s+|roughly\s+)?$")


def _time_with_the_gaps_gone(claim: Claim, facts: Facts, text: str) -> str:
    """A time said to be left once the gaps are gone that is the gaps' total, not the kernels', or "".

    "Removing the 8 µs gaps takes a request from 400 ms down to 320 ms": 320 ms is the gaps; 80 ms of kernels is left.
    """
    if claim.dim is not Dim.SECOND or not _TO_BEFORE.search(text, max(0, claim.start - 20), claim.start):
        return ""
    lo = _clause_bounds(text, claim.start, claim.end)[0]
    if not _GAPS_REMOVED.search(text, max(0, lo - 60), claim.start):
        return ""
    totals = {d.span: d for d in facts.derived if d.role == dv.TOTAL and d.span in ("busy", "idle")}
    kernels, gaps = totals.get("busy"), totals.get("idle")
    if kernels is None or gaps is None or not math.isclose(claim.value, gaps.value, rel_tol=MATCH):
        return ""
    return (f"with the gaps gone the kernels' time is left, {kernels.how} = {show(kernels.value, Dim.SECOND)};"
            f" {claim.shown()} is the gaps' own total ({gaps.how})")


def time_with_the_gaps_gone_wrong(facts: Facts, reading: Reading, text: str) -> str:
    """The first time a lever line says is left with the gaps gone that is the gaps' own total, or ""."""
    return next((why for c in reading.claims if (why := _time_with_the_gaps_gone(c, facts, text))), "")


_SCALINGS = ((re.compile(r"\bhalv\w*|\bhalf\b"), 0.5, "half"), (re.compile(r"\bdoubl\w*|\btwice\b"), 2.0, "twice"),
             (re.compile(r"\bquarter\w*"), 0.25, "a quarter of"))


def _scaled(claim: Claim, facts: Facts, text: str) -> str:
    """A what-if that halves or doubles a figure and states the result ("int8 would halve it to 23 ms")."""
    if not claim.hypothetical or claim.dim is Dim.COUNT:
        return ""
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    for pattern, factor, name in _SCALINGS:
        if pattern.search(text, lo, hi):
            for fact in facts.known:
                if fact.dim is claim.dim and math.isclose(claim.value, fact.value * factor, rel_tol=MATCH):
                    return f"{name} {show(fact.value, fact.dim)}"
    return ""


def number_shown(value: float) -> str:
    """A multiplier as the core prints it (2.25, 1.75, 400)."""
    return format_quantity(value, Dim.COUNT)


_ALONE_WORDS = ("on", "off", "idle", "busy")  # "2 µs on": a word that says what the number is, alone
_JOINING = ("of", "per", "a", "an", "for", "our")  # "70% of peak": a word that needs the next
_NOT_SAID = re.compile(r"\d|[=≈→×/~<>]|^(?:is|are|was|were|at|to|in|and|or|so|the|vs|than|which|that|with|from|down|up"
                       r"|it|its|each|every|but|an|a|our|this)$")


def _clause(text: str, claim: Claim) -> str:
    """The number with the words after it that say what it is ("2 µs on", "70% of peak", "5 GB of KV")."""
    _, hi = _clause_bounds(text, claim.start, claim.end)
    words = [w.strip(",;:.()") for w in text[claim.end:hi].split()[:2]]
    said: list[str] = []
    if words and words[0] in _ALONE_WORDS:
        said = words[:1]
    elif words and words[0] in _JOINING:
        said = words[:2] if len(words) == 2 and not _NOT_SAID.search(words[1]) else []
    elif words and not _NOT_SAID.search(words[0]):
        said = words[:1]
    return " ".join([text[claim.start:claim.end], *said]).strip(" ,;:.")[:80]


# Words that make a clause a real what-if; a dtype alone ("70B int8 weights") may be the incident's own.
_WHAT_IF = re.compile(r"\b(?:would|could|might|if|once|should|instead|target|goal|needs? to|halv\w*|doubl\w*)\b")


# An intensity said to be a ridge: "a ~156 FLOP/B ridge", "the ridge of 156", "ridge ≈ 295 FLOP/byte".
# "a 156 FLOP/B ridge"; not "1356 FLOP/B vs ridge 156", where the figure is set against the ridge.
_RIDGE_AFTER = re.compile(r"\s*(?:(?!(?:vs|versus|against|than|and|or|over|under|below|above|past|beyond)\b)[a-z/]+\s+)?"
                          r"ridge\b")
# "≪ 156 (Part B ridge)"; not "~1356 FLOP/byte (ridge 156)", whose bracket gives the ridge its own figure
_RIDGE_IN_BRACKETS = re.compile(r"\s*\((?:the\s+)?(?:[\w']+\s+){0,2}ridge\b(?!\s*(?:of\s+|at\s+|=\s*|:\s*|is\s+)?[~≈]?\s*\d)")
# "the ridge: 156"; not "intensity against the ridge: 0.33 FLOP/byte (the add)", which sets a figure against it.
_RIDGE_NAMED_ALREADY = re.compile(r"\d[\d,.]*\s*(?:flop/b\w*|flops? per byte)?\s*ridge\s*(?:at|of|is|=|:)\s*(?:about\s+|~|≈)?$")
_RIDGE_BEFORE = re.compile(r"(?<!against the )(?<!vs\. the )(?<!vs the )(?<!versus the )(?<!with the )(?<!to the )"
                           r"\bridge\s*(?:of|at|is|=|≈|~|:|like|near|around|about|close to)?\s*"
                           r"(?:(?:the\s+)?part b(?:'?s| card'?s)?\s+)?(?:about\s+|~|≈)?$")


@cache
def _catalogue_ridges() -> tuple[float, ...]:
    """Every catalogue card's ridge at its default dtype: what "a 156 FLOP/B ridge" may be of an incident with no card."""
    out = []
    for card in hardware.catalogue().values():
        dtype = card.default_dtype()
        out.append(card.peak(dtype) / card.bandwidth.value)
    return tuple(out)


def _ridge_mark(claim: Claim, facts: Facts, text: str, shown: str) -> Mark | None:
    """The mark of an intensity said to be a ridge: the incident's card's, or, with no card named, any card's."""
    before = bool(_RIDGE_BEFORE.search(text, max(0, claim.start - 30), claim.start))  # "a ridge like Part B's 156"
    if _OPERAND.match(text, claim.end):  # "a ridge of 312/2 = 156": the working's first operand, not the ridge
        return None
    if before and _RIDGE_NAMED_ALREADY.search(text, max(0, claim.start - 40), claim.start):
        return None  # "above the 156 FLOP/byte ridge at ~1,360": the ridge has its figure; this is the kernel's
    # "16 ≪ 156", "~16 FLOP/byte, way under ~156": a ridge's figure set against the line's intensity, no ridge named
    against = claim.dim in (Dim.INTENSITY, Dim.COUNT) and not claim.multiplier and bool(
        _SET_AGAINST.search(text, max(0, claim.start - 40), claim.start))
    if not ((claim.dim is Dim.INTENSITY and (before or _RIDGE_AFTER.match(text, claim.end)))
            or (claim.dim is Dim.COUNT and (before or (_RIDGE_AFTER.match(text, claim.end) and not claim.multiplier)))
            or _RIDGE_IN_BRACKETS.match(text, claim.end) or against):
        return None
    if against and not before and not any(math.isclose(claim.value, r, rel_tol=MATCH)
                                          for r in (*facts.drill_ridges, *([facts.ridge] if facts.ridge else []))):
        return None  # a figure set against the intensity, no ridge named: the drill's own ridge only
    some_card = any(math.isclose(claim.value, r, rel_tol=MATCH) for r in _catalogue_ridges())
    if facts.ridge:
        if math.isclose(claim.value, facts.ridge, rel_tol=MATCH):
            return Mark(shown, True, "the card's ridge")
        if any(math.isclose(claim.value, r, rel_tol=MATCH) for r in facts.drill_ridges):
            # the drill's Part B card, set beside this one ("two orders below Part B's 156 ridge"): named, it is that
            # card's; unnamed, it may be taken for this card's, which is not checked here
            named = _PART_B_NAMED.search(text, max(0, claim.start - 40), min(len(text), claim.end + 30))
            return Mark(shown, True, "Part B's card's ridge") if named else None
        # Another card's ridge may be said on purpose ("on an H100 it is 295"): not checked, never wrong, where the
        # card is named ("a ridge of 312" is the drill card's peak, near no card's ridge but an H100's by chance).
        return None if some_card and hardware.named_in(text) else Mark(
            shown, False, f"the card's ridge is {show(facts.ridge, Dim.INTENSITY)}, not {claim.shown()}")
    return Mark(shown, True, "a catalogue card's ridge (this incident names no card)") if some_card else None


_OPERAND = re.compile(r"\s*[/÷×*]")
_PART_B_NAMED = re.compile(r"\bpart b\b")
# An intensity, then a figure set against it: "16 FLOP/B ≪ 156", "≤ 16 FLOP/byte, far under ~156".
_SET_AGAINST = re.compile(r"\d\s*(?:flop/b\w*|flops? per (?:weight )?byte)?[^\d.;]{0,24}?(?:≪|<<|<(?![=-])|\b(?:far |way |well |much )?"
                          r"(?:under|below|beneath|short of)\b)\s*(?:a |an |the |any )?(?:~\s?|≈\s?|about\s+)?$")


def _as_a_pencil_writes(value: float) -> str:
    """A figure as a pencil writes it: whole with thousands marked from 10 up ("1,360", "1,248"), else to its digits."""
    return f"{value:,.0f}" if value >= 10 else number_shown(value)


def _ridge_of_the_line(facts: Facts, line: tuple[Claim, ...], text: str) -> float | None:
    """The ridge a line sets its figures against: the incident's card's, else one the line names ("the ridge of 156")."""
    if facts.ridge:
        return facts.ridge
    return next((c.value for c in line if c.dim in (Dim.INTENSITY, Dim.COUNT) and not c.multiplier and (
        _RIDGE_BEFORE.search(text, max(0, c.start - 16), c.start) or _RIDGE_AFTER.match(text, c.end))), None)


def _how_far_from_the_ridge(claim: Claim, facts: Facts, at: _Line, shown: str) -> Mark | None:
    """A multiplier said of how far the line's intensity is from the ridge, held to intensity ÷ ridge, else None.

    "0.125 FLOP/B, a thousand-odd times below a ridge of 156": 156 ÷ 0.125 ≈ 1,248×, said roughly.
    """
    if not claim.multiplier or not claim.side or claim.dim is not Dim.COUNT:
        return None
    ridge = _ridge_of_the_line(facts, at.claims, at.text)
    intensities = [c for c in at.claims if c.dim is Dim.INTENSITY and c.end <= claim.start and ridge
                   and not math.isclose(c.value, ridge, rel_tol=MATCH) and c.value > 0]
    if ridge is None or not intensities:
        return None
    intensity = intensities[-1].value
    distance = max(intensity, ridge) / min(intensity, ridge)
    side = "above" if intensity > ridge else "below"
    plain = _as_a_pencil_writes
    how = f"{plain(max(intensity, ridge))} ÷ {plain(min(intensity, ridge))} ≈ {plain(distance)}×"
    if side != claim.side:
        return Mark(shown, False, f"{plain(intensity)} FLOP/byte is {side} the ridge of {plain(ridge)}, not"
                                  f" {claim.side} it")
    if math.isclose(claim.value, distance, rel_tol=HOW_FAR_MATCH) or (claim.bound == ">" and distance >= claim.value):
        return Mark(shown, True, f"how far from the ridge: {how}")
    return Mark(shown, False, f"{plain(intensity)} FLOP/byte is {plain(distance)}× {side} the ridge of"
                              f" {plain(ridge)} FLOP/byte, not {claim.shown()}×")


_RANGE_TO_A_MULTIPLIER = re.compile(r"\s?[–-]\s?\d[\d.]*\s?(?:×|x\b)")


def _side_against_the_ridge(claim: Claim, facts: Facts, at: _Line) -> str:
    """An intensity said on the side of the ridge its value is not ("≈ 0.0007, which is far above the ridge of 156").

    Checked for any intensity the line gives, its own arithmetic's result included: which side a number is on is a
    comparison the line's own figures settle. An operand of the working is not the intensity ("~1 FLOP/byte
    (1.4e10/1.4e10), far under any ridge"), nor is a figure inside brackets the side is said after.
    """
    text = at.text
    if (not claim.side or claim.multiplier or claim.dim not in (Dim.INTENSITY, Dim.COUNT) or claim.hypothetical
            or claim.start in at.summed):
        return ""
    said = text.find("ridge", claim.end)
    if ")" in text[claim.end:said if said >= 0 else len(text)] or _RANGE_TO_A_MULTIPLIER.match(text, claim.end):
        return ""  # (the low end of "8–9× past the ridge" is a multiplier too)
    ridge = _ridge_of_the_line(facts, at.claims, text)
    if ridge is None or math.isclose(claim.value, ridge, rel_tol=MATCH) or claim.value <= 0:
        return ""
    if _FROM_BEFORE.search(text, max(0, claim.start - 12), claim.start):
        return ""  # "raises its intensity from about 1 FLOP/byte past the ridge": the side is where it goes
    actual = "above" if claim.value > ridge else "below"
    if actual == claim.side:
        return ""
    return f"{claim.shown()} is {actual} the ridge of {number_shown(ridge)}, not {claim.side} it"


def ridge_wrong(lowered: str, ridge: float) -> str:
    """Why a text (normalised) is wrong where it calls a figure the ridge that is neither ``ridge`` nor a card's, or "".

    "A 4096 matmul at 156 FLOP/byte sits above the ridge of 1,356" swaps the intensity and the ridge.
    """
    facts = Facts((), (), ridge=ridge)
    reading = read(lowered)
    operands = {n for s in reading.sums for n in s.operands}  # "ridge = 312e12 / 2e12 = 156": its working
    for claim in reading.claims:
        if claim.start in operands or _OPERAND.match(lowered, claim.end):  # ">>> ridge = 312e12/2.0e12"
            continue
        mark = _ridge_mark(claim, facts, lowered, claim.written)
        if mark is not None and mark.ok is False:
            return mark.why
    return ""


# A side of the ridge said as the regime it puts a kernel in ("1356 vs ridge 156 -> memory side").
_REGIME_SIDE = re.compile(r"\b(?P<memory>memory|bandwidth|bytes)[- ](?:side|bound)\b|\b(?:compute|math|flops?)[- ](?:side|bound)\b")
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:about\s+|around\s+|roughly\s+|~\s?|≈\s?)?$")
_PLACED_REACH = 50  # characters after an intensity in which the side it is given is read
_SIDE_BY_A_FACTOR = re.compile(r"\s*,?\s*(?:is|sits|lies|lying|sitting)?\s*(?:~|≈|about|roughly|some)?\s*(?P<factor>[\d.]+)\s*×\s*"
                               r"(?P<word>below|under|beneath|lower than|less than|above|over|beyond|past|higher than)\b")


#: How far a "how far" may be from intensity ÷ ridge: it is said roughly ("~9×" for 8.7×, "about 500×" for 467×).
HOW_FAR_MATCH = 0.25
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")


def _decimal(text: str) -> bool:
    return bool(_DECIMAL.fullmatch(text))


def placed_wrong(lowered: str, ridge: float, intensities: Iterable[float]) -> str:
    """Why a text (normalised) puts one of ``intensities`` on the wrong side of ``ridge``, or "".

    "matmul intensity 1356 vs ridge 156 -> memory side" places the matmul where its FLOPs over its bytes do not.
    The side is the one said right after the figure, before the next figure that is not the ridge.
    """
    known = tuple(intensities)
    reading = read(lowered)
    for n, claim in enumerate(reading.claims):
        if claim.dim not in (Dim.INTENSITY, Dim.COUNT) or math.isclose(claim.value, ridge, rel_tol=MATCH) or not any(
                math.isclose(claim.value, k, rel_tol=0.05) for k in known):
            continue
        # how far off it is said to be ("is 8.7× below it") is no new figure
        stop = next((c.start for c in reading.claims[n + 1:]
                     if not math.isclose(c.value, ridge, rel_tol=MATCH) and not c.multiplier), len(lowered))
        window = lowered[claim.end:min(stop, claim.end + _PLACED_REACH)]
        window = window[:m.start()] if (m := re.search(r"[.;!?\n]\s", window)) else window
        said = claim.side
        if _FROM_BEFORE.search(lowered, max(0, claim.start - 12), claim.start):
            continue  # "raises its intensity from about 1 FLOP/byte past the ridge": the side is where it goes
        if said is None and (found := _REGIME_SIDE.search(window) or _SIDE_BY_A_FACTOR.match(window)):
            said = ("below" if found["memory"] else "above") if found.re is _REGIME_SIDE else (
                "below" if found["word"] in _BELOW else "above")
        expected = "above" if claim.value > ridge else "below"
        distance = max(claim.value, ridge) / min(claim.value, ridge)
        by_factor = _SIDE_BY_A_FACTOR.match(window)
        factor = by_factor["factor"] if by_factor else None
        if said == expected and factor and _decimal(factor) and not math.isclose(
                float(factor), distance, rel_tol=HOW_FAR_MATCH):  # "1,360 FLOP/byte, 87× above the ridge"
            shown = _as_a_pencil_writes(claim.value)
            return (f"{shown} FLOP/byte is {number_shown(distance)}× {expected} the ridge of {number_shown(ridge)}"
                    f" FLOP/byte, not {factor}×")
        if said is not None and said != expected:
            regime = "compute" if expected == "above" else "memory"
            shown = _as_a_pencil_writes(claim.value)
            return (f"{shown} FLOP/byte is {expected} the ridge of {number_shown(ridge)} FLOP/byte ({regime} side),"
                    f" not {said}")
    return ""


def _what_if(text: str, claim: Claim) -> bool:
    """Whether ``claim`` is said of a what-if.

    A what-if reaches to the end of its sentence ("int8 would halve the bytes to 7 GB, 23 ms"); "after" or a
    dtype alone is not one ("8 → 12 ms after .item()", "70B int8 weights").
    """
    return bool(_WHAT_IF.search(text, *_sentence_bounds(text, claim)))


def _sentence_bounds(text: str, claim: Claim) -> tuple[int, int]:
    """Where the sentence (or the clause after a semicolon) that holds ``claim`` starts and ends."""
    start = max(text.rfind(". ", 0, claim.start), text.rfind(";", 0, claim.start)) + 1
    ends = [i for i in (text.find(". ", claim.end), text.find(";", claim.end)) if i >= 0]
    return start, min(ends) if ends else len(text)


# What a figure is not a slip of: an amount saved or cut ("only saves 40 ms" of 400), a share of the ridge ("10% of a
# ~156 ridge"), a number with a dot for thousands ("1.360").
_NOT_A_SLIP = re.compile(r"\b(?:saves?|saving|saved|shaves?|cuts?|gains?|removes?|removing|knocks? off|takes? off"
                         r"|trims?)\s+(?:only\s+|just\s+|about\s+|roughly\s+|around\s+|nearly\s+|almost\s+|~|≈"
                         r"|not even\s+|(?:well\s+)?(?:under|over)\s+|(?:less|more) than\s+|at (?:most|least)\s+)*$")
# A figure a change is said to take something to: "shaving the kernel to 1 µs", "bring the step down to 5 ms".
# ("cut the request from 400 ms to 40 ms" says an outcome, checked: a figure taken "from" one to another)
_TAKEN_TO = re.compile(r"\b(?:shav\w*|cut\w*|trim\w*|halv\w*|bring\w*|brought|reduc\w*|drop\w*|speed\w* up|tun\w*|polish\w*"
                       r"|sharpen\w*|optimi[sz]\w*"
                       r"|shrink\w*|get\w*)\b(?:(?!\bfrom\b)[^.;:]){0,40}?\b(?:down\s+)?to\s+(?:~\s?|≈\s?|about\s+)?$"
                       # "even if it becomes 1 µs"
                       r"|\b(?:if|once|when)\s+(?:it|the kernel|each kernel|they|the kernels)\s+(?:becomes?|gets?|is|were|are)"
                       r"\s+(?:~\s?|≈\s?|about\s+)?$")
# Levers that halve a time or double a rate; not quantisation: "int8 weights" is A8 as it is, not a change.
HALVING_LEVERS = frozenset({"fp8_matmul", "lower_precision", "more_gpus"})
# Two figures said as a proportion: "idle 4 µs for every 1 µs it works (8:2)".
_FOR_EVERY_BEFORE = re.compile(r"[\d.]+\s*[a-zµ]+\s+(?:[a-z]+\s+){0,3}?(?:for|in|out of)\s+every\s+$")
_FOR_EVERY_AFTER = re.compile(r"\s*(?:[a-z]+\s+){0,3}?(?:for|in|out of)\s+every\s+[\d.]+\s*[a-zµ]+")
# A size said in a format named right before it, as a hypothesis to explain a figure ("the 38 tok/s must include
# quantisation: consistent with int8 (7 GB → ≤ 42.9 tok/s)"): that format's bytes. Said as the fact ("70B params at
# fp16 = 140 GB", of an int8 model), it is the incident's size in the wrong format: a slip.
_FORMAT_NAMED = re.compile(r"\b(?:u?int[248]|fp(?:4|6|8|16|32)|bf16|nf4|[248]-?bits?|q[2-8](?:_\w+)?)\b")
# A size said in a format right beside it: "268 MB per pass in fp32", "fp32: 537 MB".
_WIDTH_NAMED = ("fp32", "fp16", "bf16", "fp8", "int8")  # formats of whole bytes; widths from data/weight_formats.json
_WIDTH_AFTER = re.compile(r"\s*(?:per (?:pass|read|write|tensor|copy)\s+)?(?:in|at|as|for|of)\s+(?P<format>"
                          + "|".join(_WIDTH_NAMED) + r")\b")
_WIDTH_BEFORE = re.compile(r"\b(?P<format>" + "|".join(_WIDTH_NAMED) + r")\b\s*(?::|=|→|->|is|gives|means)?\s*"
                           r"(?:about\s+|~|≈)?$")
_ELEMENTS_AFTER = re.compile(r"\s*(?:-\s*)?(?:elements?|elems?|values?|numbers?|entries|floats?|halfs?|scalars?)\b")
_TIMES_A_PASS = (1, 2, 3, 4, 6, 8, 16)  # reads and writes, passes: a size may count the tensor a few times


@cache
def _whole_byte_widths() -> tuple[float, ...]:
    """The widths a count of values may be given in as a size: those of _WIDTH_NAMED but 1 (the count itself)."""
    return tuple(sorted({w for name in _WIDTH_NAMED if (w := weight_format_bytes()[name]) > 1}))


_A_WIDTH_IN = re.compile(r"[×x*]\s*\d+(?:\.\d+)?\s?(?:bytes?|b)\b")


def _width_said_off(claim: Claim, at: _Line, text: str) -> str:
    """A size said in one format that is the element count times another's width, or "".

    "134M elements → 268 MB per pass in fp32", "8 × 4096 × 4096 = 268 MB in fp32": fp32 is 4 bytes a value, 537 MB;
    268 MB is fp16's. A size that is the count times the named width times a few (reads and writes, passes) is that
    format's.
    """
    if claim.dim is not Dim.BYTE or claim.bound:
        return ""
    named = _WIDTH_AFTER.match(text, claim.end) or _WIDTH_BEFORE.search(text, max(0, claim.start - 16), claim.start)
    if not named:
        return ""
    widths = {name: weight_format_bytes()[name] for name in _WIDTH_NAMED}
    width = widths[named["format"]]
    counts = {c.value for c in at.claims if c.dim is Dim.COUNT and c.value >= 1000 and not c.multiplier
              and _ELEMENTS_AFTER.match(text, c.end)}
    # (a product that multiplies by a width already, "7B params × 2 bytes", is the bytes, no count of values)
    counts |= {s.computed for s in at.sums if s.given.start == claim.start and s.unitless and s.computed >= 1000
               and not _A_WIDTH_IN.search(text, s.given.start - 60 if s.given.start >= 60 else 0, s.given.start)}
    for count in sorted(counts):
        if any(math.isclose(claim.value, count * width * k, rel_tol=MATCH) for k in _TIMES_A_PASS):
            return ""
    for count in sorted(counts):
        other = next((w for w in sorted(set(widths.values())) if w != width and math.isclose(
            claim.value, count * w, rel_tol=MATCH)), None)
        if other is not None:
            return (f"{count:,.0f} elements × {number_shown(width)} B ({named['format']}) is"
                    f" {show(count * width, Dim.BYTE)}, not {claim.shown()} ({number_shown(other)} B a value)")
    return ""


_HYPOTHESIS = re.compile(r"\b(?:consistent with|assum(?:e|es|ed|ing)|suppos(?:e|ing)|as if|explain(?:s|ed)?(?: by)?"
                         r"|impl(?:y|ies|ied)|must (?:be|include))\b")
_OF_THE_RIDGE = re.compile(r"\s*of (?:a |the |its )?~?[\d.,]*\s*(?:flop/b\w*\s+)?ridge\b"
                           # a ridge said as a range ("a ~150–300 FLOP/byte ridge")
                           r"|\s*(?:[–-]|to)\s*~?[\d.,]+\s*(?:flop/b\w*\s+)?ridges?\b")
_THOUSANDS_WRITTEN = re.compile(r"[1-9]\d{0,2}\.\d{3}")


_WHOLE_CHANGE = 0.95


def _stated(fact: Claim, text: str) -> bool:
    """Whether the line states the incident's figure itself.

    Bytes twice a figure the line states are another quantity ("537 MB a pass … fused, read once and written once:
    1.07 GB"), not that figure slipped by a format's width.
    """
    number, _, unit = show(fact.value, fact.dim).partition(" ")
    return bool(unit) and re.search(rf"(?<![\d.]){re.escape(number)}\s*{re.escape(unit)}", text, re.IGNORECASE) is not None


_EACH_ITEM = re.compile(r"\b(?:per|each|a|every)\s+(?:generated\s+|output\s+|new\s+|decoded\s+|single\s+)?(?:token|sequence|request|sample|user|prompt)s?\b")


def _per_counted(value: float, of: float, facts: Facts, text: str, at: int) -> bool:
    """Whether ``value`` is ``of`` shared over a count the incident gives, the count written as an operand.

    "Batch 8, so each token costs 70/8 = 8.75 GB": the 8 is the batch, not bits for bytes; said of the step ("70 GB /
    8 = 8.75 GB read per step") it is the whole step's bytes divided, and stays a slip.
    """
    if not _EACH_ITEM.search(text, max(0, at - 40), at + 60):  # "read per step" is the whole, not a share of it
        return False
    for count in (f for f in facts.known if f.dim is Dim.COUNT and not f.multiplier and f.value >= 2):
        written = re.escape(number_shown(count.value))
        operand = re.search(rf"[/÷×*]\s*\(?{written}(?![\d.])|(?<![\d.]){written}\s*[×*]", text) or (
            _ACROSS_THE_BATCH.search(text, max(0, at - 80), at + 60))  # "8.75 GB per generated token across the batch"
        if operand and math.isclose(value * count.value, of, rel_tol=0.02):
            return True
    return False


_ACROSS_THE_BATCH = re.compile(r"\b(?:across|over|among|shared (?:by|across)|split (?:across|over))\s+(?:the\s+|a\s+|its\s+)?"
                               r"(?:whole\s+)?batch\b"
                               # "~8.75 GB per generated token at batch 8"
                               r"|\bat\s+(?:a\s+)?batch(?:\s+size)?\s+(?:of\s+)?\d"
                               # "batch 8 → 8.75 GB per generated token"
                               r"|\bbatch(?:\s+size)?\s*(?:of\s+|=\s*)?\d+\s*(?:→|->|=>|:|,\s*so)")
_SPED_UP = re.compile(r"(\d+(?:\.\d+)?)×\s*(?:faster|quicker|shorter|as fast)")


def _sped_up(claim: Claim, facts: Facts, text: str, sentence: int) -> str:
    """A time that is one of the incident's sped up by a multiplier said before it ("twice as fast (2 → 1 µs)"), or ""."""
    if claim.dim is not Dim.SECOND:
        return ""
    for k in (float(m[1]) for m in _SPED_UP.finditer(text, sentence, claim.start)):
        for fact in (f for f in facts.known if f.dim is Dim.SECOND and k > 0):
            if math.isclose(claim.value * k, fact.value, rel_tol=min(MATCH, arithmetic_tolerance(claim.written))):
                return f"{fact.shown()} ÷ {number_shown(k)}, the what-if's"
    return ""


# A sentence that halves or doubles on purpose ("two GPUs at the same 62% is ~90 ms"): a factor of 2 is no slip there.
_HALVED = re.compile(r"\b(?:two|2)\s+(?:gpus?|cards?|devices?|h100s?|nodes?|ranks?)\b|\bhal(?:f|ve|ves|ved|ving)\b"
                     r"|\bdoubl\w*|\btwice\b|\b2\s?[×x](?!\s*10)|\bx\s?2\b")


def _in_proportion(claim: Claim, facts: Facts, text: str) -> bool:
    """Whether a figure is said "for every" another whose ratio is that of two of the incident's.

    "4 µs idle for every 1 µs of work" of 8 µs and 2 µs: a proportion, not a slip of either.
    """
    if claim.dim is Dim.COUNT:
        return False
    after = _FOR_EVERY_AFTER.match(text, claim.end)
    before = _FOR_EVERY_BEFORE.search(text, max(0, claim.start - 60), claim.start)
    said_with = after.group() if after else before.group() if before else ""
    other = next((c for c in read(said_with).claims if c.dim is claim.dim), None)
    if other is None or other.value <= 0:
        return False
    said = claim.value / other.value
    same = [f.value for f in facts.known if f.dim is claim.dim and f.value > 0]
    if any(math.isclose(max(claim.value, f) / min(claim.value, f), prefix, rel_tol=0.08) for f in same
           for prefix in (1e3, 1e6)):
        return False  # "8 ms idle for every 2 ms of work": the proportion holds, the unit's prefix is slipped
    return any(math.isclose(said, a / b, rel_tol=MATCH) for a in same for b in same if a != b)


def _slipped(claim: Claim, facts: Facts, text: str, own_result: bool = False) -> str:
    """How ``claim`` is off one of the incident's figures by a slip people make, or "".

    The result of the learner's own arithmetic, checked (``own_result``), is held to the incident's stated figures
    only: a figure derived here is one way to count ("32 KiB ÷ 2 TB/s" for one pass, where the learner counts the
    read and the write), and differing from it by 2× is not a slip.
    """
    if claim.dim not in _SLIP_DIMS or claim.bound:
        return ""
    # A what-if said before the figure makes it the what-if's ("int8 would halve it to 7 GB"); one after it does not
    # ("TTFT is 180 µs and needs to get to 80": 180 µs is the incident's 180 ms, slipped).
    sentence = _sentence_bounds(text, claim)[0]
    if _WHAT_IF.search(text, sentence, claim.start) or _NOT_A_SLIP.search(text, max(0, claim.start - 24), claim.start) \
            or _OF_THE_RIDGE.match(text, claim.end) or _sped_up(claim, facts, text, sentence) or (
                claim.dim is Dim.BYTE and _FORMAT_NAMED.search(text, max(sentence, claim.start - 24), claim.start)
                and _HYPOTHESIS.search(text, sentence, claim.start)):
        return ""
    if _THOUSANDS_WRITTEN.fullmatch(claim.written.split()[0].lstrip("~≈")) and any(
            f.dim is claim.dim and math.isclose(claim.value * 1000, f.value, rel_tol=MATCH) for f in facts.known):
        return ""  # "~1.360 FLOP/byte" with a dot for thousands: 1360, not a slip of 1000
    if _TAKEN_TO.search(text, max(sentence, claim.start - 60), claim.start) or _in_proportion(claim, facts, text):
        return ""
    # a lever that halves a time or doubles a rate, named before the figure in its sentence, makes a factor of 2 its
    # what-if ("FP8 alone at the same 62% → ~90 ms", "2-way TP → 90 ms")
    levered = any(m.lever in HALVING_LEVERS for m in mentions(text[sentence:claim.start]))
    halved = levered or bool(_HALVED.search(text, sentence, _sentence_bounds(text, claim)[1]))
    for fact in facts.known:
        if fact.dim is claim.dim and (why := slip(claim.value, fact.value, claim.dim)) and not (
                halved and why.startswith("a factor of 2")) and not (
                claim.dim is Dim.BYTE and math.isclose(claim.value, 2 * fact.value, rel_tol=0.08) and (
                    _stated(fact, text) or _BOTH_WAYS.search(text, max(0, claim.start - 50), claim.end + 30))
        ) and not _per_counted(claim.value, fact.value, facts, text, claim.start):
            return f"{claim.shown()} is off the incident's {show(fact.value, fact.dim)} by {why}"
    roles = (dv.DATASHEET, dv.FLOOR, dv.PER_ITEM, dv.ACHIEVED, *((dv.CHANGE,) if claim.change else ()))
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    roof = _nearest(_ROOF_WORDS, _words(text[lo:claim.start], 10, last=True), _words(text[claim.end:hi], 6, last=False))
    pool = [d for d in ((*facts.datasheet, *facts.derived) if not own_result else ())
            if d.dim is claim.dim and d.dim is not Dim.BYTE and d.value != 0
            # a total of one part of a timeline ("40,000 × 8 µs = 320 ms of gaps") is a figure people slip on too
            and (d.role in roles or (d.role == dv.TOTAL and d.span is not None))
            # a time said of the bytes is no slip of the FLOPs' floor, nor one of the FLOPs of the bytes'
            and not (roof == "bandwidth" and "FLOP" in d.how) and not (roof == "flops" and "B/s" in d.how)
            # a change to nearly nothing ("400 ms → 2 µs") pairs two kinds of time: no one slips into it
            and not (d.role == dv.CHANGE and abs(d.value) > _WHOLE_CHANGE)]

    def off_a_power_of_ten(d: dv.Derived) -> float:
        exponent = math.log10(claim.value / abs(d.value)) if claim.value > 0 else 0.0
        return abs(exponent - round(exponent))

    # The nearest first: "1.08×, an 80% improvement" is off the +8% in speed, not the −7.4% in time.
    pool.sort(key=off_a_power_of_ten)
    for d in pool:
        if why := slip(claim.value, abs(d.value), claim.dim):
            if why.startswith("a factor of 2") and d.role == dv.FLOOR and claim.value > abs(d.value) and _BOTH_WAYS.search(
                    text, max(0, claim.start - 60), claim.end + 30):
                continue  # "read + write at 2 TB/s takes about 32 ns": the bytes counted both ways
            source = "the card's datasheet" if d.role == dv.DATASHEET else d.how
            return f"{claim.shown()} is off {source}, {show(d.value, d.dim)}, by {why}"
    return ""


# A count of things in the claim's own clause ("fused: 2 passes ≈ 1.07 GB"): the claim may be that many of a figure.
_COUNTED = re.compile(r"(?<![\d.,])(\d{1,2})\s*(?:×\s*)?(?:passes|trips|round[- ]trips|kernels|layers|reads|writes|times"
                      r"|copies|launches|sweeps)\b")
# A figure said per item ("8.75 GB of weight traffic per token"): the claim may be a figure over a count.
_PER_ITEM = re.compile(r"\s*(?:of (?:[\w-]+ ){0,3})?(?:per|a|each|/)\s*(?:token|request|step|sequence|layer|pass|call"
                       r"|kernel|launch|element|user|item)\b")
# A magnitude written as such ("t_mem ~ 1e-8 s", "~10^-5 s"): it says the order, not the figure.
_ORDER = re.compile(r"[~≈]\s*$")
_ORDER_WRITTEN = re.compile(r"^\s*1(?:\.0)?\s*(?:e|×\s?10\^?|\*\s?10\^?|10\^)\s*[+-−]?\d+", re.IGNORECASE)
# The quotients whose units make another quantity: an intensity, a time at a rate, a rate over a time.
_QUOTIENT_DIMS = {(Dim.FLOP, Dim.BYTE): Dim.INTENSITY, (Dim.BYTE, Dim.BYTE_RATE): Dim.SECOND,
                  (Dim.FLOP, Dim.FLOP_RATE): Dim.SECOND, (Dim.BYTE, Dim.SECOND): Dim.BYTE_RATE,
                  (Dim.FLOP, Dim.SECOND): Dim.FLOP_RATE, (Dim.FLOP_RATE, Dim.BYTE_RATE): Dim.INTENSITY}
_TIMES_AFTER = re.compile(r"\s*(?:×|x\b|times\b)")
#: How close a multiplier must be to the ratio of two of the line's own figures to be that ratio.
LINE_RATIO = 0.05
#: How far an order of magnitude may be from the figure it is of (1e-8 s for 16.4 ns).
ORDER_FACTOR = 2.5


def _unit_of(claim: Claim, text: str) -> Dim:
    """A claim's dimension, with a count followed by a "B" read as bytes ("2.1e9 B", read apart as billions)."""
    if claim.dim is Dim.COUNT and re.match(r"\s*(?:b|bytes?)\b", text[claim.end:claim.end + 8]):
        return Dim.BYTE
    return claim.dim


#: How far (in characters) a line's own figures may stand from a number and still be what it is worked from, and how
#: many of them are tried in pairs: working is written beside its result, and pasted noise stays linear.
NEAR = 200
NEAR_CLAIMS = 16


def _near(claim: Claim, at: _Line) -> list[Claim]:
    """The line's claims written before ``claim`` and near it, the nearest NEAR_CLAIMS of them."""
    before = [c for c in at.claims if c.start < claim.start and claim.start - c.start <= NEAR]
    return before[-NEAR_CLAIMS:]


def _converted(claim: Claim, at: _Line) -> str:
    """The number as one side of a unit conversion written in the line ("1,000 µs = 1 ms"), or ""."""
    at_index = at.claims.index(claim) if claim in at.claims else -1
    for other in at.claims[max(0, at_index - 1):at_index + 2] if at_index >= 0 else ():  # its neighbours
        first, second = (claim, other) if claim.start < other.start else (other, claim)
        relation = _RELATION.match(at.text, first.end)
        if other is not claim and other.dim is claim.dim and relation and relation.end() == second.start and (
                first.written.strip() != second.written.strip()) and math.isclose(claim.value, other.value, rel_tol=0.01):
            return f"{first.shown()} = {second.shown()}, a unit conversion"
    return ""


_ITEMS_COUNTED = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{2,7})[\s-](?:tokens?|steps?|requests?|iterations?"
                            r"|calls?|replies|reply|answers?|responses?|sequences?)\b")


def _counted(claim: Claim, facts: Facts, at: _Line) -> str:
    """How a number the incident does not give follows from one it does, by what the line itself says, or "".

    One side of a unit conversion ("1,000 µs = 1 ms"); a multiplier that is the ratio of two of the line's own
    figures ("~360× longer"); a quotient of two of them whose units make the claim's ("5.4e8 FLOP … 2.1e9 B →
    0.25 FLOP/B"); that many of a figure, counted in the claim's own clause ("fused: 2 passes ≈ 1.07 GB" of 537 MB
    a pass); a figure over one of the incident's counts, said per item ("8.75 GB per token" of 70 GB for a batch of
    8); a result of the line's own checked arithmetic said again in another unit ("3.3e-8 s = 0.033 µs"); an order
    of magnitude written as one ("~1e-8 s" of 16.4 ns).
    """
    text = at.text
    converted = _converted(claim, at)
    if converted:
        return converted
    near = _near(claim, at)
    if claim.multiplier or _TIMES_AFTER.match(text, claim.end):  # "~360× longer": two of the line's own times
        for a, b in itertools.permutations([c for c in near if c.dim not in (Dim.COUNT, Dim.FRACTION)], 2):
            if a.dim is b.dim and b.value > 0 and math.isclose(claim.value, a.value / b.value, rel_tol=LINE_RATIO):
                return f"{a.shown()} ÷ {b.shown()} = {number_shown(a.value / b.value)}"
    if claim.dim is Dim.COUNT and _ITEMS_COUNTED.match(text, claim.start) and any(
            c.dim is f.dim and c.dim is not Dim.COUNT and math.isclose(c.value, f.value * claim.value, rel_tol=MATCH)
            for c in at.claims for f in facts.known):
        return "your own count of items, times the incident's figure"  # "over a 1,000-token reply, 8 s → 14 s"
    if claim.dim in (Dim.COUNT, Dim.FRACTION):
        return ""
    for a, b in itertools.permutations(near, 2):  # "5.4e8 FLOP … 2.1e9 B → ≈ 2.5e-1 FLOP/B": units that compose
        dims = (_unit_of(a, text), _unit_of(b, text))
        if dims in _QUOTIENT_DIMS and _QUOTIENT_DIMS[dims] is claim.dim and b.value > 0 and (
                math.isclose(claim.value, a.value / b.value, rel_tol=max(LINE_RATIO, arithmetic_tolerance(claim.written)))):
            return f"{a.shown()} ÷ {b.shown()} = {show(a.value / b.value, claim.dim)}"
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    times_said = [int(found[1]) for found in _COUNTED.finditer(text, lo, hi)]
    # the learner's own count of items in the sentence ("over a 1,000-token reply that's 8 s → 14 s")
    times_said += [int(found[1].replace(",", "")) for found in _ITEMS_COUNTED.finditer(text, *_sentence_bounds(text, claim))]
    for times in times_said:
        for f in facts.known:
            if times >= 2 and f.dim is claim.dim and math.isclose(claim.value, f.value * times, rel_tol=MATCH):
                return f"{number_shown(times)} × {show(f.value, f.dim)}"
    if claim.dim in (Dim.BYTE, Dim.FLOP) and _PER_ITEM.match(text, claim.end):  # an amount shared, not a time
        counts = {f.value for f in facts.known if f.dim is Dim.COUNT and f.value.is_integer() and 2 <= f.value <= 4096}
        for f in facts.known:
            for k in counts:
                if f.dim is claim.dim and math.isclose(claim.value, f.value / k, rel_tol=MATCH):
                    return f"{show(f.value, f.dim)} ÷ {number_shown(k)}"
    for result in at.claims:
        if result.start in at.results and result.start != claim.start and result.dim is claim.dim and math.isclose(
                claim.value, result.value, rel_tol=ARITHMETIC):
            return f"your arithmetic's {result.shown()}, said again"
    if _ORDER.search(text[max(0, claim.start - 3):claim.start]) and _ORDER_WRITTEN.match(claim.written):
        # Of a figure the incident gives or a floor it implies: not of any product the derived pool holds, which
        # within a factor of 2.5 would take in almost any magnitude.
        of = [v for v in [*(f.value for f in facts.known if f.dim is claim.dim),
                          *(d.value for d in facts.derived if d.dim is claim.dim and d.role == dv.FLOOR)]
              if v > 0 and max(v, claim.value) / min(v, claim.value) <= ORDER_FACTOR]
        if of:
            return f"the order of {show(of[0], claim.dim)}"
    return ""


_REACHED_BEFORE = re.compile(r"\b(?:runs?|running|ran|reach\w*|hits?|hitting|achiev\w*|gets?|getting|moves?|moving"
                             r"|sustain\w*|deliver\w*|pulls?|pulling|streams?|streaming|does|doing)\s+(?:at\s+)?"
                             r"(?:about\s+|roughly\s+|nearly\s+|~|≈)?$")


_SAID_PAST_THE_ROOF = re.compile(r"\b(?:more than|over|above|beyond|past|exceeds?|exceeding)\s+(?:[\w.×~-]+\s+){0,3}?(?:the\s+"
                                 r"|its\s+|a\s+)?(?:card'?s?\s+)?(?:peak|roof|rated|datasheet|limit|bandwidth|max\w*)\b"
                                 r"|\b(?:impossible|can'?t be|cannot be|no card|physically)\b")


def _beyond_roof(claim: Claim, facts: Facts) -> str:
    """A rate the line works out that is beyond the card's roof ("3.8 × 1.7 = 6.46 TB/s" on a 2.0 TB/s card), or ""."""
    if claim.dim not in (Dim.BYTE_RATE, Dim.FLOP_RATE) or claim.hypothetical or facts.anomalous:
        return ""  # where the incident itself measures beyond a roof, saying so is the reading, not a slip
    roofs = [d.value for d in facts.datasheet if d.dim is claim.dim] or [
        f.value for f in facts.known if f.dim is claim.dim and not f.hypothetical]
    if not roofs or claim.value <= max(roofs) * (1 + MATCH):
        return ""
    return (f"{claim.shown()} is beyond the card's {show(max(roofs), claim.dim)}: no kernel runs faster than its roof")


def _bounded(claim: Claim, facts: Facts) -> bool:
    """Whether a bound ("well under 1 µs") holds of one of the incident's figures in its unit."""
    values = [f.value for f in facts.known if f.dim is claim.dim] + [d.value for d in facts.derived if d.dim is claim.dim]
    return any((v < claim.value) if claim.bound == "<" else (v > claim.value) for v in values)


@dataclass(frozen=True)
class _Line:
    """A learner's line as the accounting needs it: its text, its claims, and where its checked sums stand."""

    text: str
    claims: tuple[Claim, ...]
    summed: frozenset[int]  # where each operand of a right sum starts
    results: frozenset[int]  # where each right sum's result starts
    exact: frozenset[int] = frozenset()  # those of them the arithmetic gives as written (no prefix left off)
    sums: tuple[Sum, ...] = ()


_GAIN_AFTER = re.compile(r"[^.;:!?]{0,30}?\b(?:doubl\w*|twice|faster|speed\w*|more (?:tokens|throughput|bytes|bandwidth)"
                         r"|gain\w*|increas\w*|boost\w*|improv\w*|rais\w*|lift\w*|help\w*)")
_IF_AFTER = re.compile(r"[^.;:!?]{0,25}?\b(?:would|wouldn'?t|could|couldn'?t|might|will not|won'?t)\b")
_SLOTS = re.compile(r"\b(?:warp\s+)?slots?\b|\bwarps?\b")  # what occupancy counts: 45% of them empty is right
_SLOTS_EMPTY = re.compile(r"[^.;:\d]{0,30}?\bslots?\b[^.;:\d]{0,20}?\b(?:empty|unused|idle|free)\b")


def _metric_mark(claim: Claim, facts: Facts, text: str, shown: str) -> Mark:
    """The mark of a share said to be occupancy or GPU utilisation: decides no roof, unless it is misread as one."""
    what = "occupancy" if claim.metric == "occupancy" else "GPU utilisation"
    # "55% occupancy, so 45% of the SMs sit idle": occupancy counts resident warps, not idle SMs or idle time.
    after = _words(text[claim.end:claim.end + 60], 6, last=False)
    if claim.metric == "occupancy" and _SHARE_WORDS["idle"].search(after) and not _SLOTS.search(after) \
            and any(f.metric == "occupancy" and math.isclose(claim.value, 1 - f.value, abs_tol=0.02) for f in facts.known):
        return Mark(shown, False, f"{claim.shown()} is 100% − the occupancy, and occupancy counts the warps resident"
                                  " on an SM, not idle SMs or idle time")
    # "55% occupancy means 55% of the warp slots sit empty": occupancy is the share filled
    if claim.metric == "occupancy" and _SLOTS_EMPTY.match(text, claim.end) \
            and any(f.metric == "occupancy" and _shares_close(f.value, claim.value) for f in facts.known):
        return Mark(shown, False, f"{claim.shown()} occupancy is the share of warp slots filled, not empty; and"
                                  " occupancy decides no regime")
    roof_share = next((f for f in facts.known if f.roof and f.dim is Dim.FRACTION and _shares_close(f.value, claim.value)),
                      None)
    # A what-if of occupancy: "100% occupancy wouldn't move more bytes" says so; "getting occupancy to 100% would
    # nearly double the tokens/s" promises what the roof does not allow.
    what_if = _IF_AFTER.match(text, claim.end) if claim.metric == "occupancy" and roof_share is not None else None
    if what_if and roof_share is not None and not NEGATION.search(what_if.group()) and _GAIN_AFTER.match(
            text, what_if.end()):
        return Mark(shown, False, f"the kernel already reaches {roof_share.shown()} of {_roof_name(roof_share.roof)}:"
                                  " more occupancy adds no bandwidth to it, and occupancy decides no regime (Rule 4)")
    if claim.metric == "occupancy" and roof_share is not None and not claim.hypothetical and not what_if and not any(
            f.metric == "occupancy" and _shares_close(f.value, claim.value) for f in facts.known):
        return Mark(shown, False, f"Occupancy is not what {claim.shown()} is: it is the share of"
                                  f" {_roof_name(roof_share.roof)} the kernel reaches, not its occupancy (the warps"
                                  " resident on an SM, which decides no regime)")
    return Mark(shown, True, f"{what}, which decides no roof")


def _headroom_said_wrong(claim: Claim, found: list[dv.Derived], text: str, shown: str) -> Mark | None:
    """A headroom (1 ÷ a share of the roof) said as the least tuning gives, or as what it gives exactly; else None."""
    if not found or not all(d.role == dv.HEADROOM for d in found):
        return None
    d = found[0]
    if claim.bound == ">":
        return Mark(shown, False, f"{d.how} = {show(d.value, d.dim)} is the most that is left under the roof, not"
                                  " the least")
    if _EXACTLY.search(text, max(0, claim.start - 40), claim.start) or _EXACTLY_AFTER.match(text, claim.end):
        return Mark(shown, False, f"{d.how} = {show(d.value, d.dim)} is the most that is left under the roof; no kernel"
                                  " is sure to reach the roof, so it is at most that, not exactly")
    return None


def _floor_promised(claim: Claim, found: list[dv.Derived], text: str, shown: str) -> Mark | None:
    """A time at 100% of the roof promised as what a fix will bring ("better kernels will bring it to 112 ms"), or None."""
    if not found or not all(d.role == dv.AT_PEAK for d in found) or claim.bound or claim.hypothetical:
        return None
    if not _EXACTLY.search(text, max(0, claim.start - 40), claim.start):
        return None
    d = found[0]
    return Mark(shown, False, f"{d.how} = {show(d.value, d.dim)} is the time at 100% of the roof: a floor no kernel is sure"
                              " to reach, so at best that, not what a fix will bring")


_A_TIME = re.compile(_TIME_UNIT.pattern + r"|\b(?:ttft|ms|µs|milliseconds?|microseconds?)\b")
_WHAT_IF_WORDS = re.compile(r"\b(?:even|perfect\w*|ideal\w*|max(?:imum)?|wide open|all the way|would|could|can|gives?|gets?"
                            r"|only|if|assuming|at most|floor|ceiling|driven|reach\w*|still)\b")


# A share said to be where the kernel runs now, or where tuning takes it ("it is at 100%", "tune the kernels to
# 100%"), not a what-if.
_STATE_BEFORE = re.compile(r"\b(?:is|are|was|were|runs?|running|sits?|sitting|hits?|hitting|already|currently|now|to"
                           r"|reach\w*)\s+"
                           r"(?:at\s+)?(?:~|≈|about\s+|around\s+)?$")


def _roof_what_if(claim: Claim, facts: Facts, text: str) -> bool:
    """Whether a 100% is the roof in a what-if ("even 100% of peak gives ~112 ms").

    Only where the incident measures a share of a roof below it; "the prefill is at 100% of peak" is no what-if.
    """
    if not any(f.roof and f.dim is Dim.FRACTION and f.value < 1 for f in facts.known):
        return False
    if not _STATE_BEFORE.search(text, max(0, claim.start - 24), claim.start):
        return True  # the incident measures less than the roof: 100% of it, not said to be where it runs, is the roof
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    if _WHAT_IF_WORDS.search(text, max(lo, claim.start - 40), min(hi, claim.end + 30)):
        return True
    # "at 100%: 180 × 0.62 ≈ 112 ms", "ms at 100% of peak": the time the roof would give is beside it
    return bool(re.search(r"\bat\s*$", text[max(0, claim.start - 4):claim.start])) and bool(
        _A_TIME.search(text[max(0, claim.start - 30):claim.end + 60]))


_SMALLER = re.compile(r"\b(?:smaller|larger|bigger|tinier|less data|fewer elements|fewer values|more elements|shr[aiu]nk\w*|grew|grown"
                      r"|(?:the )?size)\b")
_FEWER_THAN_AFTER = re.compile(r"\s*(?:×|x\b)?\s*fewer\s+than\b")
_SMALLER_AFTER = re.compile(r"\s*(?:×|x\b)?\s*" + _SMALLER.pattern)
_COMPARED_WITH = re.compile(r"\b(?:than|from|vs\.?|versus|compared (?:with|to)|a\d)\b")


def _size_scale(claim: Claim, facts: Facts, text: str, shown: str) -> Mark | None:
    """A multiplier said of the size against the incident this one is set beside ("4× smaller than A2"), else None.

    Rule 3's "shrinking 4×" names no other incident and is left to the rule.
    """
    if not facts.scales or not claim.multiplier:
        return None
    if any(c.multiplier and same(claim, c, 0.02) for c in (*facts.known, *facts.context)) and not (
            _SMALLER_AFTER.match(text, claim.end) or _FEWER_THAN_AFTER.match(text, claim.end)):
        return None  # "shrinking 16,384× from A2 made the 3.8× vanish": A2's speed-up, named, is no size
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    fewer = _FEWER_THAN_AFTER.match(text, claim.end)  # "4096x fewer than the (8, 4096, 4096) in A2"
    # "shrank 4096× (from 8·4096·4096 to …)"; "went from a (8,4096,4096) to a (8,32,32) tensor, 16,384× smaller"
    if not (fewer or _SMALLER.search(text, max(lo, claim.start - 40), min(hi, claim.end + 40))) or not _COMPARED_WITH.search(
            text, max(0, claim.start - 60), claim.end + 40):
        return None
    for scale, how in facts.scales:
        if math.isclose(claim.value, scale, rel_tol=MATCH):
            return Mark(shown, True, how)
        if (claim.bound == ">" and scale >= claim.value) or (claim.bound == "<" and scale <= claim.value):
            return Mark(shown, True, f"{how}: a bound that holds")  # "way more than 4×"
    scale, how = facts.scales[0]
    bound = {">": "more than ", "<": "at most "}.get(claim.bound or "", "")
    return Mark(shown, False, f"{how}, not {bound}{claim.shown()}×")


def _roof_of_the_peak(claim: Claim, text: str, facts: Facts) -> Claim:
    """A share said "of peak" with no roof named is of the one roof the incident measures a share of.

    "The matmul at 90% of peak" of A1, which measures 70% of peak FLOP/s, is a share of peak FLOP/s; where the
    incident measures shares of both roofs, or of none, the share is left as it was said.
    """
    if claim.dim is not Dim.FRACTION or claim.roof or claim.metric or claim.share or not _OF_PEAK_AFTER.match(
            text, claim.end):
        return claim
    measured = [f for f in facts.known if f.dim is Dim.FRACTION and f.roof and not f.hypothetical]
    roofs = {f.roof for f in measured}
    if len(roofs) != 1 or any(_shares_close(1 - f.value, claim.value) for f in measured):
        return claim  # what is left ("only 15% of peak" of 85%) is read as said: the check of a complement reads it
    return dataclasses.replace(claim, roof=roofs.pop())


# A share said of a thing, not of the time ("30% of seats empty": the roof's spare capacity in a bus driver's words).
_OF_A_THING = re.compile(r"\s*of\s+(?:the\s+|its\s+|his\s+|her\s+|their\s+)?(?!time\b|the time\b|runtime\b|wall\b|cycle|step"
                         r"|request|clock|timeline|window|it\b)[a-z]+")
_EMPTY_AFTER = re.compile(r"(?:\s+[\w'-]+){1,4}?\s+(?:are\s+|is\s+|sit\s+|stay\s+)?(?:empty|unused|free|spare|unfilled|vacant)\b")
_OF_PEAK_AFTER = re.compile(r"\s*of (?:the |its |their )?(?:peak|roof|max\w*|rated)\b")


_GAP_TO_THE_ROOF = re.compile(r"\s*(?:gap|shortfall|deficit)\b(?!\s+(?:between|in the timeline|on the timeline))")


def _spare_as_time(claim: Claim, found: list[dv.Derived], facts: Facts, shown: str, text: str) -> Mark | None:
    """What is left under a roof said as a share of the time ("70% of peak, so 30% of the time waiting"), or None."""
    if _GAP_TO_THE_ROOF.match(text, claim.end) and not claim.of_time:
        return None  # "close most of that 30% gap": the gap to the roof, no time spent waiting
    if found and (claim.share or claim.of_time) and all(d.role == dv.SPARE for d in found) and any(
            f.roof and f.dim is Dim.FRACTION and _shares_close(1 - f.value, claim.value) for f in facts.known) and not (
                claim.share and not claim.of_time and _OF_A_THING.match(text, claim.end) and _EMPTY_AFTER.match(
                    text, claim.end)):
        return Mark(shown, False, f"{claim.shown()} is 100% − a share of a roof, which says nothing of how long the GPU"
                                  " waits or stalls")
    return None


# "the missing 30% is basically the relu's launch": what the rest of the roof goes to, said of it.
_SPARE_IS = re.compile(r"\s*(?:of (?:the |its )?(?:peak|roof)\s+)?(?:is|are|=|comes from|goes (?:on|to))\s+"
                       r"(?:basically\s+|mostly\s+|just\s+|all\s+|probably\s+|likely\s+)?(?:the\s+|a\s+|an\s+)?"
                       r"(?:[\w-]+\s+){0,2}?(?:launch\w*|relu|memory|traffic|bytes|overhead|sync\w*|host|gaps?|wait\w*"
                       r"|stall\w*|latency|bandwidth|hbm|dram)\b")


def _spare_said_to_be(claim: Claim, found: list[dv.Derived], text: str, shown: str) -> Mark | None:
    """What is left under a roof said to be spent on something ("the missing 30% is the relu's launch"), or None.

    The incident says how much of the roof is left, not what the rest goes to: that is not checked.
    """
    if claim.spare and found and all(d.role == dv.SPARE for d in found) and _SPARE_IS.match(text, claim.end):
        return Mark(shown, None, f"{claim.shown()} is what is left of the roof; what it goes to, the incident does not"
                                 " say")
    return None


def _total_of_the_other_part(claim: Claim, found: list[dv.Derived], facts: Facts, text: str,
                             shown: str) -> Mark | None:
    """A total of the kernels' time said of the gaps, or the reverse ("400 ms a request, 80 ms of it gaps"), or "".

    Only the words after the time name its part here: "removing the gaps → 80 ms" is what is left without them.
    """
    span = _span_said(text, claim.end, claim.end, claim.end, _clause_bounds(text, claim.start, claim.end)[1])
    if span is None or not found or not all(d.span and d.span != span for d in found):
        return None
    own = next((d for d in facts.derived if d.role == dv.TOTAL and d.span == span), None)
    said = {"busy": "kernels' time", "idle": "gaps' time"}
    return Mark(shown, False, f"{claim.shown()} is the {said[found[0].span or '']} ({found[0].how})"
                + (f"; the {said[span]} is {own.how} = {show(own.value, Dim.SECOND)}" if own else ""))


def _complement_as_share(claim: Claim, facts: Facts, text: str) -> str:
    """What is left under a roof said as the share reached ("1.7 of 2.0 TB/s — only 15% of peak"), or ""."""
    if claim.dim is not Dim.FRACTION or claim.spare or claim.change or claim.hypothetical or claim.metric or (
            not _OF_PEAK_AFTER.match(text, claim.end)):
        return ""
    _, hi = _clause_bounds(text, claim.start, claim.end)
    if _SPARE.search(text, claim.end, hi) or re.search(r"\bremain", text[claim.end:hi]):
        return ""  # "30% of peak is left on the table", "30% of rated power remains": what is left, said after
    used = next((f for f in facts.known if f.roof and f.dim is Dim.FRACTION and f.value < 1
                 and _shares_close(1 - f.value, claim.value) and not _shares_close(f.value, claim.value)), None)
    if used is None:
        return ""
    return (f"the incident runs at {show(used.value, Dim.FRACTION)} of {_roof_name(used.roof)}; {claim.shown()} is what is"
            " left, not what it reaches")


def _time_share_as_roof(claim: Claim, found: list[dv.Derived], facts: Facts, shown: str) -> Mark | None:
    """A share of the time said as a share of a roof ("2 µs on, 8 µs off: it uses 20% of the bandwidth"), else None."""
    if not found or not claim.roof or claim.of_time or claim.dim is not Dim.FRACTION or any(
            f.roof == claim.roof for f in facts.known):
        return None  # "98% of the time isn't memory traffic" is said of the time
    if not all(d.dim is Dim.FRACTION and d.roof is None and d.role in (dv.RATIO, dv.SPARE) for d in found):
        return None
    return Mark(shown, False, f"{found[0].how} = {show(found[0].value, Dim.FRACTION)} is a share of the time, not of"
                              f" {_roof_name(claim.roof)}: the incident gives no share of that roof")


_LIST_END = re.compile(r"[.)]\s")


def _list_number(claim: Claim, text: str) -> bool:
    """Whether a small whole number opens a point of a numbered list ("1. Weights: 14 GB. 2. Bandwidth 300 GB/s.").

    At the line's start or after a sentence's end, followed by "." or ")" and a space.
    """
    if claim.dim is not Dim.COUNT or not claim.value.is_integer() or not 1 <= claim.value <= 30 or not _LIST_END.match(
            text, claim.end):
        return False
    before = text[:claim.start].rstrip(" \t")
    return not before or before[-1] in ".;!?:\n"


def _rule_mark(claim: Claim, facts: Facts, text: str, shown: str) -> Mark | None:
    """A number that is the drill's rule's ("Rule 3", "shrinking 4×") or the incident's speed-up hedged, else None."""
    lo, _ = _clause_bounds(text, claim.start, claim.end)
    if claim.dim is Dim.COUNT and _RULE.search(text, max(lo, claim.start - 8), claim.start):
        return Mark(shown, True, "the drill's rule")
    if claim.dim is Dim.COUNT and _NUMBERED.search(text, max(0, claim.start - 8), claim.start) and _NUMBERED_END.match(
            text, claim.end):
        return Mark(shown, True, "a label that numbers the line")  # "Line 3: …", "Step 2)", "In [3]:"
    if _list_number(claim, text):
        return Mark(shown, True, "a label that numbers the point")  # "1. Weights: … 2. Bandwidth …"
    if claim.value == 4 and claim.multiplier and _SHRINK.search(text, lo, claim.start + 40):
        return Mark(shown, True, "Rule 3's shrink test")
    hedged = next((f for f in facts.known if f.speed and math.isclose(claim.value, f.value, rel_tol=SPEED_MATCH)), None)
    if claim.speed and hedged is not None and _HEDGE.search(text, max(lo, claim.start - 12), claim.start):
        return Mark(shown, True, f"about the incident's {hedged.shown()}×")
    return None


_SAME_WIN = re.compile(r"\bthe same\s+(?:~\s?|about\s+)?$")
_HERE_TOO = re.compile(r"\b(?:here|this (?:one|time|incident|case|chain|kernel))\b")
# "the threefold win of A2": said, near enough, of the incident named beside this one ("as in A2" says it of this one)
_ANOTHER_INCIDENT = re.compile(r"(?<!\bas in )(?<!\blike in )(?<!\blike )(?<!\bas with )(?<!\bas for )(?<!\bas )"
                               r"(?<!\bsame as )\ba[1-8](?:'?s)?\b")


_GONE = re.compile(r"\b(?:gone|gaan|vanish\w*|disappear\w*|no longer|evaporat\w*|absent|missing|not here|nowhere)\b")


# What sets a figure of the other incident beside this one: its name, its size, a comparison, or its win gone.
_SET_BESIDE = re.compile(r"\b(?:a[1-8](?:'?s)?|big\w*|larg\w*|full[- ]size\w*|at scale|huge|4096|16,?384|vs|versus|unlike|than"
                         r"|compared?|instead of|nothing like|like|other|earlier|before|would|should|could|if|expect\w*)\b")
# A figure of the other incident said to be this one's own: "compile still gets its 3.8× here".
_OWN_WIN = re.compile(r"\b(?:also|still|too|as well|again|its|their)\b")


def _context_mark(claim: Claim, beside: Claim, facts: Facts, text: str, shown: str) -> Mark:
    """A figure of the incident this one is set beside (A3's A2): set beside it in the sentence, or claimed for this one.

    A size or a rate of the other may be quoted anywhere (it never decides); its speed-up passes where the sentence
    names the other incident or sets it apart ("the 3.8× of A2", "on the big tensor", "nothing like 3.8×", the win
    gone); claimed for this one ("compile still gets its 3.8×") it is wrong, and with neither it is not checked.
    """
    lo, hi = _sentence_bounds(text, claim)
    # (only its speed-up as written: "~4× less traffic" is no claim of A2's 3.8×)
    said = claim.multiplier and beside.multiplier and math.isclose(claim.value, beside.value, rel_tol=0.01)
    if not said or _SET_BESIDE.search(text, lo, hi) or _GONE.search(text, lo, hi):
        return Mark(shown, True, "the figure of the incident this one is set beside")
    figure = f"{claim.shown()}{'×' if claim.multiplier else ''}"
    whose = f"{facts.context_named}'s" if facts.context_named else "another incident's"
    if _OWN_WIN.search(text, max(lo, claim.start - 24), claim.start):
        return Mark(shown, False, f"{figure} is {whose} figure, not this incident's")
    return Mark(shown, None, f"{figure} is {whose} figure, said here without {facts.context_named or 'it'}: not"
                             " checked")


_SIZE_RATIO_AFTER = re.compile(r"\s*(?:×|x\b|times\b)?\s*(?:smaller|bigger|larger|fewer|less data|more data|as (?:big|large"
                               r"|small))\b")


def _speed_off(claim: Claim, facts: Facts, line: tuple[Claim, ...], shown: str, text: str) -> Mark | None:
    """A speed-up said that is not the one the incident measured ("compiled, only 1.08× faster" of A2), else None.

    A speed-up the incident did not measure is one it derives only to its written digits: 1.08× is not
    2.0 ÷ 1.7 = 1.18.
    """
    speeds = [f for f in facts.known if f.speed]
    if _SIZE_RATIO_AFTER.match(text, claim.end):
        return None  # "a 16,384× smaller tensor": a size ratio, no speed-up
    said_as_a_win = claim.speed or (claim.multiplier and _SAME_WIN.search(text, max(0, claim.start - 12), claim.start))
    if not said_as_a_win or not speeds or claim.hypothetical or claim.bound or any(
            math.isclose(claim.value, f.value, rel_tol=SPEED_MATCH) for f in speeds):
        return None
    # A line that cites the measured speed-up may name others beside it, and the incident set beside this one's
    # figures; one said of this incident ("compile doubled speed here too", "3.8× faster here") is held to its own.
    lo, hi = _sentence_bounds(text, claim)
    # the other incident named, or its win said to be gone here ("the 3.8× traffic win is gone", the drill's words)
    said_of_another = (_ANOTHER_INCIDENT.search(text, lo, hi) or _GONE.search(text, lo, hi)) and any(
        math.isclose(claim.value, c.value, rel_tol=SPEED_MATCH) for c in facts.context)
    here = _HERE_TOO.search(text, max(lo, claim.start - 30), min(hi, claim.end + 30))  # said of this one, near it
    if not here and (said_of_another or any(
            c.speed and any(math.isclose(c.value, f.value, rel_tol=SPEED_MATCH) for f in speeds) for c in line)):
        return None
    if any(math.isclose(d.value, claim.value, rel_tol=_SPEED_DERIVED) for d in _derived_for(claim, facts, text)):
        return None
    return Mark(shown, False, f"{claim.shown()}× is not this incident's figure: it says {speeds[0].shown()}×")


_BETTER_AFTER = re.compile(r"\s*(?:better|worse|quicker|sooner|gained|back)\b")
_A_GAP_AFTER = re.compile(r"\s*(?:late|short|behind|over|too (?:slow|long)|away|off|more|less|slower|faster|longer|shorter"
                          r"|saved|to go|too many)\b")
_RELATION_BEFORE = re.compile(r"\b(?:below|under|less than|lower than|smaller than|above|over|more than|greater than"
                              r"|higher than|bigger than|larger than|faster than|slower than|beats?|hits?|meets?|miss(?:es)?"
                              r"|against|vs\.?|versus|compared (?:with|to)"
                              # a time said out of reach: "still no reach 80 ms", "nowhere near 80 ms", "short of 80"
                              r"|(?:not|no|never|can'?t|cannot|won'?t)\s+(?:\w+\s+)?(?:reach|get to|hit|make)|short of"
                              r"|nowhere near|far from)"
                              r"\s+(?:that |the |our |its |a |an |this )?~?\s*$")


def _set_against(text: str, claim: Claim) -> bool:
    """Whether a figure is what another is compared with ("more than the 80 ms target"), not a claim of its own."""
    return bool(_RELATION_BEFORE.search(text, max(0, claim.start - 30), claim.start) or _TARGET_AFTER.match(text, claim.end))


def _two_said_before(claim: Claim, line: Sequence[Claim]) -> str:
    """The sum of two figures said just before in the same sentence, in one unit, that a figure is ("" if none).

    "32 KiB in and 32 KiB out; 64 KiB over 2 TB/s": the 64 KiB is the two together, not a slip of A3's 32 KiB.
    """
    if claim.dim in (Dim.COUNT, Dim.FRACTION) or claim.value <= 0:
        return ""
    start = max(0, claim.start - 80)  # the two may stand in the clause before ("32 KiB in and 32 KiB out; 64 KiB")
    before = [c for c in line if c.dim is claim.dim and start <= c.start and c.end <= claim.start][-2:]
    if len(before) == 2 and math.isclose(before[0].value + before[1].value, claim.value, rel_tol=0.02):
        return f"{before[0].shown()} + {before[1].shown()} = {show(claim.value, claim.dim)}"
    return ""


_SHORT_BY_BEFORE = re.compile(r"\b(?:out|short|off|behind|late|over)\s+by\s+(?:about\s+|roughly\s+|~\s?|≈\s?)?$")


def _at_peak_mark(claim: Claim, facts: Facts, text: str, summed: frozenset[int], shown: str) -> Mark | None:
    """The mark of a time said at the roof's 100% that is not the incident's time there, else None."""
    # "… ≈ 112 ms > 80 ms target" compares with a figure; "180 ms × 0.62 ≈ 112 ms at 100%": 180 ms is an operand;
    # "still 31.6 ms late against the 80 ms slot" is a difference
    if not claim.at_peak or claim.bound or claim.start in summed or _set_against(text, claim) or _A_GAP_AFTER.match(
            text, claim.end) or _SHORT_BY_BEFORE.search(text, max(0, claim.start - 24), claim.start):
        return None  # ("still out by ~30 ms even at 100%": what is missing at the roof, 112 − 80 ms)
    d = _time_at_the_roof(facts)
    if d is None or _derived_for(claim, facts, text):
        return None
    return Mark(shown, False, f"at 100% of the roof it would take {d.how} = {show(d.value, Dim.SECOND)}, not"
                              f" {claim.shown()}")


# Between a rate and the time said to follow from it: a word or two of the card, then "that's", "=", "is" ("on a 2 TB/s
# card that's 35 ms"); never a measured time's words ("yet each token takes 26 ms").
_FLOOR_LINK = re.compile(r"[\s,]*(?:(?!(?:each|per|every|yet|but|while|measured|actual|real|whereas)\b)[\w-]+\s+){0,2}?"
                         r"(?:that'?s|that is|it'?s|is|=|≈|→|->|comes to|works out (?:to|at)|gives)\s*"
                         r"(?:about\s+|~\s*|≈\s*|roughly\s+|only\s+|just\s+|at least\s+)?")


# The work itself said to take the time ("the 1.37e11 FLOPs take about 0.63 ms").
_WORK_TAKES = re.compile(r"[\s,]*(?:would\s+|will\s+)?(?:take|takes|need|needs)\s*(?:about\s+|~\s*|≈\s*|roughly\s+|only\s+"
                         r"|just\s+|at least\s+)?")
_WORK_AND_RATE = ((Dim.BYTE, Dim.BYTE_RATE), (Dim.FLOP, Dim.FLOP_RATE))


def _floor_said_off(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A time said to follow from the sentence's one amount of work and one rate, off by 3× or more, or "".

    "70 GB … on a 2 TB/s card that's 3.5 ms" (35 ms), "~218 TFLOP/s, so the 1.37e11 FLOPs take about 0.63 µs" (0.63
    ms): a prefix slipped; within 3× a size may be read and written, or counted another way.
    """
    if claim.dim is not Dim.SECOND or claim.value <= 0:
        return ""
    start = text.rfind(". ", 0, claim.start) + 1
    before = [c for c in line if start <= c.start and c.end <= claim.start]
    for work_dim, rate_dim in _WORK_AND_RATE:
        sizes = [c for c in before if c.dim is work_dim and c.value > 0]
        rates = [c for c in before if c.dim is rate_dim and c.value > 0]
        if not sizes or not rates or any(1 / 3 <= (a.value / b.value) / claim.value <= 3 for a in sizes for b in rates):
            continue  # some pair of the sentence gives it ("14 GB (7B × 2 byte) / 300 GB/s ≈ 47 ms")
        size, rate = sizes[-1], rates[-1]  # the nearest: "the 312 TFLOP/s one, that's ~218 TFLOP/s, so the FLOPs …"
        first, last = sorted((size, rate), key=lambda c: c.start)
        if any(c.start > first.start and c not in (size, rate) for c in before):
            continue  # a divisor or another figure on the way ("70 GB over 80 layers at 2 TB/s")
        # "70 GB takes 35 ms", "32 KB … at 2 TB/s takes about 12 µs" (a FLOP count's time after its rate is judged
        # against the derived floor, which names the slip)
        linked = _FLOOR_LINK.fullmatch(text, last.end, claim.start) or (
            (last is size or work_dim is Dim.BYTE) and _WORK_TAKES.fullmatch(text, last.end, claim.start))
        if linked:  # off 3× or more: only a slip of a prefix is a claim off
            return f"{size.shown()} ÷ {rate.shown()} is {show(size.value / rate.value, Dim.SECOND)}, not {claim.shown()}"
    return ""


_OF_A = re.compile(r"\s*of\s+(?:a\s+|an\s+|the\s+|its\s+)?(?:~\s?|about\s+)?")


def _share_of_said_off(claim: Claim, line: Sequence[Claim], text: str) -> str:
    """A share of a figure said to come to another, off their product, or "".

    "70% of a 312 TFLOP/s card is about 280 TFLOP/s": it is 218 TFLOP/s.
    """
    if claim.dim in (Dim.FRACTION, Dim.COUNT) or claim.value <= 0:
        return ""
    at = line.index(claim) if claim in line else -1
    if at < 2:
        return ""
    share, whole = line[at - 2], line[at - 1]
    if share.dim is not Dim.FRACTION or whole.dim is not claim.dim or share.change or share.spare or not (
            _OF_A.fullmatch(text, share.end, whole.start) and _FLOOR_LINK.fullmatch(text, whole.end, claim.start)):
        return ""
    product = share.value * whole.value
    if math.isclose(product, claim.value, rel_tol=max(MATCH, arithmetic_tolerance(claim.written))):
        return ""
    return f"{share.shown()} × {whole.shown()} = {show(product, claim.dim)}, not {claim.shown()}"


def _floor_of_the_line(claim: Claim, line: Sequence[Claim]) -> str:
    """A time that is one of the line's sizes over one of its rates ("≈ 65 KB a pass, ~33 ns at 2 TB/s"), or ""."""
    if claim.dim is not Dim.SECOND or claim.value <= 0:
        return ""
    for size in (c for c in line if c.dim is Dim.BYTE and c.value > 0):
        for rate in (c for c in line if c.dim is Dim.BYTE_RATE and c.value > 0):
            if math.isclose(size.value / rate.value, claim.value, rel_tol=MATCH):
                return f"{size.shown()} ÷ {rate.shown()} = {show(claim.value, Dim.SECOND)}"
    return ""


def _facts_matched(claim: Claim, facts: Facts, text: str) -> list[Claim]:
    """The incident's own figures a claim is, as written or inside arithmetic."""
    if claim.dim is Dim.COUNT and _PER_SECOND_AFTER.match(text, claim.end):
        return []  # "8.3k calls/s" is a rate, not A3's 8,192 elements
    matches = [f for f in facts.known if same(claim, f)]
    if not matches and _ARITHMETIC_NEAR.search(text, max(0, claim.start - 2), claim.end + 2):
        matches = [f for f in facts.known if is_fact_as_written(claim, f)]
    return matches


def _derived_shown(derived: dv.Derived, claim: Claim, text: str) -> str:
    """A derived figure as the feedback says it: "83.3k a second" for "83k calls/s", a rate of calls, not tokens."""
    if derived.dim is Dim.TOKEN_RATE and claim.dim is Dim.COUNT and _PER_SECOND_AFTER.match(text, claim.end):
        return f"{show(abs(derived.value), Dim.COUNT)} a second"
    return show(abs(derived.value), derived.dim)


_RANGE_DASH = re.compile(r"\s?[–-]\s?~?")


def _range_end(claim: Claim, line: Sequence[Claim], facts: Facts, text: str) -> str:
    """Why a figure is the far end of a range whose near end is the incident's own ("0.125–0.25 FLOP/B"), or ""."""
    near = next((c for c in line if c.end <= claim.start and _RANGE_DASH.fullmatch(text, c.end, claim.start)), None)
    if near is None or near.dim not in (claim.dim, Dim.COUNT) or not 1 / 3 <= claim.value / (near.value or 1) <= 3 or not any(
            f.dim is claim.dim and math.isclose(near.value, f.value, rel_tol=MATCH) for f in facts.known):
        return ""
    return f"the far end of a range from {near.shown()}, the incident's own figure"


def _total_named_of_the_other_part(claim: Claim, facts: Facts, text: str) -> str:
    """A total given as the subject's of one part of the timeline that is the other part's, or "".

    "The idle line is 80 ms and the kernel line is 320 ms" of A6: 80 ms is the kernels' total. Only a part named as
    what the time is ("the idle line is") is held here; "removing the gaps → 80 ms" is what is left without them.
    """
    if claim.dim is not Dim.SECOND:
        return ""
    lo = _clause_bounds(text, claim.start, claim.end)[0]
    named = _PART_IS.search(text, lo, claim.start)
    span = _nearest(_SPAN_WORDS, "", named["part"]) if named else None
    if span is None:
        return ""
    totals = [d for d in facts.derived if d.role == dv.TOTAL and d.span in ("busy", "idle")]
    if any(d.span == span and math.isclose(claim.value, d.value, rel_tol=MATCH) for d in totals):
        return ""
    other = next((d for d in totals if d.span != span and math.isclose(claim.value, d.value, rel_tol=MATCH)), None)
    if other is None:
        return ""
    names = {"busy": "the kernels' (busy)", "idle": "the gaps' (idle)"}
    return f"{claim.shown()} is {names[other.span or '']} total, {other.how}, not {names[span]}"


def _gaps_removed_saving_wrong(claim: Claim, facts: Facts, text: str) -> str:
    """A time said to be saved by removing the gaps that is the kernels' total ("removing every gap saves 80 ms")."""
    if claim.dim is not Dim.SECOND or claim.bound:
        return ""
    lo = _clause_bounds(text, claim.start, claim.end)[0]
    if not _GAPS_REMOVED.search(text, lo, claim.start) or not (
            _NOT_A_SLIP.search(text, max(lo, claim.start - 30), claim.start) or _SAVED_AFTER.match(text, claim.end)):
        return ""
    totals = [d for d in facts.derived if d.role == dv.TOTAL and d.span in ("busy", "idle")]
    if any(d.span == "idle" and math.isclose(claim.value, d.value, rel_tol=MATCH) for d in totals):
        return ""
    busy = next((d for d in totals if d.span == "busy" and math.isclose(claim.value, d.value, rel_tol=MATCH)), None)
    idle = next((d for d in totals if d.span == "idle" and d.value > claim.value), None)
    if busy is None or idle is None:
        return ""
    return (f"{claim.shown()} is the kernels' total ({busy.how}): removing the gaps saves theirs, {idle.how} ="
            f" {show(idle.value, Dim.SECOND)}")


def _written_mark(claim: Claim, written: Claim, text: str, shown: str) -> Mark:
    """A bare figure that is one of the incident's as written, in the part of the timeline its words give it.

    "Kernel is 8 of every 10 µs" of A6's 8 µs gap is the gap's time given to the kernels.
    """
    lo, hi = _clause_bounds(text, claim.start, claim.end)
    said = _span_said(text, lo, claim.start, claim.end, hi) if written.span and not (
        _RATIO_OR_OWN_UNIT.match(text, claim.end) or _RATIO_BEFORE.search(text, max(0, claim.start - 4), claim.start)
    ) else None
    if said is not None and said != written.span:
        names = {"busy": "kernel time (busy)", "idle": "gap time (idle)"}
        return Mark(shown, False, f"{written.shown()} is the {names[written.span or '']}, not the {names[said]}")
    return Mark(shown, True, f"the incident's {written.shown()}, its unit left off")


# A ratio's term ("kernel:gap = 2:8") or an analogy's own unit ("2-min jobs") is no bare figure of the timeline.
_RATIO_OR_OWN_UNIT = re.compile(r"\s?:\s?\d|[-\s]?(?:min|mins|minutes?|hours?|hrs?|h|sec|secs|seconds?|s|days?)\b")
_RATIO_BEFORE = re.compile(r"\d\s?:\s?$")


def _account(claim: Claim, facts: Facts, at: _Line) -> tuple[Mark, bool]:
    """One claim's mark, and whether it cites a deciding figure."""
    text, summed, results, line = at.text, at.summed, at.results, at.claims
    shown = _clause(text, claim)
    if ranged := _range_end(claim, line, facts, text):  # "intensity ≈ 0.125–0.25 FLOP/B"
        return Mark(shown, True, ranged), False
    matches = _facts_matched(claim, facts, text)
    wrong = (_attribute_wrong(claim, matches, facts) or _difference_wrong(claim, matches, facts, text)
             or _gaps_removed_wrong(claim, text, facts) or _gaps_removed_saving_wrong(claim, facts, text)
             or _saved_wrong(claim, facts, text)
             or _bound_beaten(claim, facts, text) or _cost_as_end(claim, facts, text)
             or _bound_said_exact(claim, matches, facts, text) or _headroom_past_roof(claim, facts, text)
             or _minority_said_to_dominate(claim, facts, text) or _any_fix_bounded_by_kernels(claim, facts, text)
             or _speed_from_the_rest_of_the_roof(claim, facts, text) or _tuned_past_the_roof(claim, facts, text)
             or _headroom_not_enough(claim, facts, line, text) or _speed_up_short_of_the_change(claim, line, text)
             or _roof_short_of_the_change(claim, facts, line, text) or _kernel_fix_past_its_part(claim, facts, text)
             or _speed_up_from_a_rate_change(claim, line, text) or _cut_past_the_whole(claim, line, text)
             or _speed_up_of_the_change_off(claim, line, text) or _past_the_floor_said_slower(claim, facts, text)
             or _ceiling_said_exact(claim, facts, text) or _measured_called_the_floor(claim, facts, text)
             or _every_change_bounded_by_the_roof(claim, facts, text)
             or _share_of_the_other_step(claim, facts, text) or _floor_said_off(claim, at.claims, text)
             or _share_of_said_off(claim, at.claims, text) or _side_against_the_ridge(claim, facts, at)
             or _width_said_off(claim, at, text) or _time_with_the_gaps_gone(claim, facts, text)
             or _ratio_to_the_roof_said(claim, facts, text) or _total_named_of_the_other_part(claim, facts, text))
    if not wrong and not _derived_for(claim, facts, text):
        wrong = (_change_turned(claim, facts, text) or _time_cut_said_as_speed(claim, facts, text)
                 or _fraction_misread(claim, facts)
                 or _headroom_wrong(claim, text, facts) or _complement_as_share(claim, facts, text))
    if wrong:
        return Mark(shown, False, wrong), False
    multiplied = _size_scale(claim, facts, text, shown) or _speed_off(claim, facts, line, shown, text)
    if multiplied is not None:
        return multiplied, False
    at_the_roof = _at_peak_mark(claim, facts, text, summed, shown)
    if at_the_roof is not None:
        return at_the_roof, False
    ruled = _rule_mark(claim, facts, text, shown)
    if ruled is not None:
        return ruled, False
    if (of_the_step := _share_of_the_step(claim, facts, text)) is not None:  # "75% of the old step" of A7's 6 ms
        return Mark(shown, of_the_step[0], of_the_step[1]), False
    if claim.metric:
        return _metric_mark(claim, facts, text, shown), False
    if claim.share and any(f.share and _shares_close(claim.busy() or 0, f.busy() or 0) for f in facts.deciding):
        return Mark(shown, True, f"{claim.shown()} {claim.share}: the timeline's own share"), True
    if matches and not claim.change and not claim.spare:
        cites = any(same(claim, f) for f in facts.deciding)
        return Mark(shown, True, "decides the regime" if cites else "the incident's own figure"), cites
    found = _derived_for(claim, facts, text)
    misread = (_total_of_the_other_part(claim, found, facts, text, shown) or _spare_as_time(claim, found, facts, shown, text)
               or _spare_said_to_be(claim, found, text, shown)
               or _time_share_as_roof(claim, found, facts, shown) or _headroom_said_wrong(claim, found, text, shown)
               or _floor_promised(claim, found, text, shown))
    if misread is not None:
        return misread, False
    if found:
        d = found[0]
        cites = any(x.deciding for x in found)
        source = "the card's datasheet" if d.role == dv.DATASHEET else d.how
        return Mark(shown, True, f"{source} = {_derived_shown(d, claim, text)}"), cites and claim.dim is not Dim.COUNT
    if matches:
        cites = any(same(claim, f) for f in facts.deciding)
        return Mark(shown, True, "decides the regime" if cites else "the incident's own figure"), cites
    # A bare number that is one of the incident's figures as written, its unit left to the sentence ("from 180 ms
    # to 80", "2 µs of work then 8 of nothing").
    written = None if _RATE_AFTER.match(text, claim.end) else next(
        (f for f in facts.known if is_fact_as_written(claim, f)), None)
    if written is not None:
        return _written_mark(claim, written, text, shown), False
    beside = next((c for c in facts.context if same(claim, c) or (
        claim.multiplier and c.multiplier and math.isclose(claim.value, c.value, rel_tol=SPEED_MATCH))), None)
    if beside is not None:  # "the threefold win of A2" for its 3.8×: a speed-up said roughly
        return _context_mark(claim, beside, facts, text, shown), False
    ridge = (_ridge_mark(claim, facts, text, shown) or _speed_share(claim, facts, at, shown)
             or _how_far_from_the_ridge(claim, facts, at, shown))
    if ridge is not None:
        return ridge, False
    counted = _counted(claim, facts, at)
    if counted:
        return Mark(shown, True, counted), False
    added = _two_said_before(claim, line) or _floor_of_the_line(claim, line)  # a sum or a floor said in words
    if added:
        return Mark(shown, True, added), False
    # A result off the incident's figure by a slip is wrong even where the arithmetic to it holds: its operands
    # carry the slip ("7e9 × 1 byte = 7 GB, / 300 GB/s = 23 ms" for a bf16 model).
    slipped = (_time_as_rate(claim, facts, line) or _rate_off_by_a_power(claim, facts, text) or _share_off(claim, facts)
               or _slipped(claim, facts, text, own_result=claim.start in at.exact))
    # (an analogy said earlier in the sentence: "like a machine that sews 2 seconds and then I spend 8 seconds …")
    if slipped and _ANALOGY.search(text, max(_sentence_bounds(text, claim)[0], claim.start - 100), claim.start):
        return Mark(shown, None, f"{claim.shown()} is said of your analogy, not of the incident: not checked"), False
    if slipped:
        return Mark(shown, False, slipped), False
    if claim.start in results:
        # a result the line itself calls past the roof ("= 6.46 TB/s, more than 3× the card's peak") is its reductio
        beyond = "" if _SAID_PAST_THE_ROOF.search(text, claim.end, _sentence_bounds(text, claim)[1]) else \
            _beyond_roof(claim, facts)
        other_count = _intensity_counted_otherwise(claim, facts, text)
        if other_count and not beyond:
            return Mark(shown, None, other_count), False
        return Mark(shown, not beyond, beyond or "your arithmetic, checked"), False
    scaled = _scaled(claim, facts, text) or _sped_up(claim, facts, text, _sentence_bounds(text, claim)[0])
    if scaled:
        return Mark(shown, True, scaled), False
    if claim.dim is Dim.FRACTION and claim.value == 1 and (claim.hypothetical or _roof_what_if(claim, facts, text)):
        return Mark(shown, True, "the roof itself, as a what-if"), False  # "even at 100%" is the roof itself
    if claim.bound and _bounded(claim, facts):
        return Mark(shown, True, f"a bound that holds ({claim.bound} {claim.shown()})"), False
    return _unplaced(claim, facts, text, summed, shown), False


def _unplaced(claim: Claim, facts: Facts, text: str, summed: frozenset[int], shown: str) -> Mark:
    """The mark of a claim no figure of the incident's, nor one derived from them, was found for."""
    # a rate said to be reached ("so the compiled kernel runs at 6.5 TB/s") past the card's roof
    beyond = _beyond_roof(claim, facts) if _REACHED_BEFORE.search(text, max(0, claim.start - 30), claim.start) else ""
    if beyond:
        return Mark(shown, False, beyond)
    plain = _change_unmarked(claim, facts, text) or _plain_count(claim, facts, text, summed)
    return (Mark(shown, True, plain) if plain else
            Mark(shown, None, f"{claim.shown()} is not among this incident's figures, nor derived from them"))


_CHANGED = re.compile(r"\b(?:sav\w*|penalty|cut\w*|off|shorter|longer|slower|faster|gain\w*|los[est]\w*|drop\w*|rise\w*"
                      r"|jump\w*|increase\w*|decrease\w*|more|less|throughput|added|adds?)\b")


def _change_unmarked(claim: Claim, facts: Facts, text: str) -> str:
    """A percent change the incident's figures give, said beside the change without its sign or "by", or "".

    "saving 0.9 µs (7.4%)", "a 6 ms penalty per token — 75 per cent —": the change is in the sentence's words.
    """
    if claim.dim is not Dim.FRACTION or claim.change or claim.spare or claim.bound or claim.roof:
        return ""
    start, end = _sentence_bounds(text, claim)
    if not _CHANGED.search(text, start, end):
        return ""
    d = next((d for d in facts.derived if d.role == dv.CHANGE and d.dim is Dim.FRACTION
              and abs(abs(d.value) - claim.value) <= SHARE_POINTS / 3
              and not d.how.endswith("more speed")), None)  # what the roof would give in speed: _derived_for's
    return f"{d.how}: a change of {show(abs(d.value), Dim.FRACTION)}" if d else ""


#: The factors a unit conversion multiplies or divides by (ms to s, bytes to GB, KiB).
_CONVERSIONS = frozenset({1e3, 1e6, 1e9, 1e12, 1e-3, 1e-6, 1e-9, 1024.0, 1024.0**2, 1024.0**3})


def _plain_count(claim: Claim, facts: Facts, text: str, summed: frozenset[int]) -> str:
    """Why a plain number with no unit is accounted for, or "" when it is not.

    A count in the line's working ("3 × 2 µs"), or one of the incident's shares or multipliers written without % or ×.
    """
    if claim.dim is not Dim.COUNT:
        return ""
    small = _small_as_figure(claim, facts) if claim.value < 2 and not claim.multiplier else ""
    if small:
        return small
    ratio = next((d for d in facts.derived if d.dim is Dim.COUNT and d.role in (dv.RATIO, dv.HEADROOM)
                  and math.isclose(claim.value, d.value, rel_tol=min(MATCH, arithmetic_tolerance(claim.written)))), None)
    if ratio is not None and not claim.multiplier:  # "required speed-up = 180/80 = 2.25", "Out[4]: 5.0": its × left off
        return f"{ratio.how} = {show(ratio.value, ratio.dim)}"
    if claim.value in _CONVERSIONS and not claim.multiplier and _in_arithmetic(claim, text):
        return "a unit conversion in your arithmetic"  # "1000/14" (ms to tokens a second), "w/1e9" (bytes to GB)
    if claim.start in summed or (claim.value < 2 and not claim.multiplier and (
            claim.value in (0, 0.5, 1) or _in_arithmetic(claim, text))) or (
            claim.value <= 16 and claim.value.is_integer() and _in_arithmetic(claim, text)):
        return "a count in your arithmetic"
    return ""


def _small_as_figure(claim: Claim, facts: Facts) -> str:
    """A bare number under 2 that is one of the incident's shares or multipliers written as a plain number, or "".

    "busy 0.2", "headroom 1/0.7 = 1.43": a share as its fraction, a ratio or a headroom without its ×.
    """
    for d in facts.derived:
        if d.dim in (Dim.COUNT, Dim.FRACTION) and d.role != dv.CHANGE and math.isclose(
                claim.value, d.value, rel_tol=min(MATCH, arithmetic_tolerance(claim.written))):
            return f"{d.how} = {show(d.value, d.dim)}"
    for f in facts.known:
        if f.dim is Dim.FRACTION and math.isclose(claim.value, f.value, rel_tol=MATCH):
            return f"the incident's {f.shown()}, as a fraction"
    return ""


def _in_arithmetic(claim: Claim, text: str) -> bool:
    """Whether a small count sits in the line's working ("3 × 2 µs", "(8 / 2)").

    A multiplier's own sign is not working: "10× more throughput" claims a speed-up; "10 × 2 µs" is an operand.
    """
    if claim.multiplier and not _OPERAND_OF_PRODUCT.match(text, claim.end):
        return bool(_ARITHMETIC_NEAR.search(text, max(0, claim.start - 2), claim.start))
    return bool(_ARITHMETIC_NEAR.search(text, max(0, claim.start - 2), claim.end + 2))


def _intensity_counted_otherwise(claim: Claim, facts: Facts, text: str) -> str:
    """Why an intensity the learner worked out cannot be checked: the incident's own is another figure, or "".

    "4096/2 = 2048 FLOP/byte" of a kernel whose FLOPs over bytes give 1365: the sum holds, but what it counts
    is not the incident's FLOPs and bytes. The ridge, a what-if, and a figure within 10% are not held to it.
    """
    if claim.dim is not Dim.INTENSITY or claim.hypothetical or claim.bound or _RIDGE_BEFORE.search(
            text, max(0, claim.start - 24), claim.start) or _RIDGE_AFTER.match(text, claim.end):
        return ""
    own = [f for f in facts.known if f.dim is Dim.INTENSITY]
    if not own or any(same(claim, f) for f in own) or (facts.ridge and same(claim, Claim(
            facts.ridge, Dim.INTENSITY, 0, 0, ""))) or any(math.isclose(claim.value, r, rel_tol=MATCH)
                                                          for r in _catalogue_ridges()):
        return ""
    return (f"the incident's FLOPs over its bytes give {show(own[0].value, Dim.INTENSITY)}; {claim.shown()} counts"
            " something else")


_UNDONE = re.compile(r"\b(?:back|revert\w*|restor\w*|recover\w*|undo\w*|undid|return\w*)\b")


def _moved(reading: Reading, facts: Facts, text: str) -> dict[int, str]:
    """The wrong "after"s of a line, by where each starts, with why.

    A line that gives the incident's "before" with another "after" ("8 → 12 ms" where it went 8 → 14 ms).
    """
    out = {}
    for first, then in reading.transitions:
        for a, b in facts.transitions:
            if same(first, a) and not same(then, b) and then.dim is b.dim and not then.bound and not _what_if(text, then):
                out[then.start] = f"it went from {a.shown()} to {b.shown()}, not to {then.shown()}"
            # the same change said as its rate ("ITL 8 → 14 ms: throughput fell from 125 to 114 tok/s")
            if (a.dim is Dim.SECOND and b.dim is Dim.SECOND and a.value > 0 and b.value > 0
                    and then.dim in (Dim.TOKEN_RATE, Dim.COUNT) and first.dim in (Dim.TOKEN_RATE, Dim.COUNT)
                    and Dim.TOKEN_RATE in (first.dim, then.dim) and not then.bound and not _what_if(text, then)
                    and not re.match(r"\s*[/÷×*]", text[then.end:then.end + 3])  # "→ 1000/14": a sum's operand
                    and math.isclose(first.value, 1 / a.value, rel_tol=0.03)
                    and not math.isclose(then.value, 1 / b.value, rel_tol=arithmetic_tolerance(then.written))):
                out[then.start] = (f"{a.shown()} → {b.shown()} a token is {show(1 / a.value, Dim.TOKEN_RATE)} → 1 ÷"
                                   f" {b.shown()} = {show(1 / b.value, Dim.TOKEN_RATE)}, not {then.shown()}")
    return out


_ROOF_OF_RATE = {Dim.FLOP_RATE: "flops", Dim.BYTE_RATE: "bandwidth"}


def _written_as(value: float, fact: Claim) -> bool:
    """Whether ``value`` is the fact's number as written, its unit aside ("12" of "12 µs")."""
    numeral = _NUMERAL.match(fact.written)
    try:
        return bool(numeral) and math.isclose(value, float(numeral.group().replace(",", "")), rel_tol=0.02)  # type: ignore[union-attr]
    except ValueError:
        return False


_DIM_WORDS = {Dim.COUNT: "a count", Dim.FLOP: "FLOPs", Dim.BYTE: "bytes", Dim.SECOND: "a time",
              Dim.FLOP_RATE: "a compute rate", Dim.BYTE_RATE: "a bandwidth", Dim.INTENSITY: "an intensity",
              Dim.TOKEN_RATE: "a token rate", Dim.FRACTION: "a share"}


def _dim_as_said(claim: Claim, facts: Facts) -> Dim:
    """A number's unit, or for a bare one the unit of the one incident figure it is as written ("38" of 38 tok/s)."""
    if claim.dim is not Dim.COUNT:
        return claim.dim
    dims = {f.dim for f in facts.known if f.dim not in (Dim.COUNT, Dim.FRACTION) and _written_as(claim.value, f)}
    return dims.pop() if len(dims) == 1 else Dim.COUNT


#: A bare count at least this large, written as the incident writes it, has no prefix left off ("4096 tokens").
_WHOLE_COUNT = 100


def _nothing_left_off(s: Sum, operands: list[Claim], facts: Facts) -> str:
    """Arithmetic excused as a unit or prefix left off where none was: its bare operands are the incident's counts.

    "4096 / 180 ms ≈ 22.8 tokens/s" divides the prompt's 4096 tokens by 0.18 s; no operand lacks a prefix, so the
    result is 22,756 tok/s, not 22.8 tok/s ("7 × 2 = 14 GB", where 7 is the 7B model's, is still excused).
    """
    if s.computed <= 0 or s.given.value <= 0 or s.given.dim is Dim.COUNT or _sum_right(s):
        return ""
    bare = [c for c in operands if c.dim is Dim.COUNT and not c.multiplier]
    if not bare or not all(c.value >= _WHOLE_COUNT and any(
            f.dim is Dim.COUNT and math.isclose(c.value, f.value, rel_tol=0.01) for f in facts.known) for c in bare):
        return ""
    return f"{s.written} is {show(s.computed, s.dim)}, not {s.given.shown()}"


def _on_over_off(operands: list[Claim], facts: Facts) -> str:
    """Why a share worked as the kernels' time over the gaps' ("2/8 = 25% lit") is wrong, or ""."""
    spans = _kernel_and_gap(facts)
    if spans is None:
        return ""
    on, off = spans
    a, b = operands
    if not ((same(a, on) or _written_as(a.value, on)) and (same(b, off) or _written_as(b.value, off))):
        return ""
    busy = on.value / (on.value + off.value)
    return (f"{on.shown()} ÷ {off.shown()} sets the kernels against the gaps; the share of the time they run is"
            f" {on.shown()} ÷ ({on.shown()} + {off.shown()}) = {show(busy, Dim.FRACTION)}")


def _sum_misapplied(s: Sum, operands: list[Claim], facts: Facts) -> str:
    """Arithmetic right as sums go, on figures in roles they do not have, or "".

    A share of two things in different units ("38/300 = 13% of bandwidth" of 38 tok/s and 300 GB/s); a speed-up
    multiplied into a time ("12 µs × 1.08 = 12.96 µs compiled": a speed-up divides the time); a share of one roof
    multiplied by the other roof ("70% × 2.0 TB/s" where 70% is of peak FLOP/s); a result excused as a prefix left
    off where its bare operands are the incident's own counts.
    """
    left_off = _nothing_left_off(s, operands, facts)
    if left_off:
        return left_off
    occupancy = next((f for f in facts.known if f.metric == "occupancy" and any(
        same(c, f) or math.isclose(c.value, f.value * 100, rel_tol=0.01) for c in operands)), None)
    if occupancy is not None and (s.given.multiplier or s.given.speed) and s.given.value > 1:
        return (f"{occupancy.shown()} is occupancy, the warps resident on an SM: it is no share of a roof, so"
                " raising it promises no speed-up (Rule 4)")
    if s.given.dim is Dim.FRACTION and len(operands) == 2 and re.search(r"/|÷", s.written):
        on_off = _on_over_off(operands, facts)
        if on_off:
            return on_off
        dims = [_dim_as_said(c, facts) for c in operands]
        if Dim.COUNT not in dims and dims[0] is not dims[1]:
            a, b = operands
            return (f"{a.shown()} ÷ {b.shown()} divides {_DIM_WORDS[dims[0]]} by {_DIM_WORDS[dims[1]]}: a share"
                    " divides like by like")
    if len(operands) == 2 and re.search(r"/|÷", s.written):
        top, bottom = (_dim_as_said(c, facts) for c in operands)
        if ((top, bottom) == (Dim.BYTE_RATE, Dim.BYTE) and s.given.dim is Dim.SECOND) or (
                (top, bottom) == (Dim.BYTE, Dim.BYTE_RATE) and s.given.dim is Dim.TOKEN_RATE):
            a, b = operands
            return (f"{a.shown()} ÷ {b.shown()} divides {_DIM_WORDS[top]} by {_DIM_WORDS[bottom]}: that gives"
                    f" {'a rate, not a time' if s.given.dim is Dim.SECOND else 'a time, not a rate'}")
    if "×" not in s.written and "*" not in s.written:
        return ""
    # An incident's time, with its unit or as written without it ("12 × 1.08" of 12 µs).
    times = [f for c in operands for f in facts.known if f.dim is Dim.SECOND and (
        (c.dim is Dim.SECOND and same(c, f)) or (c.dim is Dim.COUNT and _written_as(c.value, f)))]
    speeds = [f for f in facts.known if f.speed and f.value > 1]
    for c in operands:
        speed = next((f for f in speeds if c.dim is Dim.COUNT and math.isclose(c.value, f.value, rel_tol=0.02)), None)
        if speed is not None and times and s.given.value > times[0].value * 1.01 and s.given.dim in (Dim.SECOND,
                                                                                                   Dim.COUNT):
            t = times[0]
            return (f"{t.shown()} × {speed.shown()} is slower than {t.shown()}: a {speed.shown()}× speed-up takes it to"
                    f" {show(t.value / speed.value, Dim.SECOND)}")
    for share in operands:
        fact = next((f for f in facts.known if f.roof and f.dim is Dim.FRACTION and not f.hypothetical
                     and _shares_close(f.value, share.value)), None) if share.dim in (Dim.FRACTION, Dim.COUNT) else None
        rate = next((c for c in operands if c is not share and c.dim in _ROOF_OF_RATE), None)
        if fact is not None and rate is not None and _ROOF_OF_RATE[rate.dim] != fact.roof:
            return (f"{share.shown()} is a share of {_roof_name(fact.roof)}; times {rate.shown()} it gives no rate"
                    f" this kernel reaches")
    return ""


def arithmetic_wrong(facts: Facts, reading: Reading) -> str:
    """Why the first of a line's written sums is wrong (its arithmetic, or the roles of its figures), or ""."""
    by_start = {c.start: c for c in reading.claims}
    for s in reading.sums:
        why = _written_sum_wrong(s, reading, by_start, facts)
        if why:
            return why
    return ""


_TOKENS_AFTER = re.compile(r"\s*(?:-\s?)?(?:input\s+|prompt\s+)?tok(?:en)?s?\b")
_BECOMES = re.compile(r"[^.;!?]{0,60}?(?:→|->|\bto\b|\bbecomes?\b|\bgives?\b|=|≈|\bat\b)\s*(?:about\s+|roughly\s+|~\s?|≈\s?)?$")


# A speed-up said as one: "exactly 2× faster", "2× the speed".
SPEED_UP_AFTER = re.compile(r"\s*(?:×|x\b|times\b)?\s*(?:faster|quicker|the (?:speed|throughput|tokens?)|speed-?up"
                            r"|more tok|shorter|less time|sooner)")
# A kernel said to end up at its roof: "so the matmul ends up at 100% of peak", "it will hit peak".
_ENDS_AT_THE_ROOF = re.compile(r"\b(?:ends? up|lands?|gets?|will (?:be|run|sit|get|hit|reach)|hits?|reaches|brings? it|"
                               r"takes? it)\s+(?:(?:right|all the way)\s+)?(?:at|to)?\s*(?:100\s?%|full)\s*(?:of\s+)?"
                               r"(?:the\s+|its\s+)?(?:peak|roof|tensor|tflop|bandwidth|speed|rate)\b")


def exact_win_wrong(facts: Facts, reading: Reading, text: str) -> str:
    """Why a lever line promises exactly a speed-up the incident did not measure ("land exactly 4× faster"), or "".

    Where the incident measured none, "exactly 2× faster" is a promise no measurement supports; and a kernel said to
    end up at 100% of its roof is promised what no kernel reaches (1 ÷ the share is a ceiling, not a result).
    """
    speeds = [f for f in facts.known if f.speed and f.value > 1]
    for claim in reading.claims:
        again = claim.multiplier and (_AGAIN_BEFORE.search(text, max(0, claim.start - 30), claim.start)
                                      or _AGAIN_AFTER.match(text, claim.end))
        measured = next((f for f in speeds if math.isclose(claim.value, f.value, rel_tol=0.02)), None)
        if again and measured is not None:  # "a hand-written fused kernel will give roughly another 3.8× on top"
            return (f"the {measured.shown()}× is what the change the incident measured already bought; the same"
                    " change made again deletes nothing more")
        if not claim.multiplier or not _EXACTLY.search(text, max(0, claim.start - 25), claim.start):
            continue
        if speeds and not any(math.isclose(claim.value, f.value, rel_tol=0.02) for f in speeds):
            return (f"the incident measured {speeds[0].shown()}×; exactly {claim.shown()}× is a promise no lever keeps:"
                    " say what the measurement supports")
        if not speeds and claim.value > 1 and SPEED_UP_AFTER.match(text, claim.end):
            return (f"exactly {claim.shown()}× faster is a promise no measurement here supports: say what the"
                    " incident's figures bound it by")
    if not speeds:
        promised = next((c for c in reading.claims if c.dim in (Dim.TOKEN_RATE, Dim.SECOND) and not c.bound
                         and (_EXACT_WORD.search(text, max(0, c.start - 25), c.start) or _EXACT_AFTER.match(text, c.end))
                         and not _A_BOUND_NAMED.search(text, max(0, c.start - 40), c.start)
                         and not any(same(c, f) for f in facts.known)), None)
        if promised is not None:
            word = _EXACT_WORD.search(text, max(0, promised.start - 25), promised.start)
            after = _EXACT_AFTER.match(text, promised.end)
            said = text[word.start():promised.end] if word else text[promised.start:after.end() if after else promised.end]
            return f"“{said}” is a promise no measurement here supports: say what the incident's figures bound it by"
        if doubled := _DOUBLED_EXACTLY.search(text):
            return (f"“{doubled.group()}” is a promise no measurement here supports: say what the incident's figures"
                    " bound it by")
    roof = _ENDS_AT_THE_ROOF.search(text)
    if roof and not negated(text, roof.start(), roof.end()) and not _IF_BEFORE_A_PROMISE.search(
            text, max(0, roof.start() - 40), roof.start()):
        return (f"“{roof.group()}”: no kernel reaches 100% of its roof; 1 ÷ the share reached is the ceiling on a"
                " kernel fix, not what tuning delivers")
    return ""


# "76 tok/s for sure", "80 ms guaranteed"
_EXACT_AFTER = re.compile(r"\s*(?:,\s*)?(?:for sure|guaranteed|for certain|exactly|on the dot|no question)\b")
# A bound worked out exactly is no promise: "the floor halves to exactly 23.5 ms".
_A_BOUND_NAMED = re.compile(r"\b(?:floor|ceiling|bound|limit|roof|best case|at best|at most|up to)\b")
_EXACT_WORD = re.compile(r"\b(?:exactly|precisely|guaranteed)\s+(?:to\s+|at\s+)?(?:~\s?|≈\s?)?$")
_RATE_OR_TIME = r"(?:tok\w*(?:\s?/\s?s\w*|\s+(?:per|a)\s+s\w*)?|throughput|speed|rate|ttft|latency|the time|step time|itl)"
_DOUBLED_EXACTLY = re.compile(rf"\b{_RATE_OR_TIME}\s+(?:\w+\s+)?(?:doubles?|halves?|triples?)\s+exactly\b"
                              rf"|\bexactly\s+(?:doubles?|halves?|triples?)\s+(?:the\s+)?{_RATE_OR_TIME}")
_AGAIN_BEFORE = re.compile(r"\b(?:another|a further|a second|again|an extra|additional)\s+(?:~\s?|≈\s?|roughly\s+|about\s+)?$")
_AGAIN_AFTER = re.compile(r"\s*(?:×|x\b|times\b)?\s*(?:faster\s+)?(?:on top|again|more on top|over (?:that|the compiled))")
_IF_BEFORE_A_PROMISE = re.compile(r"\b(?:if|even|unless|only if|would|could|at best|in theory|never|won'?t|can'?t)\b[^.;]*$")


def prompt_cut_wrong(facts: Facts, reading: Reading, text: str) -> str:
    """Why a time said for a shorter prompt is off what its tokens allow, or "".

    A prefill's time scales with its tokens (the GEMMs) and at most with their square (attention): 3,500 of 4,096
    tokens take 131–154 ms of 180 ms, not 80 ms.
    """
    prompt = next((f for f in facts.known if f.dim is Dim.COUNT and f.value >= 256), None)
    time = next((f for f in facts.known if f.dim is Dim.SECOND), None)
    if prompt is None or time is None:
        return ""
    claims = reading.claims
    for n, tokens in enumerate(claims):
        if tokens.dim is not Dim.COUNT or not 0 < tokens.value < prompt.value or not _TOKENS_AFTER.match(text, tokens.end):
            continue
        said = next((c for c in claims[n + 1:n + 3] if c.dim is Dim.SECOND and _BECOMES.search(text, tokens.end, c.start)),
                    None)
        if said is None or said.bound:
            continue
        share = tokens.value / prompt.value
        low, high = time.value * share**2, time.value * share
        if said.value < low * (1 - MATCH) or said.value > high * (1 + MATCH):
            return (f"{tokens.shown()} of {prompt.shown()} tokens is {show(share, Dim.FRACTION)} of the prompt: from"
                    f" {time.shown()} its prefill falls to between {show(low, Dim.SECOND)} (attention scales with the"
                    f" square of the tokens) and {show(high, Dim.SECOND)} (the GEMMs scale with them), not"
                    f" {said.shown()}")
    return ""


def role_wrong(facts: Facts, reading: Reading, text: str = "") -> str:
    """Why the first of a line's figures is the incident's own in another role, or "".

    "The multiplies already take 85% of the runtime" of A2's 85% of bandwidth: not a what-if a lever line may
    make, but the incident's figure said to be something else. A speed-up said of taking the gaps away is held to
    the timeline's too ("removing the gaps gives at most 1/0.8 = 1.25×": it gives 5×).
    """
    for claim in reading.claims:
        matches = [f for f in facts.known if same(claim, f)]
        why = _attribute_wrong(claim, matches, facts) if matches and not claim.hypothetical else ""
        if why or (text and (why := _gaps_removed_wrong(claim, text, facts) or _speed_up_short_of_the_change(
                claim, reading.claims, text) or _roof_short_of_the_change(claim, facts, reading.claims, text)
                or _kernel_fix_past_its_part(claim, facts, text) or _ceiling_said_exact(claim, facts, text)
                or _speed_up_of_the_change_off(claim, reading.claims, text))):
            return why
        headroom = _headroom_said_wrong(claim, _derived_for(claim, facts, text), text, claim.shown()) if text else None
        if headroom is not None:  # "retune the tiles: a guaranteed win of exactly 1/0.7 ≈ 1.43×"
            return headroom.why
    return ""


def judge(facts: Facts, reading: Reading, text: str = "") -> Judgement:
    """Each claim of a learner's line against the incident's facts and the core's arithmetic.

    A claim is accounted for when its number is an incident figure in the role its words give it, or follows
    from the figures by arithmetic checked here; one checked and false makes the line wrong; one left over is
    named as not checked.
    """
    marks: list[Mark] = []
    wrong = ""
    summed: set[int] = set()
    results: set[int] = set()
    exact: set[int] = set()
    by_start = {c.start: c for c in reading.claims}
    for s in reading.sums:
        why = _written_sum_wrong(s, reading, by_start, facts)
        if why:
            marks.append(Mark(f"{s.written} = {s.given.shown()}", False, why))
            wrong = wrong or why
        else:
            summed.update(s.operands)
            results.add(s.given.start)
            if _sum_right(s) or _unit_said_before(s, reading.claims) is not None:
                exact.add(s.given.start)
    cites = False
    unplaced = []
    unconfirmed: list[Claim] = []
    at = _Line(text, reading.claims, frozenset(summed), frozenset(results), frozenset(exact), reading.sums)
    moved = _moved(reading, facts, text)
    for said in reading.claims:
        claim = _roof_of_the_peak(said, text, facts)
        mark, cited = (Mark(_clause(text, claim), False, moved[claim.start]), False) if claim.start in moved \
            else _account(claim, facts, at)
        if claim is not said and mark.ok is False and (worked := _of_share_wrong(text, reading.claims)):
            mark = Mark(mark.written, False, worked)  # "1.7 of 2.0 TB/s, only 58% of peak": the working's slip said
        marks.append(mark)
        cites = cites or cited
        if mark.ok is False and not wrong:
            wrong = mark.why
        if mark.ok is None and claim.dim is not Dim.COUNT:
            unplaced.append(claim.shown())
        if mark.ok is not True and claim.dim is not Dim.COUNT:
            unconfirmed.append(claim)
    if not wrong:
        for first, then in reading.transitions:
            # "brings ITL back from 14 ms to 8 ms" undoes the change: the other way round on purpose
            if _UNDONE.search(text, max(0, first.start - 30), first.start):
                continue
            if any(same(first, b) and same(then, a) for a, b in facts.transitions):
                wrong = f"it went from {then.shown()} to {first.shown()}, not the other way"
                marks.append(Mark(f"{first.shown()} → {then.shown()}", False, wrong))
                break

    if not wrong and facts.side and reading.sides and all(side != facts.side for side in reading.sides) and not any(
            c.side for c in reading.claims):
        wrong = f"the kernel sits {facts.side} the ridge, not {reading.sides[0]} it"
        marks.append(Mark(f"{reading.sides[0]} the ridge", False, wrong))
    compared = "" if wrong else (comparison_wrong(text, reading.claims, facts) or _direction_wrong(text, reading.claims, facts)
                                 or _of_share_wrong(text, reading.claims) or _of_cycle_wrong(text, reading.claims, facts)
                                 or _times_below_peak_wrong(text, reading.claims, facts)
                                 or beyond_the_roof_wrong(text, reading.claims, facts)
                                 or _transition_off_its_speed(text, reading, facts)
                                 or _ceiling_said_as_a_minimum(text, reading.claims, facts)
                                 or _near_roof_said_far(text, reading.claims, facts)
                                 or _near_the_ridge_wrong(text, reading.claims, facts))
    if compared:
        wrong = compared
        marks.append(Mark(compared.split(",")[0], False, wrong))
    return Judgement(wrong, cites, tuple(unplaced), tuple(marks), tuple(unconfirmed))


# Two figures set against each other with nothing but the relation between them ("38 tok/s is below that 21 tok/s",
# "112 ms > 80 ms", "112 ms — already under the 80 ms target"), or a figure against the floor its words name
# ("26 ms a token, which is slower than that floor").
_PER_ONE = r"(?:\s?(?:/\s?|per\s|a\s|each\s)(?:token|tok|step|request|call|iteration)s?\b)?"
_VERB = r"(?:(?:is|are|was|were|sits?|runs?|stays?|comes? in)\s+)?"
_ADVERB = r"(?:well|far|comfortably|just|still|already|way|much|a bit|slightly|even|easily)\s+"
_WHICH = r"(?:(?:which|that|this|it|so it)\s*(?:is|'s|would be|will be)?\s+|so\s+(?:it'?s\s+|that'?s\s+)?)"
# A relation after a comma or a dash is said of the figure before it ("532 GB/s, under the 300 GB/s the L4 allows");
# one whose figure is a difference is not (", under 1 µs saved").
_COMPARED_JOIN = (_PER_ONE + r"\s*(?:[,—–]\s*|\s-\s)?" + _WHICH + "?" + _VERB + f"(?:{_ADVERB})*")
_COMPARED = re.compile(_COMPARED_JOIN + r"(?P<rel>below|less than|lower than|smaller than|under|above|more than"
                       r"|greater than|higher than|bigger than|larger than|faster than|quicker than|slower than|<|>|≤|≥)"
                       r"\s*(?:that |the |our |its |a |an |this )?~?\s*")
# "Over" is left out: "31.6 ms over the 80 ms target" is a difference, not a comparison. "Under" stays: a figure
# under a smaller one is false both ways ("112 ms under the 80 ms target" is no difference either).
# A target met or missed: "90 ms, which hits the 80 ms target".
_MEETS = re.compile(_COMPARED_JOIN + r"(?P<rel>hits?|meets?|reach(?:es)?|makes|beats?|clears?|misses|miss|inside|within|fits (?:in|inside"
                    r"|within|under))\s+(?:the |our |its |that "
                    r"|a |an |this )?~?\s*")
_TARGET_AFTER = re.compile(r"\s*(?:target|goal|budget|sla|slo|deadline|requirement|ask|bar|mark|slot|window)\b")
_A_CEILING = re.compile(r"\b(?:ceiling|upper bound|speed limit)\b")
_FLOOR_NAMED = re.compile(r"(?:[\w-]+\s+){0,2}?(?:floor|lower bound|ceiling|upper bound|speed limit)\b")
_LESS_THAN = ("below", "under", "less than", "lower than", "smaller than", "<", "≤")


_SPEED_SAID = re.compile(r"\s?×?\s*(?P<word>faster|quicker|slower)\b")
# The change said undone in the claim's own sentence ("remove it and you'd be back to 8 ms, 1.75× quicker"): its
# multiplier is the way back, and its speed word says so.
_CHANGE_UNDONE = re.compile(r"\b(?:back (?:down |up )?to|remov(?:e|es|ed|ing)|drop(?:s|ped|ping)?|without|undo(?:es|ne|ing)?"
                            r"|revert(?:s|ed|ing)?|get(?:s|ting)? rid|restor(?:e|es|ed|ing))\b")


def _direction_wrong(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why a multiplier that is the incident's before → after ratio is said the wrong way ("8 → 14 ms: 1.75× faster")."""
    for claim in claims:
        said = _SPEED_SAID.match(text, claim.end) if claim.multiplier else None
        if said is None:
            continue
        undone = bool(_CHANGE_UNDONE.search(text, _sentence_bounds(text, claim)[0], claim.start))
        for before, after in facts.transitions:
            if before.dim is not after.dim or before.dim not in (Dim.SECOND, Dim.TOKEN_RATE) or min(
                    before.value, after.value) <= 0:
                continue
            ratio = max(before.value, after.value) / min(before.value, after.value)
            if not math.isclose(claim.value, ratio, rel_tol=0.05):
                continue
            faster = (after.value < before.value) if before.dim is Dim.SECOND else (after.value > before.value)
            start, end = (after, before) if undone else (before, after)  # undone: the way back
            quicker = faster != undone  # the way the sentence's change goes
            if quicker != (said["word"] != "slower"):
                way = "faster" if quicker else "slower"
                return f"{start.shown()} → {end.shown()} is {number_shown(ratio)}× {way}, not {said['word']}"
    return ""


# "1.7 of 2.0 TB/s, so about 70%": a share said of "a of b", worked in words.
_OF = re.compile(r"\s*(?:[a-z/]+\s+)?(?:of|out of)\s+(?:a |the |its )?~?\s*")
_SO_SHARE = re.compile(r"[^\d]{0,12}?(?:=|≈|~|,|\bso\b|\bi\.e\.|\bwhich is\b)\s*(?:only |just |about |roughly |around"
                       r" |~|≈)?\s*")


def _of_share_wrong(text: str, claims: Sequence[Claim]) -> str:
    """Why a percent said of "a of b" is not a ÷ b ("1.7 of 2.0 TB/s, so about 70%": it is 85%), or ""."""
    for a, b, share in zip(claims, claims[1:], claims[2:], strict=False):
        # "1.7 of 2.0 TB/s" shares its unit when read; a bare number beside a unit-ful one is left alone
        if a.dim is Dim.FRACTION or share.dim is not Dim.FRACTION or b.value <= 0 or a.dim is not b.dim:
            continue
        if not _OF.fullmatch(text, a.end, b.start) or not _SO_SHARE.fullmatch(text, b.end, share.start):
            continue
        ratio = a.value / b.value
        if 0 < ratio < 1 and not math.isclose(share.value, ratio, abs_tol=0.02 + arithmetic_tolerance(share.written)
                                              * share.value):
            return f"{a.shown()} of {b.shown()} is {show(ratio, Dim.FRACTION)}, not {share.shown()}"
    return ""


# What the GPU is said to do for "a of every b" of its cycle: work (its kernels) or rest (the gaps).
_CYCLE_DOES = {
    "busy": re.compile(r"\b(?:works?|working|toils?|toiling|computes?|computing|crunch\w*|busy|runs?|running|active"
                       r"|does (?:real )?work|doing (?:real )?work|executes?|executing)\b"),
    "idle": re.compile(r"\b(?:rests?|resting|idles?|idling|idle|waits?|waiting|sleeps?|sleeping|does nothing|doing nothing"
                       r"|stalls?|stalled|starv\w*)\b"),
}
_OF_EVERY = re.compile(r"\s*(?:of|out of)\s+(?:every |each |the |a |its )?~?\s*")


def _unit_scale(claim: Claim) -> float:
    """What one of the claim's written units is in base units ("10 µs": 1e-6), for a bare number that shares it."""
    written = _NUMERAL.match(claim.written)
    try:
        figure = float(written.group().replace(",", "")) if written else 0.0
    except ValueError:
        figure = 0.0
    return claim.value / figure if figure else 0.0


def _of_cycle_wrong(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why "a of every b µs the GPU works" gives the kernels' time the gaps' (or the other way), or "".

    Where the incident gives a kernel and a gap time and b is their sum, a is the time the words say the GPU spends
    so ("8 of every 10 µs the GPU toils": its kernels take 2).
    """
    pair = _kernel_and_gap(facts)
    if pair is None:
        return ""
    on, off = pair
    for a, b in itertools.pairwise(claims):
        if b.dim is not Dim.SECOND or a.dim not in (Dim.SECOND, Dim.COUNT) or not _OF_EVERY.fullmatch(text, a.end, b.start):
            continue
        if not math.isclose(b.value, on.value + off.value, rel_tol=MATCH):
            continue
        a_value = a.value if a.dim is Dim.SECOND else a.value * _unit_scale(b)
        lo, _ = _clause_bounds(text, a.start, a.end)
        _, hi = _clause_bounds(text, b.start, b.end)
        # what the GPU does, said after the cycle ("… the GPU toils") or before it ("GPU busy 8 of every 10 µs")
        does = _nearest(_CYCLE_DOES, _words(text[lo:a.start], 3, last=True), _words(text[b.end:hi], 6, last=False))
        said = {"busy": on, "idle": off}.get(does or "")
        other = {"busy": off, "idle": on}.get(does or "")
        if said is None or other is None or math.isclose(a_value, said.value, rel_tol=MATCH):
            continue
        if math.isclose(a_value, other.value, rel_tol=MATCH):
            what = "its kernels run" if does == "busy" else "it waits in the gaps"
            return (f"{show(said.value, Dim.SECOND)} of every {show(on.value + off.value, Dim.SECOND)} is the time {what};"
                    f" {show(other.value, Dim.SECOND)} is the {'gap' if does == 'busy' else 'kernel'} time")
    return ""


# "3.8 times below the card's peak": a share of the roof said as a factor under it (1 ÷ 3.8 = 26%).
_TIMES_BELOW = re.compile(r"\s*(?:times|x|×)?\s*(?:below|under|short of|less than|lower than|away from|off)\s+"
                          r"(?:the |its |the card'?s |the gpu'?s |our |their )?(?:peak|roof|datasheet|limit|max\w*)\b")


def _times_below_peak_wrong(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why "k× below the peak" is not the incident's share of that roof (85% is 1.18× below it, not 3.8×), or ""."""
    for claim in claims:
        if not (claim.multiplier or claim.dim is Dim.COUNT) or claim.value <= 0 or not _TIMES_BELOW.match(text, claim.end):
            continue
        _, hi = _clause_bounds(text, claim.start, claim.end)
        roof = _nearest(_ROOF_WORDS, _words(text[max(0, claim.start - 80):claim.start], 6, last=True),
                        _words(text[claim.end:hi], 8, last=False))
        shares = [f for f in facts.known if f.dim is Dim.FRACTION and f.roof and (roof is None or f.roof == roof)
                  and 0 < f.value < 1]
        if not shares or len({f.roof for f in shares}) > 1:
            continue
        share = shares[0]
        if not math.isclose(claim.value, 1 / share.value, rel_tol=MATCH):
            return (f"{claim.shown()}× below the peak is {show(1 / claim.value, Dim.FRACTION)} of it; the incident's"
                    f" figure is {share.shown()} of {_roof_name(share.roof)}, {number_shown(1 / share.value)}× below it")
    return ""


# A time said to be reached ("we reach 80 ms", "gets TTFT down to 80 ms") on the same card and precision: better
# kernels or tuning, this one GPU. More GPUs or lower precision move the roof itself, so those are not held to it.
_REACHED = re.compile(r"(?:\b(?:we|you|they|it|i|kernels?)(?:'d|'ll)?\s+(?:will |would |can |could |should |then |easily"
                      r" |finally |now )?(?:reach|hit|(?:get|bring) (?:\w+ )?(?:down )?(?:to|under|below)|achieve|make|land at)"
                      r"|\b(?:reaches|hits|clears|beats|(?:gets|brings|bring) (?:\w+ )?(?:down )?(?:to|under|below)|achieves"
                      r"|lands (?:\w+ )?at|(?:gives|delivers|yields)(?: us| you)?)"
                      # "kernel tuning alone could just about meet the 80 ms"
                      r"|\b(?:could|would|can|will|might)\s+(?:just\s+|about\s+|easily\s+|almost\s+|even\s+)*"
                      r"(?:meet|reach|hit|make|achieve)"
                      # "TTFT drops to 80 ms", "until the GEMMs reach 80 ms"
                      r"|\b(?:drops?|falls?|comes? down|goes? down) to|\buntil (?:[\w-]+ ){0,3}(?:reach|hit)\w*)"
                      r"\s+(?:the |~|≈|about |around )?$")
_NOTHING_REACHES = re.compile(r"\b(?:no amount of|nothing|no (?:kernel|tuning|tweak|trim)\w*|none of|neither|nor|no way"
                              r"|not even|never)\b(?:\s+[\w-]+){0,6}\s*$")
_SAME_ROOF = re.compile(r"\b(?:(?:this|one|a single|the same|1) (?:h100|a100|gpu|card|device)"
                        r"|(?:better|perfect|ideal|optimal|flawless|faster) (?:\w+ )?kernels?"
                        r"|tun(?:e|es|ed|ing)\b|optimi[sz]\w* (?:the )?kernels?"
                        # the levers that only bring a kernel nearer its roof
                        r"|til(?:ing|e sizes?)\b|coalesc\w*|vectori[sz]\w* loads|wider loads|pipelin\w*)")
_OTHER_ROOF = re.compile(r"\b(?:more gpus|\d+ gpus|fp8|fp4|int8|lower precision|quanti[sz]\w*|shorter prompts?"
                         r"|chunk\w*|tensor parallel\w*)\b")


def _sentence_of(text: str, at: int) -> str:
    """The sentence around ``at``: from the last end of a sentence before it to the next (its mark kept)."""
    start = max(text.rfind(mark, 0, at) for mark in ".?!\n") + 1
    ends = [found for mark in ".?!\n" if (found := text.find(mark, at)) >= 0]
    return text[start:min(ends) + 1 if ends else len(text)]


# A share near its roof said in words to be far from it ("1.7 TB/s out of 2.0, so nowhere near peak bandwidth").
_FAR_FROM_THE_ROOF = re.compile(r"\b(?:nowhere (?:near|close to)|far (?:from|below|under|short of)|well (?:below|under|short"
                                r" of)|way (?:below|under|off)|a long way (?:from|off|below|under|short of)|miles (?:from"
                                r"|off|below)|not (?:even )?(?:near|close to))\s+(?:the\s+|its\s+|any\s+)?(?:[\w-]+\s+)?"
                                r"(?:peak|roof\w*|limit|max\w*|ceiling|rated|bandwidth|saturat\w*)")
NEAR_THE_ROOF = 0.8  # a share of the roof at or past which "nowhere near it" is false


# An intensity said to sit near the ridge ("16 FLOP/byte, near ridge, so almost compute already").
_NEAR_A_RIDGE = re.compile(r"\s*,?\s*(?:(?:which|that|so it)\s+(?:is|'s|sits)\s+|is\s+|sits\s+)?(?:just|slightly|barely|right|close|near"
                           r"|nearly|almost|roughly)\s+(?:to\s+|at\s+|on\s+|below\s+|under\s+|above\s+|over\s+)?(?:the\s+|a\s+"
                           r"|its\s+)?(?:[\w-]+\s+)?ridge\b")
FAR_FROM_THE_RIDGE = 5.0  # a kernel this many times from the ridge is far from it, whichever card


def _near_the_ridge_wrong(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why an intensity said to sit near the ridge is 5× or more from it (from every card's, where none is named)."""
    for claim in claims:
        if claim.dim is not Dim.INTENSITY or claim.value <= 0 or not _NEAR_A_RIDGE.match(text, claim.end):
            continue
        ridges = (facts.ridge,) if facts.ridge else _catalogue_ridges()
        distances = [max(claim.value, r) / min(claim.value, r) for r in ridges if r > 0]
        if distances and min(distances) >= FAR_FROM_THE_RIDGE:
            where = (f"the ridge of {show(facts.ridge, Dim.INTENSITY)}" if facts.ridge
                     else "any card's ridge")
            return f"{claim.shown()} is {number_shown(min(distances))}× or more from {where}: far from it, not near"
    return ""


def _near_roof_said_far(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why a share of a roof at 80% or more, or the rate that is one, is said to be far from the roof, or ""."""
    for claim in claims:
        if claim.hypothetical or claim.bound:
            continue
        if claim.dim is Dim.FRACTION and claim.roof and not claim.spare and not claim.change:
            share = claim.value
        elif claim.dim in _RATES and any(same(claim, f) for f in facts.known):
            share = next((f.value for f in facts.known if f.dim is Dim.FRACTION and f.roof == claim.roof), 0.0)
        else:
            continue
        if share < NEAR_THE_ROOF or share > 1:
            continue
        lo, hi = _sentence_bounds(text, claim)
        far = _FAR_FROM_THE_ROOF.search(text, claim.end, min(hi, claim.end + 80))
        if far and not _NOT_BEFORE.search(text, max(lo, far.start() - 12), far.start()):
            said = f"{claim.shown()} of" if claim.dim is Dim.FRACTION else f"{claim.shown()} is {share:.0%} of"
            return f"{said} {_roof_name(claim.roof)}, near the roof, not “{far.group()}”"
    return ""


def rate_past_its_roof(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why a lever is said to take this kernel to a rate past its card's roof, or "".

    "Compile pushes the achieved bandwidth from 1.7 up to about 6.5 TB/s (3.8 × 1.7)" of A2's 2.0 TB/s card: no
    kernel moves bytes faster than the roof; compile's 3.8× came from moving fewer of them. Another card's figure (a
    datasheet's, or with a card named), a bound under it, and a rate said as an effective one are not this kernel's.
    """
    if hardware.named_in(text) or _EFFECTIVE.search(text):
        return ""
    for claim in claims:
        if claim.dim not in (Dim.BYTE_RATE, Dim.FLOP_RATE) or claim.spare or (
                claim.bound == "<" and not _UP_TO.search(text, max(0, claim.start - 16), claim.start)):
            continue
        roofs = [f.value for f in facts.known if f.dim is claim.dim]
        if not roofs or claim.value <= max(roofs) * (1 + MATCH) or any(
                math.isclose(claim.value, d.value, rel_tol=MATCH) for d in facts.datasheet if d.dim is claim.dim):
            continue
        return (f"{claim.shown()} is past this card's roof of {show(max(roofs), claim.dim)}: no kernel goes faster"
                " than its roof")
    return ""


def _transition_off_its_speed(text: str, reading: Reading, facts: Facts) -> str:
    """A time taken "from → to" by the incident's speed-up said just before it that the speed-up does not give, or "".

    "Compiled is 1.08× faster, so 12 → about 11.9 µs": 12 µs ÷ 1.08 is 11.1 µs. A what-if's speed-up ("make unloading
    twice as fast and you go 400 → 360 ms") may be of a part: not held here.
    """
    claims = reading.claims
    for a, b in reading.transitions:
        if b.dim is not Dim.SECOND or b.value <= 0:
            continue
        lo = _sentence_bounds(text, a)[0]
        before = [c for c in claims if lo <= c.start < a.start]
        speed = before[-1] if before else None
        if speed is None or not (speed.multiplier and speed.speed) or speed.value <= 1 or speed.bound or not any(
                f.speed and math.isclose(f.value, speed.value, rel_tol=0.02) for f in facts.known):
            continue
        start, end = _as_written_number(a), _as_written_number(b)
        if end <= 0 or start <= end:
            continue
        # held to the digits the result is written to ("about 11.9" is not 11.1; "about 11" is)
        if not math.isclose(end, start / speed.value, rel_tol=max(0.03, arithmetic_tolerance(b.written))):
            return (f"{number_shown(start)} ÷ {speed.shown()} is {number_shown(start / speed.value)}, not"
                    f" {number_shown(end)}: a {speed.shown()}× speed-up takes {number_shown(start)} to"
                    f" {number_shown(start / speed.value)}")
    return ""


def under_the_time_before_promised(facts: Facts, reading: Reading, text: str) -> str:
    """Why a lever line says it takes a time that rose well under where it was before the rise, or "".

    "Drop the per-token .item() and ITL comes back well under 8 ms" of A7 (8 → 14 ms with the kernels unchanged): with
    the sync gone the kernels' 8 ms is left, and nothing in the lever cuts them.
    """
    for before, after in facts.transitions:
        if before.dim is not Dim.SECOND or after.value <= before.value:
            continue
        for claim in reading.claims:
            well = _WELL_UNDER.search(text, max(0, claim.start - 24), claim.start)
            if claim.dim is Dim.SECOND and claim.bound == "<" and well and math.isclose(
                    claim.value, before.value, rel_tol=MATCH):
                return (f"with what was added gone the time goes back to {before.shown()}, what it was before;"
                        f" “{text[well.start():claim.end]}” is more than removing it gives")
    return ""


_WELL_UNDER = re.compile(r"\b(?:well|far|much|way|comfortably)\s+(?:under|below|less than|beneath|short of)\s*(?:~|≈|about\s+)?$")
_EFFECTIVE = re.compile(r"\b(?:effective\w*|equivalent|as if|behaves like|past (?:the |its )?roof|above (?:the |its )?roof"
                        r"|beyond (?:the |its )?roof)\b")
_UP_TO = re.compile(r"\bup to\s*(?:about\s+|roughly\s+|~\s?|≈\s?)?$")


def beyond_the_roof_wrong(text: str, claims: Sequence[Claim], facts: Facts) -> str:
    """Why a time said to be reached on the same card is faster than the roof allows, or "".

    62% of peak at 180 ms is 112 ms at 100%: "with better kernels we reach 80 ms on this one H100" asks for more
    than the card's peak.
    """
    floor = _time_at_the_roof(facts)
    if floor is None or not _SAME_ROOF.search(text) or _OTHER_ROOF.search(text):
        return ""
    for at, claim in enumerate(claims):
        value = claim.value if claim.dim is Dim.SECOND else _in_the_unit_before(claim, claims[:at], text)
        if value is None or not _REACHED.search(text, max(0, claim.start - 30), claim.start):
            continue
        if _sentence_of(text, claim.start).rstrip().endswith("?"):  # asked, not said
            continue
        reached = _REACHED.search(text, max(0, claim.start - 30), claim.start)
        if reached and _NOTHING_REACHES.search(text, max(0, reached.start() - 60), reached.start()):
            continue  # "no amount of trimming reaches 80 ms": denied
        if value >= floor.value * (1 - MATCH):
            continue
        return (f"at 100% of the roof it takes {floor.how} = {show(floor.value, Dim.SECOND)}:"
                f" {show(value, Dim.SECOND)} is faster than this card's peak allows")
    return ""


_CANNOT = re.compile(NEGATION.pattern + r"|\b(?:cannot|can'?t|won'?t|wouldn'?t|couldn'?t|unable|short of|fails? to)\b")
# A target said reached ("just reaches the target", "meets the goal"), by a change on the same card.
_TARGET_REACHED = re.compile(r"\b(?:reach\w*|meets?|meeting|hits?|hitting|makes?|making|gets? (?:us |you |it )?to)\s+"
                             r"(?:the\s+|our\s+|its\s+)?(?:target|goal)\b"
                             # "180 → 80 ms is reachable just by tuning"
                             r"|\b(?:is|are|looks?|seems?)\s+(?:(?!(?:not|never|hardly|barely|un)\b)\w+\s+)?(?:reachable|achievable|attainable"
                             r"|doable|within reach)\b")


def target_past_the_roof_said_reached(facts: Facts, text: str) -> str:
    """Why a target faster than the roof allows is said reached on the same card, or "".

    "Tuning to 100% just reaches the target" of A5's 80 ms, where 100% of peak is 112 ms.
    """
    floor = _time_at_the_roof(facts)
    if floor is None or not (_SAME_ROOF.search(text) or _AT_PEAK.search(text)) or _OTHER_ROOF.search(text):
        return ""
    targets = [k for k in facts.known if k.dim is Dim.SECOND and k.value < floor.value * (1 - MATCH)]
    reached = _TARGET_REACHED.search(text)
    if not targets or reached is None or _CANNOT.search(text, max(0, reached.start() - 30), reached.start()) or (
            _NOTHING_REACHES.search(text, max(0, reached.start() - 60), reached.start())):
        return ""
    return (f"at 100% of the roof it takes {floor.how} = {show(floor.value, Dim.SECOND)}: the"
            f" {show(min(t.value for t in targets), Dim.SECOND)} target is faster than this card's peak allows")


def _in_the_unit_before(claim: Claim, before: Sequence[Claim], text: str) -> float | None:
    """A bare number in the unit of the time said just before it in its sentence ("… ≈ 112 ms … down to 80"), or None."""
    if claim.dim is not Dim.COUNT or claim.multiplier or claim.value <= 0:
        return None
    lo = _sentence_bounds(text, claim)[0]
    time = next((c for c in reversed(before) if c.dim is Dim.SECOND and c.start >= lo), None)
    if time is None or _as_written_number(time) <= 0:
        return None
    return claim.value * time.value / _as_written_number(time)


def _less_said(rel: str, dim: Dim) -> bool:
    """Whether a relation says the first figure is the smaller ("below", "faster than" of a time, "hits" a time)."""
    if rel in ("faster than", "quicker than", "slower than") or rel.startswith(("hit", "meet", "reach", "make", "beat", "clear",
                                                                                 "miss", "inside", "within", "fits")):
        faster = not rel.startswith(("slower", "miss"))
        return faster if dim is Dim.SECOND else not faster  # a time is faster the shorter it is, a rate the larger
    return rel in _LESS_THAN


def _compared_with(text: str, a: Claim, b: Claim | None, facts: Facts | None) -> tuple[str, Claim | float] | None:
    """The relation said from ``a`` to the next figure ``b`` or to the floor its words name, with what it is set against."""
    found = _COMPARED.match(text, a.end)
    if found and b is not None and found.end() == b.start and not (
            _DIFFERENCE_AFTER.match(text, b.end) or _A_GAP_AFTER.match(text, b.end) or _BETTER_AFTER.match(text, b.end)):
        return found["rel"], b
    met = _MEETS.match(text, a.end)
    if met and b is not None and met.end() == b.start and _TARGET_AFTER.match(text, b.end):
        return met["rel"], b
    named = _FLOOR_NAMED.match(text, found.end()) if found and found["rel"] not in ("<", ">", "≤", "≥") else None
    # a ceiling is a rate's ("38 tok/s, below that ceiling"); a time said "above the ceiling" restates its rate
    if found and named and facts is not None and not (a.dim is Dim.SECOND and _A_CEILING.search(named.group())):
        floor = _bytes_floor(facts)
        if floor is not None and a.dim in (Dim.SECOND, Dim.TOKEN_RATE):
            return found["rel"], floor.value if a.dim is Dim.SECOND else 1 / floor.value
    return None


# A figure set against the one said before it, by a pronoun: "~21 tok/s. 38 tok/s is under that, so …".
_COMPARED_PRONOUN = re.compile(_COMPARED_JOIN + r"(?P<rel>below|less than|lower than|under|above|more than|greater than"
                               r"|higher than)\s+(?:that|it|this)(?=\s*(?:[,.;:!?)]|$|\s+(?:so|and|but|which|by|already"
                               r"|now|still)\b))")


def _compared_with_the_last(text: str, a: Claim, before: Sequence[Claim]) -> tuple[str, Claim] | None:
    """The relation said from ``a`` to "that", the last figure of its unit said before it."""
    found = _COMPARED_PRONOUN.match(text, a.end)
    last = next((c for c in reversed(before) if c.dim is a.dim), None) if found else None
    return (found["rel"], last) if found and last is not None else None


_RESTATED_AS = re.compile(r"\s*(?:≈|=|~|,|\(|i\.e\.|or)\s*(?:about\s+|~\s?)?$")


def _said_of_its_pair(text: str, claims: Sequence[Claim], at: int, rel: str, against: Claim | float) -> bool:
    """Whether a comparison after a time holds of the rate said just before it as the same figure, or the reverse.

    "The measured 38 tok/s ≈ 26.3 ms/tok is above that floor": 26.3 ms is 1 ÷ 38 tok/s, and the floor is the rate's.
    """
    a = claims[at]
    pair = claims[at - 1] if at else None
    pairs = {Dim.SECOND: Dim.TOKEN_RATE, Dim.TOKEN_RATE: Dim.SECOND}
    if (pair is None or pairs.get(a.dim) is not pair.dim or pair.value <= 0 or a.value <= 0
            or not math.isclose(pair.value * a.value, 1, rel_tol=0.05)
            or not _RESTATED_AS.search(text, max(0, a.start - 16), a.start)):
        return False
    value = 1 / against if isinstance(against, float) else (
        against.value if against.dim is pair.dim else 1 / against.value if against.value > 0 else 0.0)
    return value > 0 and _less_said(rel, pair.dim) == (pair.value < value)


def comparison_wrong(text: str, claims: Sequence[Claim], facts: Facts | None = None) -> str:
    """Why a comparison of two of the line's figures in one unit, or of one with its floor, is false, or "".

    "38 tok/s is below 21 tok/s", "112 ms — already under the 80 ms target", "90 ms, which hits the 80 ms target",
    "26 ms a token, which is slower than that floor" (A4's floor is 47 ms).
    """
    for at, (a, b) in enumerate(itertools.zip_longest(claims, claims[1:])):
        if a.dim is Dim.COUNT or a.value <= 0:
            continue
        said = _compared_with(text, a, b, facts) or _compared_with_the_last(text, a, claims[:at])
        if said is None:
            continue
        rel, against = said
        if isinstance(against, Claim):
            if against.dim is not a.dim or against.value <= 0:
                continue
            value, shown = against.value, against.shown()
        else:
            value, shown = against, f"the floor, {show(against, a.dim)}"
        if math.isclose(a.value, value, rel_tol=MATCH):
            continue
        less = _less_said(rel, a.dim)
        if less != (a.value < value) and _said_of_its_pair(text, claims, at, rel, against):
            continue  # "38 tok/s ≈ 26.3 ms/tok is above that floor": said of the rate, restated as a time beside it
        if less != (a.value < value):
            if rel in _LESS_THAN or rel in ("above", "more than", "greater than", "higher than", "bigger than",
                                             "larger than", "<", ">", "≤", "≥", "under"):
                return f"{a.shown()} is {'above' if less else 'below'} {shown}, not {rel} it"
            way = "faster" if (a.value < value) == (a.dim is Dim.SECOND) else "slower"
            if rel.endswith("than"):
                return f"{a.shown()} is {way} than {shown}, not {rel.removesuffix(' than')}"
            return f"{a.shown()} is {way} than {shown}: it does not {'miss' if rel.startswith('miss') else 'meet'} it"
    return ""
