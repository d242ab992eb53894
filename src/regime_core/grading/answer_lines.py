"""Reading one line of a learner's answer: the shape of a check, and the regime and lever readers.

The drill's grader (``grade``) and the practice grader (``practice_grade``) both judge lines with
these, so a line reads the same in both. Every check has three outcomes: passed (``True``), not
passed with the reason (``False``), and could not tell (``None``: the line was not understood, so the
check says so and points at the worked answer instead of marking it wrong).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from regime_core.catalogue.levers import (
    FUSION_BOUGHT_NOTHING,
    REGIMES,
    a_kernel,
    advice,
    by_id,
    mentions,
    phrases,
    recognise,
    regime_blamed,
    regime_denied,
    regime_described,
    regime_limited,
    regime_names,
)
from regime_core.catalogue.quantity import Dim, counted, plain_numbers, quantities_in
from regime_core.grading import claims
from regime_core.grading import derived as dv
from regime_core.grading.argument import SENTENCE
from regime_core.grading.language import (
    NEGATION,
    added,
    flops_cut,
    fusion_leaves,
    fusion_misstated,
    in_context,
    negated,
    normalise,
    with_units,
)
from regime_core.grading.statements import Statements
from regime_core.judgment.classify import Verdict
from regime_core.judgment.symptoms import Symptoms, achieved
from regime_core.model.work import weight_format_bytes

UNSURE = "Could not tell"
_MAX_MENTIONS = 100  # a line naming more levers than this is read by its first hundred


@dataclass(frozen=True)
class Check:
    """One thing checked: passed (True), not passed (False) or could not tell (None), and why, in one line."""

    ok: bool | None
    why: str
    claims: tuple[claims.Mark, ...] = ()  # an evidence line's claims as read, each with its mark

    def to_json(self) -> dict[str, Any]:
        """As JSON: ``passed`` is true, false or null; ``claims`` (an evidence line's) each with its own."""
        out: dict[str, Any] = {"passed": self.ok, "why": self.why}
        if self.claims:
            out["claims"] = [m.to_json() for m in self.claims]
        return out


def cap(text: str) -> str:
    """The text with its first letter capitalised and the rest as written ("CUDA graphs", "GQA").

    A name from code keeps its case: "torch.compile: fits this kernel", not "Torch.compile".
    """
    if _CODE_NAME.match(text):
        return text
    return text[:1].upper() + text[1:]


_CODE_NAME = re.compile(r"(?!e\.g\.|i\.e\.)[a-z_][a-z0-9_]*\.[a-z_]|\.[a-z_]")


def cap_line(text: str) -> str:
    """A reason as a line of feedback: capitalised, with its full stop ("" stays "")."""
    return f"{cap(text)}." if text else ""


def unsure(what: str) -> Check:
    """A check that could not tell, saying what it could not read."""
    return Check(None, f"{UNSURE}: {what}; compare it with the worked answer.")


def verdict_of(checks: list[Check]) -> bool | None:
    """False when any check fails, None when none fails but one could not be told, else True."""
    if any(c.ok is False for c in checks):
        return False
    return None if any(c.ok is None for c in checks) else True


#: The regimes a line may name, as the forms offer them: "compute-bound, memory-bound, … or communication-bound".
REGIME_CHOICES = ", ".join(advice(r).name for r in REGIMES[:-1]) + f" or {advice(REGIMES[-1]).name}"


@lru_cache(maxsize=8)
def _regime_name_pattern(regime: str) -> re.Pattern[str]:
    """The names learners give ``regime``, as one pattern (built once: a regime line is read many times a grading)."""
    words = "|".join(re.escape(n) for n in regime_names(regime))
    return re.compile(rf"(?<![\w-])(?:{words})(?![\w])")


def regime_named(text: str) -> str | None:
    """The one regime a learner's text names (negated names aside), or None when it names none or several."""
    lowered = normalise(text)
    named = []
    for regime in REGIMES:
        for match in _regime_name_pattern(regime).finditer(lowered):
            if not negated(lowered, match.start(), match.end()) and regime not in named:
                named.append(regime)
    if not named:  # described rather than named: "limited by how fast the tensor cores can multiply"
        for regime in REGIMES:
            described = regime_described(regime)
            found = described.search(lowered) if described else None
            if found and not negated(lowered, found.start(), found.end()):
                named.append(regime)
    if len(named) > 1:  # "memory-bound: pointwise kernels are below 1 FLOP/B": the regime, then its reason
        head = _REASON.split(lowered, maxsplit=1)[0]
        if head != lowered:
            return regime_named(head)
    return named[0] if len(named) == 1 else None


#: Where a regime line's reason begins ("memory-bound: …", "compute, since …").
_REASON = re.compile(r"[:;,—–(]|\s-\s|\b(?:since|because|as|so|given|due to)\b")
#: The side of the ridge each roof's kernels sit on.
_SIDE_OF = {"memory": "below", "compute": "above"}


_REASON_AS_WRITTEN = re.compile(_REASON.pattern, re.IGNORECASE)
_OCCUPANCY_REASON = re.compile(r"\boccupancy\b")
# What occupancy is made of, said to set the pace ("the registers are the bottleneck"): occupancy by another name.
_OCCUPANCY_MEANS_LIMIT = re.compile(r"\b(?:registers?|register (?:pressure|count|use)|warps?|threads? per block)\b(?:\s+[\w-]+){0,2}?"
                                    r"\s+(?:is|are|was|were)\s+(?:the\s+)?(?:real\s+|main\s+)?(?:bottleneck|limit\w*|culprit"
                                    r"|constraint|problem)\b")
# Occupancy named only to be set aside ("occupancy is a red herring", "not the fibres recruited (occupancy)").
_OCCUPANCY_SET_ASIDE = re.compile(r"\boccupancy\b[^.;]{0,30}?\b(?:red herring|irrelevant|theat(?:re|er)|a distraction"
                                  r"|beside the point|noise|doesn'?t matter|says nothing|(?:is )?not (?:a|the) (?:regime|limit"
                                  r"|cause))\b|\bnot\b[^.;()]{0,60}\(\s*occupancy\b")
_DENIED_BEFORE = re.compile(r"\b(?:not|no|never|nothing to do with|isn'?t|aren'?t|rather than|instead of)\b[^.;,]*$")
_DENIED_AFTER = re.compile(r"\s*(?:[\w%.]+\s+){0,3}?(?:is|are|was)\s*(?:n'?t|not|never)\b|\s*(?:\w+\s+){0,2}?(?:doesn'?t|does not"
                           r"|don'?t|do not)\s+(?:matter|decide|limit|set)")
# A reason that says something sets the pace ("the memory bus is full"), not only mentions it ("memory has headroom").
# ("full" of a size is no limit: "the saving seen at full size", "a full-precision run")
_LIMITS = re.compile(r"\b(?:saturat\w*|full(?![- ](?:size|sized|scale|tensor|shape|model|batch|precision|run|request))|busy"
                     r"|(?<!upper )(?<!lower )bound|limit\w*|bottleneck\w*|maxed|pegged|stream\w*|waiting|waits"
                     r"|starv\w*|dominat\w*|sets? the (?:time|pace)|(?:decid|determin|govern|dictat)\w* (?:the )?(?:time|pace)"
                     # a rate said to be something's speed: "the 38 tok/s is just the host's speed"
                     r"|(?:is|are)\s+(?:just\s+|simply\s+|only\s+|really\s+)?(?:the\s+)?[\w-]+(?:'s)?\s+(?:speed|pace|rate))\b")


# A clause that draws the line's conclusion ("so it must be compute", "must be doing a lot less math"): the regime it
# names is the one the evidence argues for.
_CONCLUDES = re.compile(r"\b(?:must|has to|have to) be\b|\b(?:a lot|lots|tons|loads) of\b|\btherefore\b|\bhence\b"
                        # a clause after "so" that names what it is ("… so it's memory"): the clause starts there
                        r"|^\s*(?:it'?s|its|it is|this is|that'?s|thus|ergo)\s+(?:all\s+|just\s+|mostly\s+|clearly\s+)?"
                        r"(?:the\s+)?[\w-]+(?:\s+(?:units?|cores?|side|roof|limit))?\s*$"
                        # a figure said to be what some cost is: "the 12 µs is arithmetic time", "is the launch overhead"
                        r"|\b(?:is|=|≈|are)\s+(?:just\s+|all\s+|mostly\s+|basically\s+|simply\s+)?(?:the\s+)?"
                        r"(?:[\w-]+\s+){0,2}(?:time|cost|overhead|floor)\b")


def reason_against(text: str, regime: str) -> str:
    """What a regime line's own reason says against the regime it names, or "".

    The reason is what follows the regime ("memory-bound: past the ridge", "compute-bound, because the memory
    bus is full"): a side of the ridge that is the other roof's, another regime named or described in it, or
    occupancy given as the cause (Rule 4: occupancy is a means, not a roof).
    """
    lowered = normalise(text)
    parts = _REASON.split(lowered, maxsplit=1)
    reason = parts[1].strip(" .)") if len(parts) > 1 else ""
    if reason:
        written = _REASON_AS_WRITTEN.split(" ".join(text.split()), maxsplit=1)
        quoted = (written[1] if len(written) > 1 else reason).strip(" .)")  # the learner's words, for the feedback
        quoted = re.sub(r"^(?:so|since|because|as|given|due to)\s+", "", quoted, flags=re.IGNORECASE)
        quoted += ")" * (quoted.count("(") - quoted.count(")"))  # "(memory traffic dominates)" keeps its bracket
        other = regime_named(reason) if _LIMITS.search(reason) else None
        if other is not None and other != regime:
            return (f"Your reason (“{quoted}”) describes {a_kernel(other)}, not {a_kernel(regime)}:"
                    " the regime and its reason must agree.")
        # another regime's resource said to set the pace ("the memory traffic is what's holding it back")
        if blamed_against(quoted, reason, regime):
            return (f"Your reason (“{quoted}”) puts the time on {_CAUSE[_blamed_regime(reason)]}, not on what holds"
                    f" {a_kernel(regime)}: the regime and its reason must agree.")
        occupancy = _OCCUPANCY_REASON.search(reason) or _OCCUPANCY_MEANS_LIMIT.search(reason)
        # denied before it or by its own verb ("not occupancy", "occupancy isn't it"); a verb denied further on is
        # what occupancy is said to cause ("at 55% occupancy the SMs can't issue enough loads")
        if occupancy and not _DENIED_BEFORE.search(reason, max(0, occupancy.start() - 40), occupancy.start()) \
                and not _DENIED_AFTER.match(reason, occupancy.end()) and not _OCCUPANCY_SET_ASIDE.search(reason):
            return (f"Your reason (“{quoted}”) is occupancy, which is not a regime (Rule 4): say which roof"
                    " holds the kernel and why.")
    side = _SIDE_OF.get(regime)
    reading = claims.read(with_units(text))
    if side is None or not reading.sides or any(s == side for s in reading.sides):
        return ""
    where = {"above": "above the ridge the math sets the time", "below": "below the ridge the bytes set the time"}
    return (f"Your reason puts the kernel {reading.sides[0]} the ridge, but {where[reading.sides[0]]}: a"
            f" {advice(regime).name} kernel sits {side} it.")


# Words of a lever that names a problem which name the problem itself, not its cure ("sync", not "non_blocking"
# or "sync-free").
_PROBLEM_WORDS = re.compile(r"(?:\bsync|\bsynchron|cuda(?:device|stream)synchron|item\(\)|cpu\(\)|\bread(?:ing)?(?: it)? ?back"
                            r"|host read)\S*(?<!free)(?<!less)$")


def _names_the_problem(lowered: str, start: int, end: int) -> bool:
    """Whether the phrase at ``lowered[start:end]``, with the rest of its last word, names a host sync itself."""
    rest = re.match(r"\S*", lowered[end:])
    return bool(_PROBLEM_WORDS.search(lowered[start:end] + (rest.group() if rest else "")))


# A lever word that names a measurement of the kernel ("fused intensity", "compiled time"), not a lever offered.
# ... unless the line adopts it ("ship the compiled version", "use the fused version").
_ADOPT = re.compile(r"\b(?:use|ship|deploy|adopt|switch to|go with|keep|take|run|merge)\s+(?:the\s+|that\s+|this\s+)?\S*$")
_DESCRIBES = re.compile(r"[^\s;:,.!?—–]*\s+(?:intensity|time|timing|version|run|bandwidth|traffic|bytes|speed-?up)\b")
# A lever said to buy at most a bound ("tuning the kernel can yield at most 1.43×"): weighed, not offered.
_BOUNDED_GAIN = re.compile(r"\S*(?:\s+[\w.-]+){0,4}?\s+(?:(?:can |could |would |will )?(?:yield|buy|give|gain|get|bring)s?"
                           r"|has|have|leaves?)\s+(?:at most|maximum|max|no more than|only|about|around)\b"
                           # "tuning the kernel can only chase the last 30% of peak"
                           r"|\S*(?:\s+[\w.-]+){0,4}?\s+(?:can|could|would|will)\s+only\s+(?:chase|recover|claw back|win back"
                           r"|get back|squeeze)\b")


_BOUNDED_BEFORE = re.compile(r"\b(?:more than|at most|over|beyond|no more than)\s+(?:about\s+|~)?[\d.]+\s?×\s+from\s+"
                             r"(?:the\s+)?$")


@dataclass(frozen=True)
class LeverLine:
    """The levers a line names: offered (neither denied nor only describing the kernel), denied, and added.

    ``added`` holds levers whose problem the line puts in ("add a torch.cuda.synchronize() after each step");
    ``to_host`` the words that move GPU work to the host, which puts a sync in ("move the argmax to the CPU").
    """

    offered: tuple[str, ...]
    denied: tuple[str, ...]
    added: tuple[str, ...] = ()
    to_host: str = ""


_HOST_SYNC = "remove_host_sync"
# GPU work moved to the host: "move the sampling over to the CPU", "do the argmax on the host".
# ("pull the tensor to the host with .cpu(), run the chain in numpy"; not "pull results to the host every 100 steps")
_TO_THE_HOST = re.compile(r"\b(?:mov\w*|do|does|doing|run|runs|running|comput\w*|shift\w*|offload\w*|push\w*|put|pull\w*)\b"
                          r"(?:\s+[\w/().-]+){1,4}?\s+(?:over\s+)?(?:(?:to|on|onto) (?:the )?(?:cpu|host)\b(?!\s*side)"
                          r"|in numpy\b)(?![^.;]{0,20}\b(?:every|once|only|at the end|in batch\w*|periodic\w*)\b)")


# What a line does to a problem it names, so that naming it offers its cure ("drop the .item()", ".item() out of
# the loop", "replace .item() with a device-side check").
_REMOVING = re.compile(r"\b(?:remov\w*|drop\w*|delet\w*|eliminat\w*|rid of|tak\w* (?:\S+ )?out|strip\w*|kill\w*|cut\w*"
                       r"|ditch\w*|los(?:e|ing)|replac\w*|swap\w*|mov\w*|hoist\w*|defer\w*|batch\w*|fewer|less|reduc\w*"
                       r"|lift\w*|pull\w*|push\w*|get\w* \S+ out|no more|out with|minimi[sz]\w*|amortis\w*|amortiz\w*"
                       r"|every \d+|once|coalesc\w*|fix\w*|free|-free|async\w*|overlap\w*|hide|hiding"
                       # the same in the other languages learners write in ("quitar el .item()", "supprimer")
                       r"|quit\w*|elimin\w*|supprim\w*|enlev\w*|retir\w*|entfern\w*|tirar|sacar|hatao)\b|🚫|❌|⛔")
_REMOVED_AFTER = re.compile(r"\S*(?:\s*(?:→|->|⇒)|(?:\s+\S+){0,4}?\s+(?:out\b|removed|gone|dropped|deleted|outside"
                            r"|must go|has to go|should go|off the|away|every \d+|once|hatao|hata do))")


def _removed(lowered: str, start: int, end: int) -> bool:
    """Whether the line does something to the problem it names at ``start`` (removes, moves, batches it)."""
    before = lowered[max(0, start - 60):start]
    clause = re.split(r"[;:,.!?]\s|\bor\b|\band\b", before)[-1]
    return bool(_REMOVING.search(clause) or _REMOVED_AFTER.match(lowered, end))


# A sync said once for the whole run, not per step.
_ONCE = re.compile(r"\b(?:once|at the (?:very )?end|after the (?:last|final)|end of (?:the )?(?:generation|request|loop|run"
                   r"|decode)|per (?:request|generation|run)|every (?:n|k|\d{2,}(?:,\d{3})*) (?:steps|tokens|iterations|iters))\b")


_AT_BATCH = re.compile(r"\b(?:at|with|of|for|in|on)\s*$")
_BATCH_OF = re.compile(r"\s*(?:size\s*)?(?:of\s*|=\s*|:\s*)?\d")


# A lever set beside the one a line offers or refuses, to compare ("a week to win 18%, versus 3.8× for typing
# torch.compile"): not offered.
_SET_BESIDE = re.compile(r"\b(?:versus|vs\.?|compared (?:with|to)|as against|unlike)\b(?:[^.;:]|\.(?=\d)){0,40}$")
# A lever's measured result named as a yardstick ("catch up with compile's 3.8×"), not the lever offered.
_ITS_RESULT = re.compile(r"['’]s\s+(?:[a-z-]+\s+){0,2}?(?:~\s?|≈\s?)?\d[\d.]*\s?(?:×|x\b|times\b)")


_JOINED_TO_DENIED = re.compile(r"\s*,?\s*(?:or|nor)\s+(?:[\w-]+\s+)?")


@lru_cache(maxsize=64)  # a line's levers are read by several checks of one grading: read it once
def read_levers(text: str) -> LeverLine:
    """Levers named in a learner's line, split into those offered and those denied ("not KV paging")."""
    lowered = normalise(text)
    offered: list[str] = []
    denied: list[str] = []
    adds: list[str] = []
    cures: set[str] = set()  # levers that name a problem, offered by a word for the cure ("keep it on the GPU")
    last_denied: int | None = None  # where the last denied lever's words end
    for m in mentions(lowered)[:_MAX_MENTIONS]:
        describes = _DESCRIBES.match(lowered, m.end) and not _ADOPT.search(lowered, max(0, m.start - 24), m.start)
        lever = by_id(m.lever)
        # A problem put in is read even after the lever was named ("replace .item() with .cpu()": .cpu() is put in).
        if lever.names_a_problem and _names_the_problem(lowered, m.start, m.end) and added(lowered, m.start):
            if _ONCE.search(lowered, m.end, m.end + 40):
                continue  # "one synchronize at the end of generation" waits once, not every step
            if m.lever not in adds:
                adds.append(m.lever)
            continue
        if m.lever in offered or in_context(lowered, m.start) or describes or \
                _BOUNDED_GAIN.match(lowered, m.end) or _BOUNDED_BEFORE.search(lowered, max(0, m.start - 60), m.start) \
                or _SET_BESIDE.search(lowered, max(0, m.start - 50), m.start) \
                or _ITS_RESULT.match(lowered, m.end):  # "versus 3.8× for typing torch.compile", "compile's 3.8×"
            continue
        if m.lever == "batching" and _AT_BATCH.search(lowered, max(0, m.start - 6), m.start) and _BATCH_OF.match(
                lowered, m.end):
            continue  # "at batch 1 and context 512": the incident's batch, not batching offered
        # "no need for extra GPUs or FP8": a lever joined by "or" to one denied just before is denied with it
        denies = negated(lowered, m.start, m.end) or (last_denied is not None and bool(
            _JOINED_TO_DENIED.fullmatch(lowered, last_denied, m.start)))
        if denies:
            last_denied = m.end
        if lever.names_a_problem and _names_the_problem(lowered, m.start, m.end) and not denies and not _removed(
                lowered, m.start, m.end):
            continue  # ".item()" named with nothing done to it ("compress the tensor before .item()") offers no cure
        target = denied if denies and not lever.names_a_problem else offered
        if target is offered and lever.names_a_problem and not _names_the_problem(lowered, m.start, m.end):
            cures.add(m.lever)
        if m.lever not in target:
            target.append(m.lever)
    # Work moved to the host ("move the argmax over to the CPU") reads its input back there: a sync put in.
    moved = _TO_THE_HOST.search(lowered)
    to_host = ""
    if moved and not negated(lowered, moved.start(), moved.end()) and not NEGATION.search(moved.group()):
        to_host = moved.group()
        if _HOST_SYNC not in adds:
            adds.append(_HOST_SYNC)
    # "call synchronize() before .item()" adds a sync: the line names the problem twice and its cure nowhere; and
    # "take .item() out and put a synchronize() in each step" cures one sync by putting another in every step.
    offered = [o for o in offered if o not in adds]
    return LeverLine(tuple(offered), tuple(d for d in denied if d not in offered), tuple(a for a in adds if a not in offered),
                     to_host)


def helps_here(lever_id: str, kind: str) -> bool:
    """Whether a lever can move a kernel of ``kind`` (a regime, or ``host``/``loader``)."""
    return kind in by_id(lever_id).fits


def deciding_lines(verdict: Verdict) -> list[str]:
    """The classifier's own evidence and anomaly lines, normalised (occupancy never decides)."""
    return [with_units(line) for line in [*verdict.evidence, *verdict.anomalies] if "occupancy" not in line]


def deciding_numbers(verdict: Verdict) -> list[tuple[float, Dim]]:
    """The numbers the classifier's own evidence rests on (occupancy never decides)."""
    return [q for line in deciding_lines(verdict) for q in quantities_in(line)]


@dataclass(frozen=True)
class Contradiction:
    """Words that say the opposite of what an incident states ("the kernels got slower"), and what it states."""

    says: re.Pattern[str]
    why: str

    def against(self, lowered: str) -> str:
        """The feedback where ``lowered`` (normalised) says it, or "".

        Only the first match counts, and not where it is denied before it or inside it ("the kernels are not slow"
        matches "are, perhaps, slow").
        """
        found = self.says.search(lowered)
        if found is None or negated(lowered, found.start(), found.end()) or NEGATION.search(found.group()):
            return ""
        return self.why


class Stated(Protocol):
    """What an incident states, as a pattern (``Contradiction``) or a relation (``relations.Relation``)."""

    def against(self, lowered: str) -> str:
        """The feedback where ``lowered`` (normalised) says the opposite, or ""."""


def contradicted(lowered: str, contradictions: Collection[Stated]) -> str:
    """What the incident states that the text (normalised) says the opposite of, or ""."""
    return next((why for c in contradictions if (why := c.against(lowered))), "")


# Occupancy mentioned to be set aside ("the 55% occupancy measures something else"), not cited as evidence.
_SET_ASIDE = re.compile(r"not a regime|rule 4|irrelevant|doesn'?t matter|does not matter|something else|red herring"
                        r"|theat(?:re|er)|misleading|sounds like|decides nothing|not (?:the|a) (?:limit|bottleneck)"
                        r"|isn'?t (?:the|a) (?:limit|bottleneck)|not what limits")
_GPU_UTIL = re.compile(r"\b(?:nvidia-smi|gpu[- ]?util\w*)")


_SHOWN_MARKS = {True: "✓", False: "✗", None: "not checked:"}


def _as_written(text: str, lowered: str) -> str:
    """A stretch of the normalised line quoted as the learner wrote it, where it can be found.

    Normalising changes case and spacing ("~5" reads "~ 5"), so the stretch is looked for with spaces set aside.
    """
    kept = [(n, c) for n, c in enumerate(text) if not c.isspace()]
    squeezed = "".join(c for _, c in kept).lower()
    wanted = "".join(lowered.split()).lower()
    at = squeezed.find(wanted) if wanted else -1
    if at >= 0:
        return text[kept[at][0]:kept[at + len(wanted) - 1][0] + 1]
    # Normalising also rewrites a little ("4x" reads "4×", "rule 3's" "rule 3s"): a clause is quoted from the stretch
    # that matches nearly all of it, both ends included (a figure, a few characters, is too short to align safely).
    if len(wanted) < _ALIGNED_SHORTEST or len(squeezed) > _ALIGNED_LENGTH:
        return lowered
    blocks = [b for b in difflib.SequenceMatcher(None, squeezed, wanted, autojunk=False).get_matching_blocks() if b.size]
    if not blocks or sum(b.size for b in blocks) < 0.9 * len(wanted) or blocks[0].b > 2 or blocks[0].size < 4 or (
            len(wanted) - blocks[-1].b - blocks[-1].size > 2 or blocks[-1].size < 4):
        return lowered
    start, end = blocks[0].a - blocks[0].b, blocks[-1].a + len(wanted) - blocks[-1].b
    if not 0.8 * len(wanted) <= end - start <= 1.25 * len(wanted):
        return lowered
    start, end = max(0, start), min(len(kept), end)
    return text[kept[start][0]:kept[end - 1][0] + 1]


#: The longest line aligned with its normalised stretch for a quote (a longer one, pasted or hostile, is quoted as
#: normalised): the alignment's cost grows with the line.
_ALIGNED_LENGTH = 5000
_ALIGNED_SHORTEST = 24


def claims_said(marks: Collection[claims.Mark], text: str) -> str:
    """The claims of a line with their marks, in the learner's words: ``✓ "70% of peak" (decides the regime)``."""
    parts: list[str] = []
    # What was not checked is the point of a could-not-tell: all of it is named, and the checked fill what is left.
    unchecked = [m for m in marks if m.ok is None][:8]
    checked = [m for m in marks if m.ok is not None][:max(0, 8 - len(unchecked))]
    for mark in [m for m in marks if m in checked or m in unchecked]:
        quoted = f"“{_as_written(text, mark.written)}”"
        part = f"not checked: {quoted}" if mark.ok is None else f"{_SHOWN_MARKS[mark.ok]} {quoted} ({mark.why})"
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)


_WHAT_IF = re.compile(r"\b(?:would|could|might|if|had it|were it|should|whether)\b|\b(?:you|we|it|one|they)'d\b")
# A regime named to set this kernel beside it ("well above the 50% you see from a memory-bound kernel", "unlike a
# compute-bound GEMM"): a contrast, not a reason.
_CONTRAST_BEFORE = re.compile(r"(?:(?<!other )(?<!else )\bthan|\bunlike|\bcompared (?:with|to)|\bversus|\bvs\.?|\binstead of"
                              r"|\bas (?:in|with|for)|\bnowhere near|\bnothing like|\bfar from)\s+(?:[\w%'-]+\s+){0,6}?$")


def _named_in_contrast(clause: str, regime: str) -> bool:
    """Whether every naming of ``regime`` in a clause sets this kernel beside it rather than calling it that."""
    words = "|".join(re.escape(n) for n in regime_names(regime))
    found = list(re.finditer(rf"(?<![\w-])(?:{words})(?![\w])", clause))
    return bool(found) and all(_CONTRAST_BEFORE.search(clause, max(0, m.start() - 50), m.start()) for m in found)
_EVIDENCE_CLAUSE = re.compile(r"[;:!?()\[\]—–→⇒]|->|=>|\.(?=\s|$)|,\s|\b(?:but|whereas|while|so|and|which)\b")


# An incident named in a clause ("the same chain on 16,384× the data (A2) was memory-bound"): what the clause says of
# a regime is said of that one, set beside this.
_NAMED_SUBJECT = re.compile(r"\W*(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:(?:in|of|for|on)\s+)?a[1-8]\b")
_NAMED_BEFORE = re.compile(r"\ba[1-8]\W*$")
# Another incident named by what it was: "the same chain at (8, 4096, 4096) was bandwidth-limited", "the same chain on
# a tensor 16,384× bigger was memory-bound".
_THE_OTHER_ONE = re.compile(r"\W*(?:the\s+)?same\s+(?:chain|kernel|ops?|code|graph|computation)\s+(?:at|on|with|over|for)\b"
                            r"|\b(?:bigger|larger)\s+(?:tensor|shape|input)\b|\btensor\s+[\d.,]+\s?×\s+(?:bigger|larger)\b")


def _sentence_up_to(text: str, at: int) -> str:
    """The sentence ``at`` ends in, from its start up to ``at``."""
    start = max(text.rfind(". ", 0, at), text.rfind("; ", 0, at), text.rfind("\n", 0, at))
    return text[start + 1:at]


# A regime denied in so many words: "it certainly isn't compute-limited", "not memory-bound".
_REGIME_DENIED = re.compile(r"\b(?:not|isn'?t|aren'?t|wasn'?t|weren'?t|never|no longer|neither|nor)\s+(?:\w+\s+){0,2}?"
                            r"(?:compute|math|memory|bandwidth|overhead|host|launch|cpu)[- ]?(?:bound|limited|heavy)\b")


def _regime_said_against(text: str, regime: str | None) -> str:
    """Why an evidence line is wrong where a clause of it says another regime sets the pace, or "".

    "The math units are the bottleneck" or "the gaps are the kernels waiting on HBM", where the incident is
    ``regime``; a what-if ("had it been compute-limited", "a memory-bound op would shrink to ns") says nothing
    of this kernel.
    """
    if regime is None:
        return ""
    lowered = normalise(text)
    denied = regime_denied(regime)
    found = denied.search(lowered) if denied else None
    if found and not negated(lowered, found.start(), found.end()) and not _WHAT_IF.search(lowered[:found.start()][-40:]):
        return (f"Your evidence says “{_as_written(text, found.group())}”, which this incident's measurements contradict:"
                f" it is {advice(regime).name}.")
    at = 0
    for clause in _EVIDENCE_CLAUSE.split(lowered):
        start = lowered.find(clause, at)
        at = start + len(clause)
        # a limit that is denied ("neither memory- nor compute-bound") concludes nothing about another regime
        limits = [m for m in _LIMITS.finditer(clause) if not negated(clause, m.start(), m.end())]
        if not clause.strip() or not (limits or _CONCLUDES.search(clause)) or _WHAT_IF.search(clause):
            continue
        other = regime_named(clause)
        if other is not None and _REGIME_DENIED.search(clause) and regime_named(_REGIME_DENIED.sub(" ", clause)) != other:
            continue  # "it certainly isn't compute-limited": the regime named is denied
        # an incident named as the clause's subject, or just before it ("(A2) was memory-bound"), is what it is of
        if other is not None and other != regime and not (_NAMED_SUBJECT.match(clause) or _NAMED_BEFORE.search(
                lowered, max(0, start - 12), start) or _THE_OTHER_ONE.search(_sentence_up_to(lowered, at))) and not \
                _named_in_contrast(clause, other):
            quoted = _as_written(text, clause.strip())
            return f"Your evidence describes {a_kernel(other)} (“{quoted}”), but this one is {advice(regime).name}."
    return ""


# Where one claim of a line ends and the next begins, for what each blames: a sentence, or "but"/"whereas".
_BLAME_SPAN = re.compile(r"[.;!?](?=\s|$)|\n|\b(?:but|whereas|while)\b")
_WINDOW_BEFORE = 80
# A denial or a what-if between a resource and what is said of it ("memory, which isn't saturated", "HBM would be
# the limit").
_DENIED_BETWEEN = re.compile(r"\b(?:not|no|never|hardly|barely|nowhere|far from|isn'?t|aren'?t|wasn'?t|weren'?t"
                             r"|would|could|might|if|only if|unless)\b|n['’]t\b")
_ANALOGY_BEFORE = re.compile(r"\b(?:like|as if|as though|akin to|imagine|think of)\s+(?:a|an|the|my|your|our|some)\b[^.;:]*$")
_NOTHING_BEFORE = re.compile(r"\b(?:nothing|none|no one)\b(?:\s+[\w-]+){0,4}\s*$")
#: What each regime's cause is, in the feedback's words.
_CAUSE = {"compute": "the math", "memory": "moving bytes", "overhead": "launches or the host",
          "communication": "communication"}


def blamed_against(text: str, lowered: str, regime: str | None) -> str:
    """Why a line is wrong where it gives only another regime's cause as the reason for a time, or "".

    "Compile's 3.8× comes from faster math" of a memory-bound chain, "the 8 µs gaps are DRAM latency" of an
    overhead-bound one. A sentence that blames the incident's own regime as well is left to the other checks; a
    denied cause ("nothing left for faster math to win") or a what-if blames nothing.
    """
    found = _blamed(lowered, regime) if regime is not None else None
    if not found:
        return ""
    other, said = found
    return (f"“{_as_written(text, said)}” puts the time on {_CAUSE[other]}, as in {a_kernel(other)}; this"
            f" incident's measurements say it is {advice(regime).name}.")


def _blamed_regime(lowered: str) -> str:
    """The regime whose cause a text blames first (for a reason already found to blame another's)."""
    found = _blamed(lowered, "")
    return found[0] if found else "compute"


def _blamed(lowered: str, regime: str) -> tuple[str, str] | None:
    """The first other regime a span of ``lowered`` blames where it does not blame ``regime``, with the words."""
    for span in _BLAME_SPAN.split(lowered):
        found: dict[str, str] = {}
        for other in REGIMES:
            for pattern in (regime_blamed(other), regime_limited(other)):
                for match in pattern.finditer(span) if pattern else ():
                    before = span[max(0, match.start() - _WINDOW_BEFORE):match.start()]  # near words: linear on any text
                    between = (match.groupdict().get("gap") or "") + (match.groupdict().get("gap2") or "")
                    if (negated(span, match.start(), match.end()) or _NOTHING_BEFORE.search(before)
                            or _WHAT_IF.search(before[-40:]) or _DENIED_BETWEEN.search(between)
                            or _ANALOGY_BEFORE.search(before[-50:])):  # "it's like an SNES game running the CPU flat out"
                        continue
                    found.setdefault(other, match.group())
        if found and regime not in found:
            return next(iter(found.items()))
    return None


# Occupancy said to measure a roof ("occupancy measures how much of the memory bandwidth is in use", "55% occupancy ⇒
# 45% of bandwidth left"): Rule 4.
_OCCUPANCY_AS_ROOF = re.compile(r"\boccupancy\b[^.;:!?]{0,40}?(?:\b(?:measures?|means?|shows?|is|tells?|confirms?|so"
                                r"|proves?)\b|=|⇒|=>|->|→)[^.;!?]{0,40}?\b(?:bandwidth|hbm|dram|memory traffic|flop/?s"
                                r"|compute (?:use|usage)|(?:memory|compute|bandwidth)[- ]bound)\b")
# Occupancy called what holds the time ("only 55% of the seats are pulling, that's the limiter"): Rule 4.
_OCCUPANCY_AS_THE_LIMIT = re.compile(r"\boccupancy\b(?:(?!\b(?:not|no|doesn'?t|don'?t|isn'?t|when|while|whereas|but|because"
                                     r"|if)\b)[^.;!?]){0,60}?\b(?:that'?s|which is|is|are)\s+(?:the|what'?s|what is)\s+"
                                     r"(?:limit(?:er|ing)?|bottleneck|problem|holding it back)\b"
                                     r"|\boccupancy\b[^.;!?]{0,20}?\b(?:limits|caps|throttles|bottlenecks|holds back)\s+(?:the\s+)?"
                                     r"(?:kernel|step|decode|throughput|bandwidth|it)\b")
# The regime said to be beyond telling from what is given.
_UNDECIDABLE = re.compile(r"\b(?:(?:we|you|one|i)\s+(?:cannot|can'?t|could not|couldn'?t)\s+(?:yet\s+)?(?:say|tell|know)"
                          r"|(?:impossible|no way) to (?:say|tell|know)|(?:it'?s|it is|this is|remains?|still)\s+undecid(?:ed|able)"
                          # two regimes left open ("70% of peak could be compute or memory")
                          r"|(?:could|might|may|can)\s+be\s+(?:either\s+)?(?:compute|memory|overhead|host|launch|bandwidth)"
                          r"(?:[- ]bound)?\s+or\s+(?:compute|memory|overhead|host|launch|bandwidth)"
                          r"(?![^.;!?]{0,60}\b(?:but|yet|however|though|until|unless)\b)"  # "… to a novice, but"
                          # a profiler asked for before the call ("you'd have to get Nsight on it before calling it")
                          r"|(?:have|need|needs|got)\s+to\s+(?:get|run|use|put|throw)\s+(?:nsight|ncu|a profiler|the profiler"
                          r"|profil\w*)(?:\s+[\w']+){0,3}?\s+(?:before|to)\s+(?:call|tell|say|know|decid)\w*)"
                          r"\b(?![^.;!?]{0,30}\b(?:which kernel|why|whether))")
# The incident's own measurement called unreal ("the 38 tok/s figure is impossible", "must be a measurement error").
_MEASURE_DENIED = re.compile(r"\b(?:impossible(?!\s+(?:without|unless|if|for|to|with|by|on)\b)|(?:can'?t|cannot|could not|couldn'?t) be (?:real|right|true)|not real"
                             r"|(?:bad|bogus|broken|faulty|wrong) (?:measurement|timing|benchmark)|measuring (?:error|mistake)"
                             r"|measurement (?:error|mistake|artefact|artifact)|instrumentation (?:loss|error)|bogus"
                             r"|should be (?:discarded|ignored)|a typo)\b")


# A target said to need more than the roof, just before "impossible": it is the target that is impossible ("2.25 ×
# 62% = 139.5% of peak: impossible"; "would mean 139.5% of peak on one GPU (0.62 × 2.25) — impossible"), not the
# measurement.
_A_TARGET_PAST_THE_ROOF = re.compile(r"(?:1[0-9]{2}|[2-9][0-9]{2})(?:\.\d+)?\s?%\s*(?:of\s+(?:the\s+)?(?:peak|roof)\w*)?"
                                     r"(?:[^.;]|\.(?=\d)){0,40}$"
                                     r"|\b(?:target|goal|would (?:need|mean|take|require)|needs?|to (?:hit|reach|get to))\b[^.;]{0,50}$")
# What a token rate past its weights' floor was measured with ("impossible at bf16: the weights must be int8").
_MEASURED_OF_MORE = re.compile(r"\b(?:batch\w*|quanti[sz]\w*|int[48]|fp8|fp4|nf4|gptq|awq|speculative|draft model|moe"
                               r"|mixture|sparsity|experts?)\b")


# A headroom bound (1 ÷ the roof share) said of a lever that changes the work or the bytes ("1.18× is the most compile
# or anything else can ever buy", "no fused version can beat eager by more than 1.18×").
_BOUND_WORDS = re.compile(r"\b(?:most|at best|more than|beyond|cap\w*|ceiling|max(?:imum)?|ever|can'?t|cannot|no more)\b")
_ANY_LEVER = re.compile(r"\b(?:compil\w*|fus\w*|anything(?: else)?|any (?:version|kernel|fix|lever|rewrite|change)"
                        r"|no (?:\w+ )?(?:version|kernel|rewrite|fix)|every (?:version|kernel|fix))\b")
# The bound said of the kernels as they are ("without fusion, ceiling 1.18×"): right.
_SAME_BYTES = re.compile(r"\b(?:without|before|short of|unfused|eager (?:alone|as it is)|same (?:kernels|bytes|traffic|code)"
                         r"|as (?:it|they) (?:is|are|stand))\b")


def _headroom_bounds_another_lever(text: str, lowered: str, facts: claims.Facts) -> str:
    """A roof's headroom said to bound every lever, where one that changes the bytes was measured past it, or ""."""
    share = next((f for f in facts.deciding if f.dim is Dim.FRACTION and f.roof and not f.hypothetical
                  and 0 < f.value < 1), None)
    if share is None:
        return ""
    bound = 1 / share.value
    measured = [c.value for c in facts.known if c.multiplier and c.speed and c.value > bound * 1.5]
    if not measured:
        return ""
    for said in SENTENCE.split(lowered):
        figures = claims.read(said).claims
        headroom = [c for c in figures if abs(c.value - bound) <= 0.02 * bound]
        if (headroom and _ANY_LEVER.search(said) and _BOUND_WORDS.search(said) and not _SAME_BYTES.search(said)
                and not any(abs(c.value - m) <= 0.05 * m for c in figures for m in measured)):
            return (f"“{_as_written(text, said.strip(' .;!?'))}”: 1 ÷ {share.shown()} = {bound:.2f}× bounds a kernel that moves"
                    f" the same bytes; fusion and compile delete bytes, and this one was measured"
                    f" {claims.show(measured[0], Dim.COUNT)}× faster.")
    return ""


# A rate called the card's peak ("1.7 TB/s is the peak of the card"; "the peak is 1.7 TB/s").
_PEAK_AFTER = re.compile(r"\s*(?:is|=|was|being)\s+(?:the\s+|its\s+|our\s+)?(?:card'?s\s+|gpu'?s\s+)?(?:peak|rated|max\w*|roof)\b")
_PEAK_BEFORE = re.compile(r"\b(?:peak|rated|max(?:imum)?)(?:\s+[\w']+){0,3}?\s+(?:is|=|of)\s*(?:~\s?|about\s+)?$")
_RATES = (Dim.BYTE_RATE, Dim.FLOP_RATE)


def _achieved_called_the_peak(lowered: str, facts: claims.Facts) -> str:
    """An achieved rate of the incident's called its card's peak, where the incident gives a higher one, or "".

    ``lowered`` is the line as ``with_units`` reads it (its rates' units read).
    """
    for claim in claims.read(lowered).claims:
        if claim.dim not in _RATES or not (_PEAK_AFTER.match(lowered, claim.end) or _PEAK_BEFORE.search(
                lowered, max(0, claim.start - 40), claim.start)):
            continue
        said = [k for k in facts.known if k.dim is claim.dim and claims.same(claim, k)]
        higher = [k for k in facts.known if k.dim is claim.dim and k.value > claim.value * (1 + claims.MATCH)]
        if said and higher:
            return (f"{claim.shown()} is what the incident measures; the card's peak is"
                    f" {max(higher, key=lambda k: k.value).shown()}.")
    return ""


# Rule 3, the shrink test: time that falls with the tensor is work on a roof; time that barely moves is not yet.
_SHRUNK = re.compile(r"\b(?:shr[iu]nk\w*|smaller|quarter(?:ed|ing)? the (?:tensor|size|input))\b")
_FALLS_WITH_IT = re.compile(r"\b(?:drops?|dropp\w+|falls?|fell|goes down|went down|comes? down|shrinks?|shrank|is cut|gets cut)"
                            r"\s+(?:by\s+)?(?:~\s?|about\s+|roughly\s+|around\s+|nearly\s+)?4\s?(?:×|x\b|times\b|-?fold)"
                            r"|\b(?:scales?|drops?|falls?) (?:with it|with the size|in proportion|proportionally|linearly)\b"
                            r"|\bto (?:a|one) quarter\b")
_BARELY_MOVES = re.compile(r"\b(?:barely|hardly|scarcely) (?:changes?|moves?|budges?|drops?|falls?)\b|\b(?:doesn'?t|does not|won'?t)"
                           r" (?:change|move|budge|drop)\b|\b(?:stays?|remains?) (?:the same|flat|put|about the same)\b")


def _shrink_test_backwards(text: str, lowered: str) -> str:
    """Rule 3 read the other way round ("shrink it 4× and the time drops 4×: launch overhead"), or ""."""
    for said in SENTENCE.split(lowered):
        shrunk = _SHRUNK.search(said)
        if shrunk is None or _WHAT_IF_NOT.search(said):
            continue
        after = said[shrunk.end():]
        falls, barely = _FALLS_WITH_IT.search(after), _BARELY_MOVES.search(after)
        change = falls or barely
        if change is None or negated(after, change.start(), change.end()):
            continue
        concluded = regime_named(after[change.end():])
        if falls and not barely and concluded == "overhead":
            return (f"“{_as_written(text, said.strip(' .;!?'))}”: Rule 3 reads the other way: a time that falls with the tensor"
                    " is work on a roof (memory or compute); a time that barely moves is overhead.")
        if barely and not falls and concluded in ("memory", "compute"):
            return (f"“{_as_written(text, said.strip(' .;!?'))}”: Rule 3 reads the other way: a time that barely moves when the"
                    " tensor shrinks is not yet memory- or compute-bound; it is overhead.")
    return ""


# ("if it were memory-bound, shrinking 4× would cut the time 4×": the rule stated, not applied)
_WHAT_IF_NOT = re.compile(r"\b(?:if|were|had|would|wouldn'?t|should|expect\w*)\b")


def _said_against_the_incident(text: str, lowered: str, facts: claims.Facts, regime: str | None = None) -> str:
    """What a line says that the incident itself contradicts, beyond its numbers, or ""."""
    # Fusion or compile named in an evidence line: what it is said to do there is checked as Part C checks it.
    misread = fusion_misstated(lowered) if claims.COMPILE_NAMED.search(lowered) else None
    if misread:
        return (f"“{_as_written(text, misread.group())}”: fusion and compile delete round trips through memory and"
                f" launches; they leave {fusion_leaves(misread)}.")
    if said := compile_said_wrong(facts, text, lowered):  # "compiled 11 µs, so compile made it 8% slower"
        return said
    if bound := _headroom_bounds_another_lever(text, lowered, facts):
        return bound
    if backwards := _shrink_test_backwards(text, lowered):
        return backwards
    if peak := _achieved_called_the_peak(with_units(text), facts):
        return peak
    if target := claims.target_past_the_roof_said_reached(facts, lowered):
        return cap(target) + "."
    occupancy = _OCCUPANCY_AS_ROOF.search(lowered) or _OCCUPANCY_AS_THE_LIMIT.search(lowered)
    if occupancy and not negated(lowered, occupancy.start(), occupancy.end()) and not re.search(
            r"\b(?:not|no|never|isn'?t|nothing|enough|sufficient|suffices?)\b", occupancy.group()):
        # ("55 % occupancy is already enough to saturate HBM": occupancy said not to limit, not called a roof)
        return (f"“{_as_written(text, occupancy.group())}”: occupancy counts the warps resident on an SM; it measures no"
                " share of bandwidth or of peak FLOP/s, and decides no regime (Rule 4).")
    # The regime said to be undecidable where the incident's symptoms decide it ("without a profiler we cannot say").
    undecided = _UNDECIDABLE.search(lowered) if regime is not None else None
    if undecided and not re.search(r"\b(?:not|never|no longer)\s+$", lowered[max(0, undecided.start() - 12):undecided.start()]):
        return (f"“{_as_written(text, undecided.group())}”: the symptoms decide this one ({advice(regime).name});"
                " say which of them does.")
    denied = None if facts.anomalous and not facts.measured_real else _MEASURE_DENIED.search(lowered)
    if denied and not negated(lowered, denied.start(), denied.end()) and not (
            facts.measured_real and _MEASURED_OF_MORE.search(lowered)) and not _A_TARGET_PAST_THE_ROOF.search(
                lowered, max(0, denied.start() - 60), denied.start()):
        if facts.measured_real:
            return (f"“{_as_written(text, denied.group())}”: a token rate past its weights' floor is a real measurement"
                    " of more than the incident says (batching, quantised weights, speculative decoding); read the"
                    " regime from it, do not discard it.")
        return (f"“{_as_written(text, denied.group())}”: nothing in this incident is beyond its card's roofs; its"
                " measurements are the facts to read the regime from.")
    roof_share = next((f for f in facts.deciding if f.dim is Dim.FRACTION and f.roof and not f.hypothetical), None)
    spent = _NOTHING_LEFT.search(lowered) if roof_share is not None and roof_share.value < _NEARLY_ALL else None
    if spent and roof_share is not None and not negated(lowered, spent.start(), spent.end()) and not _IF_BEFORE.search(
            lowered, max(0, spent.start() - 40), spent.start()):
        return (f"“{_as_written(text, spent.group())}”: the incident measures {roof_share.shown()}, so"
                f" {claims.show(1 - roof_share.value, Dim.FRACTION)} of the roof is left, not nothing.")
    beats = _BEATS_ITS_ROOF.search(lowered) if facts.anomalous else None
    if beats and not negated(lowered, beats.start(), beats.end()):
        return (f"“{_as_written(text, beats.group())}”: no card moves bytes faster than its rated bandwidth; a rate past"
                " what it allows means the measurement includes more than the incident says (batching, quantised"
                " weights).")
    under = _UNDER_ITS_ROOF.search(lowered) if facts.anomalous else None
    if under and not negated(lowered, under.start(), under.end()) and not _IF_BEFORE.search(
            lowered, max(0, under.start() - 40), under.start()):
        return (f"“{_as_written(text, under.group())}”: the measured rate is already past what this card's roof"
                " allows, so no room is left under it; the measurement must include more than the incident says"
                " (batching, quantised weights).")
    return ""


# The roof said to be all spent ("flat out, nothing left on the table"), where the incident measures a share under it.
_NOTHING_LEFT = re.compile(r"(?:\b(?:nothing|zero|no)\s+(?:more\s+)?(?:left|room|headroom|spare|slack)(?:\s+(?:left|on the"
                           r" table))?\b|\b(?:no|zero)\s+(?:bandwidth|compute|flops)\s+(?:left|to spare)\b)"
                           # "nothing left for faster math to win" says what a lever cannot buy, not that the roof is spent
                           r"(?!\s+(?:left\s+|on the table\s+)?(?:for|to|that|which)\b)")
_NEARLY_ALL = 0.9  # a share of the roof under this leaves something to say


# A rate said in words to sit under a roof, or to have room left under it, where the incident measures it past the roof
# ("38 tok/s is far below what bandwidth allows, leaving large headroom").
_UNDER_ITS_ROOF = re.compile(r"\b(?:(?:well|far|way|much)\s+)?(?:below|under|short of|less than|slower than)\s+what\s+"
                             r"(?:the\s+)?(?:[\w-]+\s+)?(?:bandwidth|hbm|memory|card|roof|hardware)\s+(?:allows|permits"
                             r"|can (?:give|do|deliver|sustain))"
                             r"|\b(?:large|lots of|plenty of|big|huge|significant|ample|much)\s+headroom\b"
                             r"|\bheadroom\s+(?:left|remains|remaining|to spare)\b|\broom to (?:grow|spare|double|improve)\b")
# The card said to outrun its own roof ("the L4 must be delivering 532 GB/s: it's beating its rated bandwidth").
_BEATS_ITS_ROOF = re.compile(r"\b(?:beat\w*|exceed\w*|outrun\w*|outperform\w*|surpass\w*|going past|goes past|faster than)"
                             r"\s+(?:its|the|their|her|his)\s+(?:own\s+)?(?:rated|peak|datasheet|spec\w*|nominal|theoretical"
                             r"|advertised)\s+(?:memory\s+)?(?:bandwidth|bw|speed|limit|roof)\b")
_IF_BEFORE = re.compile(r"\b(?:if|would|could|were|unless)\b[^.;:!?]*$")


def _states(words: str, phrase: str) -> bool:
    """Whether a line says a fact the incident states, not set aside ("that's the bottleneck, not HBM")."""
    at = words.find(phrase)
    while at >= 0:
        if not _SET_ASIDE_BEFORE.search(words, max(0, at - 40), at):
            return True
        at = words.find(phrase, at + 1)
    return False


# "not HBM", "but not from a host sync": a fact set aside, a few words after its "not" (not "not far from").
_SET_ASIDE_BEFORE = re.compile(r"\b(?:not|nor|rather than|instead of)\s+(?!far\b|just\b|only\b|merely\b|always\b)"
                               r"(?:[\w()'-]+\s+){0,3}$")


def evidence_check(facts: claims.Facts, phrases_stated: Collection[str], regime: str | None, text: str,
                   contradictions: Collection[Stated] = (), *, statements: Statements | None = None) -> Check:
    """An evidence line judged claim by claim.

    It passes only when it cites a deciding fact, every claim in it is accounted for and none contradicts the
    incident; a claim that could not be checked makes it "could not tell", named. Calling a measurement impossible
    is wrong unless the incident is anomalous (``facts.anomalous``: a figure beyond its card's roof) with a figure
    that may be in error (not ``facts.measured_real``).
    """
    if not text.strip():
        return Check(False, "Write the evidence: a number or a fact from the incident that decides the regime.")
    lowered = with_units(text)
    judged = claims.judge(facts, claims.read(lowered), plain_numbers(lowered))
    marks = judged.marks
    if judged.wrong:
        return Check(False, cap(judged.wrong) + ".", marks)
    words = normalise(text)
    against = (contradicted(lowered, contradictions) or _regime_said_against(text, regime)
               or blamed_against(text, words, regime) or _said_against_the_incident(text, words, facts, regime)
               or cap_line(claims.kernel_what_if_wrong(facts, lowered)))
    if against:
        return Check(False, against, marks)
    unchecked = judged.unchecked
    cites = judged.cites or any(_states(words, f) for f in phrases_stated)
    unread = [] if statements is None else [claims.Mark(lowered[a:b], None, "")
                                            for a, b in statements.unread(lowered, regime, facts.side, regime_named)]
    if cites and (unchecked or unread):
        checked = [m for m in marks if m.ok]
        said = claims_said([*checked, *unchecked, *unread], text)
        return Check(None, f"{UNSURE}: {said}; compare it with the worked answer.", marks)
    if judged.cites:
        deciding = [m for m in marks if m.ok and m.why == "decides the regime"] or [m for m in marks if m.ok]
        quoted = ", ".join(dict.fromkeys(f"“{_as_written(text, m.written)}”" for m in deciding[:4]))
        rest = len(marks) - len(deciding)
        others = ("" if not rest else "; the other figure in it checks out" if rest == 1 else
                  f"; the other {counted(rest, 'figure')} in it check out")
        return Check(True, f"Your evidence cites a number that decides the regime ({quoted}){others}.", marks)
    if cites:
        return Check(True, "Your evidence cites what the incident states.", marks)
    if "occupancy" in words and _SET_ASIDE.search(words):
        return unsure("the line sets occupancy aside, rightly, but names no figure that decides the regime")
    if "occupancy" in words:
        return Check(False, "Occupancy is not a regime (Rule 4): cite what the incident measured against a peak.", marks)
    if _GPU_UTIL.search(words) and regime in ("compute", "memory"):
        return Check(False, "GPU utilisation is the share of time some kernel runs, not a share of either peak:"
                            " cite what the incident measured against a peak.", marks)
    if judged.unplaced:
        return unsure(f"{', '.join(judged.unplaced[:3])} is not among this incident's figures, nor derived from them")
    if marks and all(m.ok for m in marks):  # "180 ms down to 80 ms": the incident's own, but not what decides
        return Check(None, f"{UNSURE}: {claims_said(marks, text)}, but none of them decides the regime; compare it with"
                           " the worked answer.", marks)
    return unsure("the evidence names no number or fact this incident gives")


# Timing again with a synchronize (or CUDA events): the lever a figure beyond the roof calls for first.
_RETIME_SYNC = re.compile(r"synchroni|cuda events?|cuda\.event|elapsed_time")
_RETIME = re.compile(r"\b(?:re-?tim\w*|time (?:it|the \w+ )?again|timing|timer|measure\w*|benchmark\w*|profil\w*)")


def _helps(verdict: Verdict, kind: str, text: str, refused_fix: Collection[str], reached: float | None = None) -> Check:
    if not text.strip():
        return Check(False, "Name a lever that helps.")
    line = read_levers(text)
    if verdict.anomalies and _RETIME_SYNC.search(normalise(text)) and _RETIME.search(normalise(text)):
        return Check(True, "Re-timing with a synchronize: a figure beyond the roof is checked before anything is"
                           " fixed.")
    if line.added and not line.offered and line.to_host:
        return Check(False, f"“{_as_written(text, line.to_host)}” puts a host sync in: the host must copy the GPU's"
                            " data back before it can work on it, so the CPU waits on the GPU every step. Keep the"
                            " work on the GPU.")
    if line.added:  # whatever else the line offers, the sync it puts in makes the CPU wait on the GPU
        return Check(False, f"That puts the problem in: a sync makes the CPU wait on the GPU every step, and"
                            f" {phrases(list(line.added))} is the cure.")
    if not line.offered:
        return unsure("the grader could not read a lever you offer here")
    cut = flops_cut(normalise(text)) if all(by_id(i).keeps_flops for i in line.offered) else None
    if cut:  # "chunked prefill cuts the FLOPs 4×": what the lever is said to do, it does not
        return Check(False, f"“{_as_written(text, cut.group())}”: {phrases(list(line.offered))} leaves the FLOP count"
                            " as it is; it changes how the work is done, not how much of it there is.")
    refused = {*recognise(verdict.waste), *refused_fix}
    helpful = [i for i in line.offered if helps_here(i, kind)]
    # "a better-tuned kernel" beside faster math, for a kernel on the compute roof: tuning it is a way to the roof
    tuned = kind == "compute" and bool(helpful) and "micro_optimise" not in refused
    wrong = [i for i in line.offered if not helps_here(i, kind) and (i in refused or not by_id(i).fits)
             and not (tuned and i == "micro_optimise")]
    if tuned and "micro_optimise" in line.offered and not wrong:
        helpful.append("micro_optimise")
    if wrong:
        return Check(False, f"{cap(phrases(wrong))} cannot move this kernel: look at what sets its time.")
    doubtful = [i for i in helpful if by_id(i).doubt(verdict.kind)]
    if doubtful:
        sure = [i for i in helpful if i not in doubtful]
        why = by_id(doubtful[0]).doubt(verdict.kind)
        if sure:
            return unsure(f"{phrases(sure)} fits this kernel; {phrases(doubtful)} may not: {why}")
        return unsure(f"{phrases(doubtful)} fits {a_kernel(verdict.regime or kind)} in general, but {why}")
    if helpful and len(helpful) == len(line.offered) and all(by_id(i).on_its_roof for i in helpful) and (
            reached is not None and NEAR_ITS_ROOF <= reached <= 1):
        # better loads for a chain already at 85% of peak bandwidth: 1.18× at most, where the drill's lever is
        # the one that changes the work or the bytes (A2: fusion, 3.8×)
        return Check(False, f"{cap(phrases(helpful))} {'move' if len(helpful) > 1 else 'moves'} little here: the"
                            f" kernel already runs at {_share_of_its_roof(reached, verdict)}, so"
                            f" {'they' if len(helpful) > 1 else 'it'} can give {1 / reached:.2f}× at most.")
    if helpful and len(helpful) == len(line.offered):
        return Check(True, f"{cap(phrases(helpful))}: fits this kernel.")
    if helpful:
        others = [i for i in line.offered if i not in helpful]
        # Faster math offered beside a lever that fits, where the math does not set the time: a claim checked false.
        # Other levers of another regime beside one that fits are often a word read as a lever ("read back in a
        # batch"): not checked.
        if verdict.regime is not None and all(by_id(i).fits == ("compute",) for i in others):
            verb = "fit" if len(helpful) > 1 else "fits"
            return Check(False, f"{cap(phrases(helpful))} {verb}, but {phrases(others)} cannot move this kernel: the"
                                " math does not set its time.")
        return unsure(f"{phrases(helpful)} fits, but the grader could not tell what {phrases(others)} would do here")
    return Check(False, f"{cap(phrases(list(line.offered)))} does not help this kernel: look at what sets its time.")


_FUSION_LEVERS = ("fusion", "compile")


#: A kernel at this share of the roof that sets its time, or nearer, has little left for a lever that only brings it
#: nearer that roof (at 85% of peak bandwidth, better loads can give 1.18× at most): refusing such a lever is right.
NEAR_ITS_ROOF = 0.8


def _share_of_its_roof(share: float, verdict: Verdict) -> str:
    return f"{share:.0%} of {'peak bandwidth' if verdict.regime == 'memory' else 'peak FLOP/s'}"


def roof_share(symptoms: Symptoms, regime: str | None) -> float | None:
    """The share of the roof that sets the time (peak FLOP/s for compute, bandwidth for memory) the kernel reaches."""
    reached = achieved(symptoms)
    return {"compute": reached.flops_fraction, "memory": reached.bandwidth_fraction}.get(regime or "")


def _wastes(verdict: Verdict, kind: str, text: str, measured_fusion: float | None = None,
            reached: float | None = None) -> Check:
    if not text.strip():
        return Check(False, "Name the lever that wastes the week.")
    line = read_levers(text)
    # The levers offered are the ones refused; those denied beside them explain why ("KV paging: it doesn't cut FLOPs").
    named = list(line.offered) or list(line.denied)
    if not named:
        return unsure("the grader could not read the lever you refuse here")
    measured = [i for i in named if i in _FUSION_LEVERS and measured_fusion is not None
                and measured_fusion <= FUSION_BOUGHT_NOTHING]
    if measured and len(measured) == len(named):
        return Check(True, f"{cap(phrases(measured))}: rightly refused, since it was measured and bought only"
                           f" {measured_fusion:g}×.")
    # "tuning memory coalescing: the bandwidth is already at 85%": a lever that only brings the kernel nearer the roof
    # it is already near has little left to give (the drill's A2: "achieved GB/s near peak"), so refusing it is right
    near = reached is not None and NEAR_ITS_ROOF <= reached <= 1
    nearing = [i for i in named if near and helps_here(i, kind) and by_id(i).on_its_roof and i not in measured]
    helping = [i for i in named if helps_here(i, kind) and i not in measured and i not in nearing]
    if nearing and not helping and reached is not None:
        return Check(True, f"{cap(phrases(named))}: rightly refused: the kernel already runs at"
                           f" {_share_of_its_roof(reached, verdict)}, so {phrases(nearing)}"
                           f" can give {1 / reached:.2f}× at most.")
    doubtful = [i for i in helping if by_id(i).doubt(verdict.kind)]
    if doubtful:
        return unsure(f"{phrases(doubtful)} would help {a_kernel(verdict.regime or kind)} in general, but"
                      f" {by_id(doubtful[0]).doubt(verdict.kind)}")
    bound = _SMALL_BOUND.search(normalise(text)) if helping else None
    if len(helping) == len(named) and bound:
        # "per-kernel bandwidth tuning, bounded by ≤ 2.0/1.7 ≈ 1.18": refused for how little it can give (its
        # number is checked with the line's others)
        return unsure(f"{phrases(helping)} would help this kernel, but you bound what {'they' if len(helping) > 1 else 'it'}"
                      f" can give (“{_as_written(text, bound.group())}”); the waste the drill means is what cannot move"
                      " it at all")
    already = _ALREADY_ON_TENSOR_CORES.search(normalise(text)) if verdict.regime == "compute" else None
    if already and helping and set(helping) <= _WRITING_A_KERNEL and len(helping) == len(named):
        # the drill's own waste for a GEMM on the tensor cores: a kernel written anew for what is already there
        return Check(True, f"{cap(phrases(helping))}: rightly refused (“{_as_written(text, already.group())}”): the"
                           " library's kernel is already on the tensor cores, and a kernel written anew leaves the math"
                           " as it is.")
    relu = _SEPARATE_RELU.search(normalise(text)) if verdict.regime == "compute" else None
    if relu and helping and set(helping) <= _WRITING_A_KERNEL and len(helping) == len(named):
        return Check(True, f"{cap(phrases(helping))}: rightly refused (“{_as_written(text, relu.group())}”): the relu is"
                           " a sliver of the matmul's bytes and none of its math.")
    anew = _WRITTEN_ANEW.search(normalise(text)) if verdict.regime == "compute" else None
    if anew and helping and set(helping) <= _WRITING_A_KERNEL and len(helping) == len(named) and reached is not None:
        # a week on a kernel written anew may be the waste; without a reason (the library's already on the tensor
        # cores) it may also be the help that is left: at most 1 ÷ the share reached
        return unsure(f"a kernel written anew (“{_as_written(text, anew.group())}”) can give this kernel at most"
                      f" {1 / reached:.2f}× (it runs at {_share_of_its_roof(reached, verdict)}); say why that is not"
                      " worth the week (the library's kernel is already on the tensor cores)")
    little = _LITTLE_TO_ACT_ON.search(normalise(text)) if helping else None
    if len(helping) == len(named) and little:
        # "KV paging. At batch 1 and context 512 there's nothing to page": refused for a size of this kernel's that
        # the incident does not give, so the grader cannot check it
        return unsure(f"{phrases(helping)} would help {a_kernel(verdict.regime or kind)} in general; you refuse it"
                      f" because “{_as_written(text, little.group())}”, which this incident's figures do not say")
    if len(helping) == len(named):
        return Check(False, f"{cap(phrases(helping))} would actually help this kernel: the waste"
                            " is what cannot move it.")
    if bound:  # "math tweaks; bandwidth tuning caps at 1.18×": the refusal is right, the fitting lever bounded
        refused = [i for i in named if i not in helping]
        return Check(True, f"{cap(phrases(refused))}: rightly refused for this kernel; {phrases(helping)} would help,"
                           f" as little as you bound it (“{_as_written(text, bound.group())}”).")
    if helping:
        return unsure(f"you refuse {phrases(named)}, and {phrases(helping)} would help here")
    return Check(True, f"{cap(phrases(named))}: rightly refused for this kernel.")


_WRITING_A_KERNEL = frozenset({"rewrite_kernel", "faster_mma"})
# What a lever is refused for having little to act on here ("nothing to page", "the KV cache is tiny").
_LITTLE_TO_ACT_ON = re.compile(r"\bnothing (?:to|worth) (?:page|paging|fuse|fusing|cut|save|quanti[sz]e|compress|shrink)\b"
                               r"|\b(?:kv[- ]?cache|cache)\s+(?:is|'s)\s+(?:only\s+|just\s+|so\s+)?(?:tiny|small|negligible"
                               r"|a sliver)\b")
# A kernel said to be on the tensor cores already ("cuBLAS is already on the tensor cores").
_ALREADY_ON_TENSOR_CORES = re.compile(r"\balready\s+(?:on|uses?|using|runs?\s+on|running\s+on|in)\s+(?:the\s+)?tensor[- ]?cores?"
                                      r"|\bcublas(?:lt)?\s+(?:is\s+)?already(?:\s+(?:on|uses?|using)\s+(?:the\s+)?tensor[- ]?cores?)?\b"
                                      r"|\balready\s+(?:a\s+)?cublas\b"
                                      # "the library already is at 70%", "to beat cuBLAS": the library's kernel
                                      r"|\b(?:the\s+)?library\s+(?:\w+\s+){0,2}already\b|\bbeat(?:s|ing)?\s+cublas\b")
# A kernel of its own for the relu beside the matmul: a sliver of its bytes and none of its math.
_SEPARATE_RELU = re.compile(r"\b(?:separate|standalone|stand-alone)\s+(?:[\w-]+\s+){0,3}?relu\s+kernel\b"
                            r"|\brelu\s+kernel\s+(?:by itself|on its own|alone|separately)\b")
# A kernel written anew, no reason given: "from scratch", "raw CUDA", "our own GEMM", "the matmul itself".
_WRITTEN_ANEW = re.compile(r"\bfrom (?:scratch|zero)\b|\braw cuda\b|\bhand-?(?:rolled|written|writing|write)\b"
                           r"|\b(?:our|your|my|their) own\s+(?:[\w-]+\s+)?(?:gemm|matmul|kernel)\b"
                           r"|\b(?:the\s+)?(?:matmul|gemm)\s+itself\b")
# A bound on what a lever can give, small enough to refuse it for ("caps out at 2.0/1.7 ≈ 1.18×", "≤ 1.18").
_SMALL_BOUND = re.compile(r"(?:\b(?:at most|at best|best case|bounded by|capped at|caps? (?:out )?at|tops? out at"
                          r"|no more than|only)|≤|<=)\s*(?:[^.;]|\.(?=\d)){0,24}?"
                          r"\b1\.[0-2]\d?\s*(?:×|x\b|times\b)?")


# A lever line that promises another incident's result here ("expect the same 3.8× here", "about 3.8× again").
_DENIED_FIGURE = re.compile(r"\b(?:not|never|rather than|instead of|nowhere near|far from)\s+(?:the\s+|a\s+|~\s?|about\s+)?$")
_EXPECTED = re.compile(r"\b(?:expect\w*|same|again|similar|likewise|too|recover\w*|reclaim\w*|get back|match\w*"
                       r"|(?:should|will|would|could|can) (?:give|get|buy|bring|win)"
                       r"|like (?:in )?a\d|as (?:in|with|for) a\d|from before|that'?s the)\b")


# What fusion or compile is said to do against what it does: make the work slower, or leave the launches as they were.
_SLOWER = re.compile(r"\b(?:compil\w*|fus\w*|inductor)\b(?:\s+[\w'-]+){0,4}?\s+(?:(?:mak(?:es?|ing)|made) (?:it|things|them"
                     r"|the \w+)(?: [\d.]+\s?(?:%|×|x))? slower|slows? (?:it|things|them) down|(?:is|runs|was|ran|gets?)"
                     r" (?:[\d.]+\s?(?:%|×|x) )?slower)\b"
                     r"|\bslower than eager\b")
_NO_FEWER_LAUNCHES = re.compile(r"\b(?:won'?t|wont|doesn'?t|doesnt|does not|will not|can'?t|cant|cannot|never)"
                                r" (?:cut|reduce|remove|save|lower|change|drop)s? (?:any |the )?(?:kernel )?launch\w*")


def compile_said_wrong(facts: claims.Facts, text: str, lowered: str) -> str:
    """Why a line says fusion or compile does what it does not, or "".

    Slower where it was measured faster, or no fewer launches (a fused chain runs as fewer kernels).
    """
    if not claims.COMPILE_NAMED.search(lowered):
        return ""
    slower = _SLOWER.search(lowered)
    faster = next((f for f in facts.known if f.speed and f.value > 1), None)
    if slower and faster and not negated(lowered, slower.start(), slower.end()) and not NEGATION.search(slower.group()):
        return (f"“{_as_written(text, slower.group())}”: compile was measured {faster.shown()}× faster here, not"
                " slower.")
    none = _NO_FEWER_LAUNCHES.search(lowered)
    if none and not negated(lowered, none.start(), none.end()):
        return (f"“{_as_written(text, none.group())}”: a fused chain runs as fewer kernels, so fewer launches is part of"
                " what fusion and compile buy.")
    return ""


# A win said to be big, or to be another incident's again: "the big win again, as in A2", "the same as A2".
_BIG_WIN = re.compile(r"\b(?:big|bigger|huge|massive|major|large|dramatic|significant)\s(?:win|speed-?up|gain|improvement"
                      r"|boost|lever)\b|\b(?:the )?same (?:as|like) (?:in )?a\d\b|\b(?:as (?:in|with|for|on)|like(?: in)?) a\d\b")
_SMALL_SAID = re.compile(r"\b(?:little|small|smaller|marginal\w*|slight\w*|minor|modest|only|gone|barely|tiny|bit)\b")


def _small_win_said_big(facts: claims.Facts, text: str, lowered: str) -> str:
    """Compile or fusion offered for a big win, or another incident's, where it was measured near 1×, or "".

    A3's compile bought 1.08×: "torch.compile gives us the big win again, as in A2" promises what was measured not to
    be there; "fusion helps a little (fewer launches)" is the drill's own reading.
    """
    measured = next((f for f in facts.known if f.speed and f.value > 1), None)
    if measured is None or measured.value > 1.3 or not claims.COMPILE_NAMED.search(lowered):
        return ""
    words = normalise(text)
    big = _BIG_WIN.search(words) or next((m for m in _WIN_TIMES.finditer(words) if float(m[1]) >= _BIG_MULTIPLIER
                                          and not _SET_BESIDE.search(words, max(0, m.start() - 50), m.start())
                                          and not _DENIED_FIGURE.search(words, max(0, m.start() - 16), m.start())), None)
    if big is None or _SMALL_SAID.search(words) or negated(words, big.start(), big.end()) or NEGATION.search(words):
        return ""
    return (f"“{_as_written(text, big.group())}”: compile was measured only {measured.shown()}× faster here; the"
            " chain never moved much traffic, so there is no big win to repeat.")


# A multiplier a lever line promises ("3.8× for free", "~4× faster"), from this far up a big one; one set beside
# another incident or denied ("unlike A2's 3.8×", "not 3.8×": _SET_BESIDE, _DENIED_FIGURE) is no promise.
_WIN_TIMES = re.compile(r"(?<![\d.])~?\s?(\d+(?:\.\d+)?)\s?(?:×|x\b|times\b)")
_BIG_MULTIPLIER = 1.5


def lever_numbers(facts: claims.Facts, text: str, *, offered: bool) -> tuple[str, str]:
    """What a lever line's numbers come to: (why it is wrong, or ""; the numbers not checked, or "").

    A lever line says what the lever would do, so its numbers are what-ifs ("int4 halves the weights to 35 GB"):
    its written arithmetic is checked, and an offered lever that promises the result of the incident this one is
    set beside ("expect the same 3.8× here") is wrong; the rest are named as not checked, beside the lever's reading.
    """
    lowered = with_units(text)
    said = compile_said_wrong(facts, text, lowered)
    if said:
        return said, ""
    small_win = _small_win_said_big(facts, text, lowered) if offered else ""
    reading = claims.read(lowered)
    if not reading.claims:  # a promise in words ("tokens/s doubles exactly") is still one
        promised = claims.exact_win_wrong(facts, reading, lowered)
        return small_win or (cap(promised) + "." if promised else ""), ""
    # A time said to be reached by tuning on the same card is held to that card's roof, what-if or not.
    wrong = (claims.arithmetic_wrong(facts, reading) or claims.role_wrong(facts, reading, lowered)
             or claims.beyond_the_roof_wrong(lowered, reading.claims, facts)
             or claims.rate_past_its_roof(lowered, reading.claims, facts)  # "pushes it up to about 6.5 TB/s"
             or _format_speed_past_its_width(facts, reading, lowered)  # "int4 … so tokens come 4× faster"
             or _format_bytes_past_its_width(facts, reading, lowered)  # "int4: 70 GB → 17.5 GB" of int8 weights
             or claims.under_the_time_before_promised(facts, reading, lowered)  # "ITL comes back well under 8 ms"
             or (offered and _doubled_past_its_factor(facts, reading, text, lowered))  # "fp8 … TTFT drops to 80 ms"
             or claims.comparison_wrong(lowered, reading.claims, facts)  # "90 ms, which hits the 80 ms target"
             or claims.prompt_cut_wrong(facts, reading, lowered)  # "trim it to 3,500 tokens: TTFT ~80 ms"
             or claims.exact_win_wrong(facts, reading, lowered)  # "expect it to land exactly 4× faster"
             or claims.time_with_the_gaps_gone_wrong(facts, reading, lowered)  # "… down to 320 ms" of A6's gaps
             or (offered and _only_on_its_roof(text) and claims.past_its_roof_promised(facts, reading, lowered)))
    if wrong:
        return cap(wrong) + ".", ""
    judged = claims.judge(facts, reading, plain_numbers(lowered))
    # What the lever would do is a what-if: a number off the incident's figures is not held against the line, but a
    # pass needs it explained (a weight format's width, halving, nothing left) or it is named as not checked.
    open_claims = [c for c in judged.unconfirmed if not _lever_what_if(c, facts, lowered)]
    borrowed = next((c for c in reading.claims if any(claims.same(c, x, 0.02) for x in facts.context)
                     and not any(claims.same(c, k, 0.02) for k in facts.known)), None)
    if offered and borrowed is not None and _EXPECTED.search(normalise(text)) and not _DENIED_FIGURE.search(
            lowered, max(0, borrowed.start - 12), borrowed.start):  # "helps a little (1.08×), not 3.8×"
        return (f"“{_as_written(text, borrowed.written)}” is the other incident's result; this one's measurements say"
                " what the lever buys here."), ""
    if small_win:
        return small_win, ""
    return "", ", ".join(c.shown() for c in open_claims[:3])


# The words that say a lever doubles a peak or splits the work in two ("doubles the peak", "two H100s").
_TWICE = re.compile(r"\b(?:doubl\w*|twice|2\s?×|2x|two\s+(?:h100s?|gpus?|cards?)|2\s+(?:h100s?|gpus?|cards?)|halv\w*)")
_PRECISION_NAMED = re.compile(r"\b(?:fp[48]|int[48]|lower[- ]precision|quanti[sz]\w*)\b")
_GPUS_NAMED = re.compile(r"\b(?:gpus|h100s|cards|devices|nodes|tensor[- ]parallel\w*|tp)\b")
_TAKES_IT_TO = re.compile(r"(?:\b(?:drops?|falls?|gets?|comes? down|goes?|lands?|becomes?|brings? (?:it|ttft)|takes? (?:it|ttft))"
                          r"(?:\s+down)?\s+(?:to|at)|→|->|=|≈)\s*(?:about\s+|~\s?|≈\s?|roughly\s+)?$")


def _doubled_past_its_factor(facts: claims.Facts, reading: claims.Reading, text: str, lowered: str) -> str:
    """Why one lever that doubles the peak or halves the work is said to take the time below half of it, or "".

    "Switch to fp8 — doubles the peak, so TTFT drops to 80 ms on its own" of A5's 180 ms: at the same share of the
    new roof it is 90 ms; more than 2× needs more than the one lever.
    """
    offered = read_levers(text).offered
    if len(offered) != 1 or offered[0] not in claims.HALVING_LEVERS or not _TWICE.search(lowered) or (
            _PRECISION_NAMED.search(lowered) and _GPUS_NAMED.search(lowered)):
        return ""  # one lever only: "FP8 plus two GPUs" doubles twice
    times = [f.value for f in facts.known if f.dim is Dim.SECOND and not f.hypothetical]
    if not times:
        return ""
    measured = max(times)
    for claim in reading.claims:
        if (claim.dim is Dim.SECOND and not claim.bound and claim.value < measured / 2 * (1 - claims.MATCH)
                and _TAKES_IT_TO.search(lowered, max(0, claim.start - 30), claim.start)):
            return (f"one lever that doubles the rate takes {claims.show(measured, Dim.SECOND)} to"
                    f" {claims.show(measured / 2, Dim.SECOND)} at the same share of the roof, not"
                    f" {claim.shown()}: going further needs a second lever beside it")
    return ""


def _only_on_its_roof(text: str) -> bool:
    """Whether every lever a line offers only brings the kernel nearer its roof (better loads, tiling)."""
    offered = read_levers(text).offered
    return bool(offered) and all(by_id(i).on_its_roof for i in offered)


# A dtype named in a lever line ("int4 weights: 3.5 GB"), and the words that halve or double ("halve the prompt").
_DTYPE = re.compile(r"\b(fp32|fp16|bf16|fp8|int8|int4|nf4|w8|w4|[48][- ]?bit)\b")
_NOMINAL = {"int4": 0.5, "nf4": 0.5, "w4": 0.5, "4bit": 0.5, "4-bit": 0.5, "4 bit": 0.5, "w8": 1.0, "8bit": 1.0,
            "8-bit": 1.0, "8 bit": 1.0}  # widths as learners count them: 4 bits is half a byte
_HALVES = re.compile(r"\b(?:halv\w*|half|doubl\w*|twice|2 gpus|two gpus)\b|\b2\s?[×x]\s*faster\b")


def _bytes_per_value(facts: claims.Facts) -> set[float]:
    """The incident's bytes per weight: said ("2 B a parameter"), or its weights over its parameters (14 GB / 7e9)."""
    sizes = [f.value for f in facts.known if f.dim is Dim.BYTE]
    counts = [f.value for f in facts.known if f.dim is Dim.COUNT and f.value >= 1e6]
    # a count that is also a size or a FLOP count ("~1.4e10" of A4's 14 GB) is the parameter count only where no
    # other is (A8's 70B int8 model is 70 GB)
    counts = [n for n in counts if not any(math.isclose(n, g.value, rel_tol=0.01) for g in facts.known
                                           if g.dim in (Dim.BYTE, Dim.FLOP))] or counts
    return {w for w in (0.5, 1.0, 2.0, 4.0) if w in sizes or any(
        math.isclose(b / n, w, rel_tol=0.05) for b in sizes for n in counts)}


def _format_speed_past_its_width(facts: claims.Facts, reading: claims.Reading, lowered: str) -> str:
    """Why a narrower weight format is said to make a weight-streaming step faster than its bytes shrink, or "".

    "int4 quantisation halves the bytes, so tokens come 4× faster" of A8's int8 weights: half the bytes a value is at
    most 2× on the memory roof.
    """
    narrower = _narrower_formats(facts, lowered)
    if not narrower:
        return ""
    old, new, dtype = min(narrower, key=lambda n: n[1] / n[0])
    most = old / new
    for claim in reading.claims:
        if (claim.multiplier and claim.bound != "<" and claim.value > most * (1 + claims.MATCH)
                and claims.SPEED_UP_AFTER.match(lowered, claim.end)):
            return (f"{dtype} is {new:g} B a weight against the incident's {old:g} B: on the memory roof that is at"
                    f" most {most:g}× faster, not {claim.shown()}×")
    return ""


def _format_bytes_past_its_width(facts: claims.Facts, reading: claims.Reading, lowered: str) -> str:
    """Why the incident's bytes are said to shrink under a narrower weight format by more than its width, or "".

    "int4: 70 GB → 17.5 GB" of A8's int8 weights: half the bytes a value is half the bytes, 35 GB.
    """
    narrower = _narrower_formats(facts, lowered)
    if not narrower:
        return ""
    for before, after in reading.transitions:
        if before.dim is not Dim.BYTE or after.dim is not Dim.BYTE or after.value >= before.value or not any(
                claims.same(before, k) for k in facts.known):
            continue
        if any(math.isclose(after.value, before.value * new / old, rel_tol=claims.MATCH) for old, new, _ in narrower):
            continue
        old, new, dtype = narrower[0]
        return (f"{dtype} is {new:g} B a weight against the incident's {old:g} B: {before.shown()} →"
                f" {claims.show(before.value * new / old, Dim.BYTE)}, not {after.shown()}")
    return ""


def _narrower_formats(facts: claims.Facts, lowered: str) -> list[tuple[float, float, str]]:
    """Each weight format the line names that is narrower than the incident's: (its bytes a value, the format's, name)."""
    named = [(d, _NOMINAL.get(d, weight_format_bytes().get(d, 0.0))) for d in _DTYPE.findall(lowered)]
    return [(old, new, d) for old in _bytes_per_value(facts) for d, new in named if 0 < new < old]


def _lever_what_if(claim: claims.Claim, facts: claims.Facts, lowered: str) -> bool:
    """Whether a lever line's number is what its lever does to one of the incident's figures.

    A weight format named in the line scales the bytes by its width over the incident's bytes per value (bf16 → int4:
    14 GB → 3.5 GB), the time by the same and the rate by its inverse; halving or doubling scales by 2; nothing
    left ("to 0 µs") is the lever's limit.
    """
    if claim.value == 0:
        return True
    widths = weight_format_bytes()
    factors = [0.5, 2.0] if _HALVES.search(lowered) else []
    per_value = _bytes_per_value(facts)
    for dtype in _DTYPE.findall(lowered):
        nominal = _NOMINAL.get(dtype, widths.get(dtype, 1.0))
        factors += [nominal / old for old in per_value]
    # (the kernels' own total too: "halving the 2 µs kernels saves only 40 ms of 400")
    values = [f.value for f in facts.known if f.dim is claim.dim] + [
        d.value for d in facts.derived if d.dim is claim.dim and (d.role in (dv.FLOOR, dv.PER_ITEM) or (
            d.role == dv.TOTAL and d.span == "busy"))]
    for factor in factors:
        scale = 1 / factor if claim.dim is Dim.TOKEN_RATE else factor
        if any(math.isclose(claim.value, v * scale, rel_tol=claims.MATCH) for v in values):
            return True
    return False


def with_lever_numbers(checks: dict[str, Check], facts: claims.Facts, helps: str, wastes: str) -> dict[str, Check]:
    """The lever checks with each line's numbers read: one wrong fails the line, one not checked makes a pass unsure."""
    out = dict(checks)
    for field, text in (("helps", helps), ("wastes", wastes)):
        if field not in out or out[field].ok is False:
            continue
        wrong, unchecked = lever_numbers(facts, text, offered=field == "helps")
        wrong = wrong or cap_line(claims.kernel_what_if_wrong(facts, with_units(text)))
        if wrong:
            out[field] = Check(False, wrong)
        elif unchecked and out[field].ok:  # a pass means every claim was checked: the reading, beside what was not
            out[field] = unsure(f"{out[field].why.rstrip('.')}; not checked: {unchecked}")
    return out


# A regime called by name with "-bound" or "-limited" in a lever line's reason ("the matmul is memory-bound").
_CALLED_BOUND = re.compile(r"\b[\w/]+[- ](?:bound|limited)\b")
_DENIED_JUST_BEFORE = re.compile(r"\b(?:not|isn'?t|isnt|aren'?t|arent|wasn'?t|never|none of (?:it|them)|nor|neither|no"
                                 r" longer|ain'?t|aint|ent)\b(?:\s+[\w'-]+){0,3}?\s*(?:is\s+|are\s+)?$"
                                 # Trinidadian "eh" before what it denies ("prefill eh memory-bound")
                                 r"|\beh\s+$")
# ... said of a case, not of this kernel: "fusion helps memory-bound kernels", "only if it were compute-bound".
_CASE_BEFORE = re.compile(r"\b(?:when|whenever|if|unless|only|for|on|helps?|pays?|suits?|like|were|would be|as in|than)"
                          r"\b(?:\s+[\w-]+){0,3}\s*$")


def lever_reason_against(text: str, regime: str | None) -> str:
    """Why a lever line's reason names another regime for this kernel ("the matmul is memory-bound" of A1), or "".

    A regime said of a case ("fusion pays on memory-bound chains"), denied, or named beside this kernel's own is no
    reason given against it.
    """
    if regime is None or not text.strip():
        return ""
    lowered = normalise(text)
    called = []
    for found in _CALLED_BOUND.finditer(lowered):
        named = regime_named(found.group())
        if named is None or negated(lowered, found.start(), found.end()) or _DENIED_JUST_BEFORE.search(
                lowered, max(0, found.start() - 40), found.start()) or _CASE_BEFORE.search(
                lowered, max(0, found.start() - 40), found.start()) or _WHAT_IF.search(lowered, max(0, found.start() - 40),
                                                                                      found.start()):
            continue
        called.append((named, found.group()))
    if any(named == regime for named, _ in called):
        return ""
    if called:  # (a cause in words is the lever's own subject as often as its reason: "faster math" is the waste)
        return (f"“{_as_written(text, called[0][1])}”: this kernel is {advice(regime).name}, so the reason argues for"
                " another lever than the one it gives.")
    return _mechanism_misstated(text, lowered)


# What a lever is said to do, as its reason: move fewer bytes, or launch less.
_AS_ITS_REASON = r"\b(?:because|since|as|so|to|which|that|by)\b(?:\s+[\w'-]+){0,3}?\s+"
_CUTS_BYTES = re.compile(_AS_ITS_REASON + r"(?:cut\w*|reduc\w*|sav\w*|lower\w*|shrink\w*|delet\w*|remov\w*|halv\w*"
                         r"|less(?:en)?\w*)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:memory traffic|traffic|bytes"
                         r"|hbm (?:traffic|reads)|memory reads|round[- ]?trips)\b")
_CUTS_LAUNCHES = re.compile(_AS_ITS_REASON + r"(?:cut\w*|reduc\w*|sav\w*|remov\w*|eliminat\w*|delet\w*)\s+(?:the\s+)?"
                            r"(?:[\w-]+\s+){0,2}?(?:launch(?:es|ing)?|launch overhead|gaps)\b")


# Intensity said to fall: "halves intensity to ~8 FLOP/B", "lowers the arithmetic intensity", "intensity drops".
_INTENSITY_DOWN = re.compile(r"\b(?:halv\w*|lower\w*|reduc\w*|cut\w*|drop\w*|decreas\w*)\s+(?:the\s+|its\s+)?"
                             r"(?:arithmetic\s+)?intensity\b|\bintensity\s+(?:\w+\s+)?(?:halves|drops|falls|decreases"
                             r"|goes down|is halved|shrinks)\b")


def _mechanism_misstated(text: str, lowered: str) -> str:
    """A lever given a reason it does not have ("CUDA graphs, because they cut the memory traffic"), or "".

    Fusion or compile said to do what it does not ("by running the same passes at full bandwidth") is checked as an
    evidence line's claim of it is.
    """
    misread = fusion_misstated(lowered) if claims.COMPILE_NAMED.search(lowered) else None
    if misread:
        return (f"“{_as_written(text, misread.group())}”: fusion and compile delete round trips through memory and"
                f" launches; they leave {fusion_leaves(misread)}.")
    offered = read_levers(text).offered
    lowers = _INTENSITY_DOWN.search(lowered)
    if offered and lowers and not negated(lowered, lowers.start(), lowers.end()) and all(
            "memory" in by_id(i).fits and by_id(i).keeps_flops for i in offered):
        return (f"“{_as_written(text, lowers.group())}”: {phrases(list(offered))}"
                f" {'cut' if len(offered) > 1 else 'cuts'} the bytes for the same FLOPs, so"
                " the intensity (FLOPs ÷ bytes) goes up, not down.")
    if len(offered) != 1:
        return ""
    lever = by_id(offered[0])
    for said, regime, what in ((_CUTS_BYTES, "memory", "move fewer bytes"), (_CUTS_LAUNCHES, "overhead", "launch less")):
        found = said.search(lowered)
        if found and regime not in lever.fits and not negated(lowered, found.start(), found.end()) and not re.search(
                r"\b(?:not|n't|never|no)\b", found.group()):
            return (f"“{_as_written(text, found.group())}”: {lever.label} does not {what}; it helps"
                    f" {' and '.join(advice(r).name for r in lever.fits) or 'no regime'} kernels.")
    return ""


def lever_checks(verdict: Verdict, kind: str, helps: str, wastes: str,  # noqa: PLR0917
                 refused_fix: Collection[str] = (), measured_fusion: float | None = None,
                 reached: float | None = None) -> dict[str, Check]:
    """The two lever lines of an answer judged against ``kind`` (a regime, or ``host``).

    ``refused_fix`` holds the lever ids of a fix the drill's acceptance refuses for this incident (none
    for a generated one): offered as the help, it fails. ``measured_fusion`` is the speed-up fusion or compile
    was measured to buy: near 1, refusing it is right whatever the regime. ``reached`` is the share of its roof
    the kernel reaches (``roof_share``): near 1, refusing a lever that only brings it nearer the roof is right.
    """
    return {"helps": _helps(verdict, kind, helps, refused_fix, reached),
            "wastes": _wastes(verdict, kind, wastes, measured_fusion, reached)}
