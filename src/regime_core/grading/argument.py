"""Part C read clause by clause: which side of the ridge each clause puts fusion on, and whether it pays there.

The argument the drill asks for has two halves: fusion pays where bytes or launches set the time, and
it wastes the week where the math does. A paragraph is read as a list of :class:`Stance` s, one per
condition it states ("pays *when bytes set the time*", "career-limiting *when the math does*"), each with
its polarity (pays or not) and its side (memory/launch or compute). Both halves present, and none argued
the other way round, is the argument; one half is one-sided; fusion said to pay on the compute side is
the argument turned around, quoted back to the learner.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

_UNIT = re.compile(r"(?<=[.!?;])\s+|(?<!\s)\s+(?:but|whereas|however|while|yet)\s+|,\s+(?:but|whereas|while|yet|not|and|so)\s+")
# A condition: "when/where/if ...", "for/on/in <a kernel of a side>", or "above/below the ridge" itself.
_CONDITION = re.compile(r"(?=\b(?:above|below|under)\s+(?:the\s+(?:~?[\d.,]+\s*(?:flop/b\w*|flops?\s+per\s+byte)?\s+)?ridge|it)\b)|\b(?:when(?:ever)?|where|if|once|unless"
                        r"|(?:for|on|in)(?=\s+(?:an?\s+|the\s+|its\s+)?"
                        r"(?:[\w-]+\s+){0,2}?(?:a\d(?:s|\'s)?\b|compute|memory|launch|overhead|math|bandwidth|elementwise|matmul"
                        r"|gemm|kernels?\b|chains?\b|decode|prefill)))\b")
_MEMORY = re.compile(r"\b(?:memory|mem|bandwidth|bw|(?<!flop/)bytes?|(?<!flop/)b(?=/s)|traffic|launch\w*|overhead"
                     r"|round[- ]?trips?|hbm|dram|moving data|data movement|shuttl\w*|moving (?:it|things|tensors) around"
                     r"|loads? and stores?|(?:small|tiny) (?:jobs|kernels|steps)"
                     r"|(?:several|many|multiple|lots of|a string of|a chain of|chains of) (?:small |tiny |separate |pointwise "
                     r"|elementwise )?(?:kernels|ops|launches)"
                     r"|intermediates?|elementwise|pointwise|reads?|(?<!to )writes?(?!\s+(?:a|an|the|one|custom|your|that|this)\b)|host|tb/s|gb/s|a[234678](?:s|\'s)?)\b"
                     r"|(?:below|under) (?:the )?(?:~?[\d.,]+\s*(?:flop/b\w*|flops? per byte)?\s+)?(?:ridge|it)\b")
_COMPUTE = re.compile(r"\b(?:compute|flops?(?!/)|tflop\S*|tensor[- ](?:cores?|pipes?)|math|arithmetic|multipl\w*|gemm|matmul"
                      r"|a[15](?:s|\'s)?)\b"
                      r"|above (?:the )?(?:~?[\d.,]+\s*(?:flop/b\w*|flops? per byte)?\s+)?(?:ridge|it)\b|flop (?:roof|limit|ceiling)")
_NEVER = re.compile(r"\b(?:never|not|wasn'?t|isn'?t) (?:the |a )?(?:limit|bottleneck|problem|issue)\b"
                    # how fusion works, not that it failed: "the intermediates never touch HBM"
                    r"|\b(?:intermediates?|temporar\w*|activations?|values?|results?|data|tensors?|it|they)\s+never\s+"
                    r"(?:touch|hit|reach|go (?:to|back to|through)|leave|see|round[- ]trip|make it to|land in)\w*\b")
_AGAINST = re.compile(r"\b(?:wast\w*|career|pointless|useless|nothing|zero|wrong|lost|gone|harmful|hurts?|never|neither|nor"
                      r"|cannot|can'?t"
                      r"|mistakes?|costly"
                      r"|won'?t|doesn'?t|does not|don'?t|do not|didn'?t|ain'?t|isn'?t|aren'?t|wouldn'?t|shouldn'?t|not|no|none"
                      r"|week|rounding error)\b")
_FOR = re.compile(r"\b(?:right|correct|pays?|paid|worth|helps?|helped|good|wins?|won(?!['’]t)|faster|deletes?|removes?|saves?|cuts?"
                  r"|speeds?|lever|fix|should|compiled?|reduc\w*|accelerat\w*|improv\w*|boosts?|write|build)\b|^\W*fuse\b")
# Fusion named in the clause itself: a clause turned around is quoted only where it speaks of fusion.
_FUSION = re.compile(r"\bfus|compil|inductor|\bmerg|single kernel|one kernel|one pass|\bglue|(?<![-\w])fold(?:s|ed|ing)?\b"
                     r"|\bcollaps|\bpull\w*\s+(?:the\s+|its\s+)?(?:relu|bias|activation|epilogue|elementwise\w*)\s+in\b"
                     r"|\b(?:in|into|inside) (?:the )?same kernel\b")
# Little math is the memory side ("moves bytes for little math"); what a fused kernel removes that "is not the
# bottleneck" is fusion argued against.
_LOW_MATH = re.compile(r"\b(?:little|low|few|trivial|tiny|hardly any|almost no|no real|negligible) (?:math|flops?|compute"
                       r"|arithmetic)\b")
_MOOT = re.compile(r"\b(?:that|which) (?:are|is|were|was)(?:n'?t| not| never) (?:the |a )?(?:limit|bottleneck|problem)\b"
                   r"|\b(?:were|was|are|is) never (?:the |a )?(?:limit|bottleneck|problem|issue)\b"
                   r"|\b(?:that|which) (?:\w+ ){0,3}(?:were|was) never (?:waiting|the)\b"
                   r"|\b(?:was|were|is|are)(?:n'?t| not| never) (?:\w+ )?waiting (?:on|for)\b"
                   # "saves a few trips nobody was waiting on"
                   r"|\b(?:nobody|no one|no-one)\s+(?:was|were|is|'s)\s+(?:ever\s+)?(?:waiting|asking)\b"
                   # "saves a few MB of traffic for a kernel whose time is all math": saved where it does not count
                   r"|\bwhose (?:time|cost|runtime|bill) is (?:all|mostly|nearly all|almost all|pure) (?:math|maths|compute"
                   r"|arithmetic|flops)\b")
# "Worth a week" is the week well spent: not the wasted week that "week" alone says.
_WORTH = re.compile(r"\bworth (?:a|the|your|spending a) week\b")
_LIMITED = re.compile(r"\b(?:only|little|barely|slightly|at most|unless|except)\b")
_WORDS = 8  # words after a condition word that say its side
# A Part C paragraph argues a handful of conditions; past this many in one sentence (pasted noise), the rest are
# not read, so a paragraph of 10,000 characters takes milliseconds.
MAX_CONDITIONS = 200
_PART = re.compile(r"[,:;]\s")
# A view the paragraph reports in order to answer it ("it is tempting to read 70% as a shortfall fusion could
# recover", "people assume fusion cuts FLOPs"): not what the learner argues.
_REPORTED = re.compile(r"\b(?:tempting|one might|some (?:would|might|say)|you might (?:think|say)|it'?s easy to|naive(?:ly)?"
                       r"|(?:people|many|folks|juniors?|manage\w*) (?:often |usually )?(?:think|say|assume|believe)"
                       r"|common (?:mistake|misreading|trap)|the trap)\b")


@dataclass(frozen=True)
class Stance:
    """One condition of the argument: ``pays`` (True, False or None when not said), ``side`` and the clause."""

    pays: bool | None
    side: str  # "memory" (bytes or launches) or "compute"
    clause: str
    limited: bool = False


def _side(text: str) -> str | None:
    text = _NEVER.sub(" ", _LOW_MATH.sub(" bytes ", text))
    memory, compute = _MEMORY.search(text), _COMPUTE.search(text)
    if memory and compute:
        return "memory" if memory.start() < compute.start() else "compute"
    return "memory" if memory else "compute" if compute else None


def _polarity(text: str) -> bool | None:
    if _MOOT.search(text):
        return False
    text = _NEVER.sub(" ", _WORTH.sub(" worth ", text))
    if _AGAINST.search(text):
        return False
    return True if _FOR.search(text) else None


def _by_side_words(unit: str) -> list[Stance]:
    """A clause with no condition, read at each run of words of one side.

    The polarity is what is said between the last run and this one, else after it ("fusion helps memory-bound
    work and wastes a compute-bound week"; "a compute-bound matmul should not be touched").
    """
    text = _NEVER.sub(" ", _LOW_MATH.sub(lambda m: "bytes".ljust(len(m.group())), unit))
    words = sorted([(m.start(), m.end(), "memory") for m in itertools.islice(_MEMORY.finditer(text), MAX_CONDITIONS)]
                   + [(m.start(), m.end(), "compute") for m in itertools.islice(_COMPUTE.finditer(text), MAX_CONDITIONS)])
    runs: list[tuple[int, int, str]] = []
    for start, end, side in words:
        if runs and runs[-1][2] == side:
            runs[-1] = (runs[-1][0], end, side)
        else:
            runs.append((start, end, side))
    out: list[Stance] = []
    for n, (start, end, side) in enumerate(runs):
        # Only the words of this run's own part of the clause: "A2 won 3.8×, A1 would not move" gives A1 no win.
        before = _PART.split(text[runs[n - 1][1] if n else 0:start])[-1]
        after = _PART.split(text[end:runs[n + 1][0] if n + 1 < len(runs) else len(text)])[0]
        pays = _polarity(before)
        if pays is None:
            pays = _polarity(after)
        if pays is None:  # "fusing A1's relu would not change its FLOPs": said between the run's own words
            pays = _polarity(text[start:end])
        out.append(Stance(pays, side, unit.strip(), bool(_LIMITED.search(before))))
    return out


def stances(lowered: str) -> list[Stance]:
    """Every condition the paragraph (normalised) argues, with its polarity and side."""
    out: list[Stance] = []
    for unit in _UNIT.split(lowered.replace("**", "")):
        if _set_aside(unit):
            continue
        conditions = list(itertools.islice(_CONDITION.finditer(unit), MAX_CONDITIONS))
        if not conditions:
            out += _by_side_words(unit)
            continue
        previous = 0
        for n, found in enumerate(conditions):
            window = " ".join(unit[found.end():found.end() + 20 * _WORDS].split()[:_WORDS])
            side = _side(window)
            if side is None:
                continue
            before = unit[previous:found.start()]
            ends = conditions[n + 1].start() if n + 1 < len(conditions) else len(unit)
            pays = _polarity(before)
            if pays is None:
                pays = _polarity(unit[found.end():ends])
            if pays and _MOOT.search(unit, previous, ends):  # "… for a kernel whose time is all math": in vain
                pays = False
            out.append(Stance(pays, side, unit[previous:ends].strip(), bool(_LIMITED.search(before))))
            previous = found.end()
    # A condition whose own words say no polarity takes the next one's on its side ("where the hours go into
    # arithmetic, as in a 4096 matmul, fusion deletes none of it").
    for n in range(len(out) - 2, -1, -1):
        if out[n].pays is None and out[n + 1].pays is not None and out[n + 1].side == out[n].side:
            out[n] = Stance(out[n + 1].pays, out[n].side, out[n].clause, out[n].limited)
    return out


@dataclass(frozen=True)
class Argument:
    """What the paragraph argues: the turned-around clause (""), and which halves it makes."""

    turned: str
    pays_on_memory: bool
    wastes_on_compute: bool
    read: bool  # whether any clause's polarity and side were read
    asked: bool = False  # whether some sentence was set aside as a question or a view reported to be answered
    pays_clause: str = ""  # the first clause that has fusion pay where bytes or launches set the time
    wastes_clause: str = ""  # the first that has it waste the week where the math does


def _set_aside(unit: str) -> bool:
    """A question or a view reported to be answered: it argues no side the grader can read as said.

    A statement with a tag question ("fusion is always the career-limiting sentence, no?") is said, not asked.
    """
    asked = unit.rstrip().endswith("?") and not _TAG_QUESTION.search(unit)
    return asked or bool(_REPORTED.search(unit))


# A tag on a statement: "…, no?", "…, right?", "…, innit?", "…, isn't it?"
_TAG_QUESTION = re.compile(r",\s*(?:no|right|yes|eh|innit|yeah|isn'?t it|is it not|na|ne|non|ja|ok|okay|not so)\s*\?\s*$")


def read_argument(lowered: str) -> Argument:
    """The paragraph's argument, clause by clause."""
    found = stances(lowered)
    turned = next((s.clause for s in found if s.pays is True and s.side == "compute" and not s.limited
                   and _FUSION.search(s.clause)), "")
    # Quoted back as what the paragraph says of fusion: a clause that names it, and says it pays without "only".
    pays = next((s.clause for s in found if s.pays is True and s.side == "memory" and not s.limited
                 and not _LIMITED.search(s.clause) and _FUSION.search(s.clause)), "")
    wastes = next((s.clause for s in found if s.pays is False and s.side == "compute" and _FUSION.search(s.clause)), "")
    return Argument(turned, any(s.pays is True and s.side == "memory" for s in found),
                    any(s.pays is False and s.side == "compute" for s in found),
                    any(s.pays is not None for s in found),
                    any(_set_aside(unit) for unit in _UNIT.split(lowered)), pays, wastes)


# A stance on fusion said for every kernel: "a fused kernel is almost never worth it", "we should always write the
# fused kernel", "there is no regime where fusion hurts". One side by its own words, whatever examples follow.
_UNIVERSAL = re.compile(r"(?<!\bnot )(?<!n't )(?<!n’t )\b(?:always|never|almost never|hardly ever|every time|every single"
                        r" time|in (?:every|all) cases?|under no circumstances?|no (?:regime|case|kernel|situation) where"
                        r"|(?:the )?only (?:career[- ]limiting )?(?:move|mistake) is not"
                        # "fusion's the move for basically everything (on the list)"
                        r"|(?:for|on|in) (?:basically |just about |pretty much |nearly |almost )?(?:everything|every kernel"
                        r"|all (?:of them|kernels|cases)|anything)(?!\s+(?:that|which|where|whose|with|in which)\b))\b")
_STANCE_WORDS = re.compile(r"\b(?:worth\w*|right|wrong|pays?|helps?|hurts?|wast\w*|career\w*|answer|fix|call|good|bad|wins?"
                           r"|faster|write|fuse|fusing|fused|use|sentence|call|move|choice|lever|option|way to go)\b")
# ... or just before it ("fusing is the move every time", "fusion wins every single time").
_STANCE_BEFORE = re.compile(r"\b(?:the (?:right |best |smart )?(?:move|call|answer|fix|choice)|right|wins?|pays?(?: off)?"
                            r"|helps?|worth (?:it|doing)|the way to go)\s*$")
_WORDS_BETWEEN = re.compile(r"(?:\s+(?:a|an|the|so|really|truly|quite|basically|just|simply|going to be|be|is|are|been"
                            r"|get|gets|give|gives|a real|the right|the)\b){0,3}\s*")
_CLAUSE_OF_STANCE = re.compile(r"(?<=[.!?;:—–])\s+|\n|,\s+(?=(?:but|whereas|while|yet|except|unless)\b)")
_RESTRICTED = re.compile(r"\b(?:when(?:ever)?|where|if|unless|except|only|for (?:a|an|the)?\s*(?:[\w-]+ ){0,2}?"
                         r"(?:memory|compute|math|launch|overhead|bandwidth|matmul|gemm|elementwise|pointwise|decode"
                         r"|chains?|a\d)|on (?:a |an |the )?(?:[\w-]+ ){0,2}?(?:memory|compute|math|launch|overhead"
                         r"|bandwidth)|(?:memory|compute|math|launch|overhead|bandwidth)[- ]bound\b|\ba\d\b)")


def universal_stance(lowered: str) -> str:
    """The first clause that takes one side on fusion for every kernel ("fusion is always the right call"), or ""."""
    for clause in _CLAUSE_OF_STANCE.split(lowered):
        if not _FUSION.search(clause) or _RESTRICTED.search(clause) or _set_aside(clause):
            continue
        # the stance right after an "always"/"never" ("never worth it", "always a win"), not an adverb of something
        # else ("the intermediates never hit HBM"); any of the clause's ("always beats a chain …, so it's always
        # the right sentence")
        for found in _UNIVERSAL.finditer(clause):
            between = _WORDS_BETWEEN.match(clause, found.end())
            if _STANCE_WORDS.match(clause, between.end() if between else found.end()) or (
                    _STANCE_BEFORE.search(clause, 0, found.start()) and not _NEGATOR.search(clause, 0, found.start())):
                return clause.strip(" .,;:!—–")
    return ""


# --- what the paragraph says fusion does for one incident it names ---------------------------------------------------

#: Where a paragraph's sentences end, and an incident named in one ("A2", "A2's", "a2s" once normalised).
SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
INCIDENT_NAMED = re.compile(r"\ba([1-8])(?:'?s)?\b")
# An incident named to compare another with ("A3 is the same chain as A2 on a tiny tensor"): not a subject of its own.
_COMPARED_WITH = re.compile(r"\bsame\s+(?:[\w-]+\s+){0,3}?as\s+$|\b(?:similar|identical)\s+to\s+$|\bthan\s+(?:in\s+)?$")


def subjects_named(text: str) -> list[re.Match[str]]:
    """The incidents ``text`` names as its subjects: the first, and each later one not named only to compare with."""
    named = list(itertools.islice(INCIDENT_NAMED.finditer(text), MAX_CONDITIONS))
    return [m for n, m in enumerate(named)
            if n == 0 or not _COMPARED_WITH.search(text, max(0, m.start() - 40), m.start())]
# Words that say a fix paid, and words that say it did not. A paying word with a negation up to four words before
# it ("no fused kernel will rescue", "can't help") says it did not.
_PAID = re.compile(r"\b(?:helps?|helped|helping|pays?|paid|wins?|won(?!['’]t)|fix(?:es|ed)?|right (?:call|move|tool|answer|sentence"
                   r"|lever|choice)|worth(?:while)?|faster|speed-?ups?|sped|recover\w*|closes?|closed|closing|climbs?"
                   r"|climbing|reach(?:es)?|saves?|saved|gives?|gave|gains?|gained|delivers?|delivered|best|boost\w*"
                   r"|improv\w*|rescues?|cures?|recoups?|benefits?|lifts?|lifting|raises?|raising"
                   r"|gets? (?:(?:you|us|it) )?(?:the rest of the way|there|to (?:the )?peak|to 100%)"
                   # "would still get it to about 95%": a share of the roof reached
                   r"|get(?:s|ting)? (?:it|them|the \w+) (?:up )?to (?:about |around |roughly |~\s?)?\d+(?:\.\d+)?(?=\s?%)"
                   r"|gets? (?:you|us|it) from \S+(?: of peak)? (?:up )?(?:to|toward|towards)\b"
                   # "is how you get TTFT from 180 ms down to the 80 ms": a time or a rate taken to a target
                   r"|get(?:s|ting)? (?:the |its )?(?:ttft|itl|latency|time|step|decode|throughput|tok/s)\s+from \S+(?:\s?[a-zµ/]+)?"
                   r" (?:down |up )?to\b"
                   # "A2 and A3 both get the 3.8× from compile": a multiplier got is a win
                   r"|gets? (?:the |a |an |its |their )?(?:same )?(?:~\s?)?\d+(?:\.\d+)?(?=\s?×)"
                   r"|brings?|bringing|gets? back|get it back|wins? back|claw\w* back|push\w*"
                   # "would get the missing 30% back": a share of the roof won back
                   r"|gets?\s+(?:[\w%~.-]+\s+){1,3}back|grab\w*\s+(?:[\w%~.-]+\s+){0,3}back|doubl\w*|tripl\w*|halv\w*"
                   # "would take 38 tok/s well past 100": a rate taken past a figure
                   r"|tak(?:es?|ing)(?=\s+(?:[\w/.~-]+\s+){1,3}(?:well\s+|far\s+|way\s+)?(?:past|beyond|above|over|up to)\b)"
                   # "we should fuse the relu into the A1 matmul too": fusion recommended for the kernel named
                   r"|should (?:also |still |really |definitely )?(?:fuse|be fused|write (?:a |the )?fused))\b")
_UNPAID = re.compile(r"(?<!\bof )\b(?:nothing|no (?:gain|win|help|change|effect|benefit|difference|use)|neither|nor"
                     # "the waste is in hauling boards", "every write is pure waste" name what fusion removes
                     r"|(?<!\bthe )(?:wast(?!e\b)\w*|(?<!\bis )(?<!\bare )(?<!\bpure )(?<!\bjust )(?<!\bsheer )waste\b)"
                     r"|(?:spent|spend\w*|lose|lost|losing|burn\w*|sink\w*|sunk) (?:a|the|your|our|their) (?:whole )?week"
                     r"|pointless|useless|career\w*|untouched|in vain|for nothing|never|zero|futile|irrelevant|wrong"
                     r"|contraindicat\w*|counter-?productive|bad (?:idea|call|move|bet)"
                     # "leaves the matmul's FLOPs exactly where they were"
                     r"|leaves? (?:the |its )?(?:[\w'’]+ ){0,2}(?:flops|math|maths|arithmetic|time|runtime)\s+(?:exactly |just )?"
                     r"(?:where|as) (?:they|it) (?:were|was|is|are)"
                     r"|as slow|(?:won'?t|will not|wouldn'?t|would not|doesn'?t|does not|can'?t|cannot|didn'?t)\s+"
                     r"(?:shift|change|move|help|buy|speed|do|budge)\w*)\b")
_NEGATOR = re.compile(r"\b(?:not|no|never|can'?t|cannot|won'?t|wouldn'?t|shouldn'?t|doesn'?t|don'?t|didn'?t|isn'?t|wasn'?t|ain'?t"
                      r"|hardly|barely)\b")
_BREAK = re.compile(r"[,;(—–]\s*|\s+-\s+|\s+(?:and|but|whereas|while|or)\s+")
_COMPARED = re.compile(r"\b(?:as|than)\s*$")
_SMALL_WIN = re.compile(r"\b(?:only|little|slight\w*|barely|marginal\w*|a bit|modest\w*|small|tiny|almost nothing"
                        r"|hardly)\b")
_BIG_WIN = re.compile(r"\b(?:best|big|bigger|biggest|huge|major|massive|large|largest|greatest|dramatic\w*|same|most strongly)\b")
_TIMES = re.compile(r"(\d+(?:\.\d+)?)\s?(?:×|x\b|times\b)")


# A small word said of something other than the win: a roof share ("only 70% of peak"), a tensor ("the small
# tensor").
_SMALL_OF_ANOTHER = re.compile(r"\s+(?:~|about\s+)?\d+(?:\.\d+)?\s?%\s+of\s+(?:the\s+|its\s+)?(?:peak|roof|bandwidth|tflop)"
                               r"|\s+(?:[\w-]+\s+)?(?:tensors?|inputs?|shapes?|sizes?|arrays?|batch(?:es)?|chains?|kernels?|ops?)\b")


def _times(clause: str) -> tuple[float, ...]:
    """The multipliers a clause says ("3.8×")."""
    return tuple(float(m[1]) for m in _TIMES.finditer(clause))


def _small(clause: str) -> bool:
    """Whether a clause says the win was small ("only 1.08×", "barely helps"), not that something else is."""
    return any(not _SMALL_OF_ANOTHER.match(clause, m.end()) for m in _SMALL_WIN.finditer(clause))


@dataclass(frozen=True)
class FusionSaid:
    """What a clause says fusion does for one incident: pays or not, how much (a multiplier), and its words."""

    incident: str  # "a1" … "a8"
    pays: bool
    clause: str
    small: bool = False  # said to pay only a little ("only 1.08×", "barely")
    big: bool = False  # said to pay a lot ("the best case", "the same 3.8×")
    times: tuple[float, ...] = ()  # multipliers said in the clause


_NOT_BY_FUSION = re.compile(r"\b(?:not|never|rather than|instead of)\s+(?:by|with|through|via|from)?\s*(?:the\s+)?"
                            r"(?:fus\w*|compil\w*|torch\.compile)")


_THE_UNFUSED = re.compile(r"\b(?:single|individual|separate|eager|unfused|each of the)\s+(?:\w+\s+)?(?:kernels?|ops?)\b")


def _paid(text: str) -> bool | None:
    """Whether the words say the fix paid (True), did not (False), or neither or both (None).

    "8 µs of nothing" is idle time, and what "was never the limit" is what the fix did not need to touch.
    """
    if _NOT_BY_FUSION.search(text):
        return False  # "the launches are fixed by faster kernels, not by fusion": fusion is said not to pay
    moot = bool(_MOOT.search(text))  # "removes bytes that were never the limit": it did not pay
    text = _NEVER.sub(" ", _MOOT.sub(" ", text))
    unpaid = moot or bool(_UNPAID.search(text))
    paid = False
    for found in _PAID.finditer(text):
        before = text[max(0, found.start() - 40):found.start()].split()[-4:]
        if before[-1:] == ["already"]:
            continue  # "A1 already reaches 70% of peak": where it stands, not what a fix paid
        if before[-1:] in (["only"], ["barely"], ["merely"]):
            continue  # "compile only gives 1.08×": a small win, said as one, is no pay
        if _THE_UNFUSED.search(text, max(0, found.start() - 40), found.start()):
            continue  # "the single kernels could not go faster": said of the kernels as they are, not of fusion
        if any(_NEGATOR.fullmatch(w.strip(",;:()")) for w in before) or _NOTHING_AFTER.match(text, found.end()):
            unpaid = True  # "can't help", "saves zero frames", "gains nothing"
        else:
            paid = True
    if paid == unpaid:
        return None
    return paid


# Fusion referred to as "it" before the incident it is tried on ("but try it on A1's matmul").
_TRY_IT_ON = re.compile(r"\b(?:try|trying|tried|use|using|apply|applying|do|doing)\s+(?:it|that|this|the same)\s+(?:on|for|to|with)"
                        r"\b")
_NOTHING_AFTER = re.compile(r"\s+(?:zero|nothing|none|no\s(?!doubt|question)|next to nothing|almost nothing)\b")
_ALSO = re.compile(r"\b(?:too|as well|also|likewise|equally)\b")
# A clause led by "it" (or "this") in a paragraph on fusion says it of fusion: "It also pays on A1, to a smaller degree".
_IT_LEADS = re.compile(r"^\W*(?:and\s+|but\s+|yet\s+)?(?:it|this)(?:'s|\s+(?:is|also|still|only|even|really|too|does|did"
                       r"|can|could|would|will|won'?t|doesn'?t|pays?|helps?|wins?|works?))\b")
_FUSING_IT = re.compile(r"\b(?:fus\w*|compil\w*|graph[- ]captur\w*)\s+(?:them|it|this|that|these|those)\b")
# A clause with no name leads the next one only across "and" or a sentence's start: "fusion is the right call, and
# A2 shows it"; across "while" or "but" it contrasts ("fusion is the right call, while A1 is compute-bound").
_LEAD_JOIN = re.compile(r",?\s*and\s*")
_SO = re.compile(r",?\s*(?:so|hence|therefore|thus)\s*")


def _units(sentence: str) -> Iterator[tuple[str, str]]:
    """The sentence's clauses as ``_UNIT`` splits them, each with the words that joined it to the one before."""
    start, joined = 0, ""
    for found in _UNIT.finditer(sentence):
        yield sentence[start:found.start()], joined
        start, joined = found.end(), found.group()
    yield sentence[start:], joined


def fusion_pays_in(clause: str) -> bool | None:
    """Whether a clause that names fusion says it pays (True), does not (False), or neither (None)."""
    return _paid(clause) if _FUSION.search(clause) else None


def fusion_said_of_incidents(lowered: str) -> list[FusionSaid]:
    """Each incident the paragraph names, with what the clause that names it says fusion does there.

    What is said of an incident runs from its name to the next incident's name or the end of the clause; the
    first incident of a sentence also takes the words before it ("fusion is the right call in A2"). Only a clause
    that names fusion (or compile) is read, and only one whose words say one way.
    """
    out: list[FusionSaid] = []
    carried = ""  # the incident a clause ending in ";" was about: the clause after it goes on about it
    for sentence in SENTENCE.split(lowered):
        if _set_aside(sentence):
            carried = ""
            continue
        lead, last, previous = "", carried, ""
        for unit, joined in _units(sentence):
            named = subjects_named(unit)
            previous, unit_before = unit, previous
            if not named:
                # "For A1, 30% is memory time, so a fused relu-matmul can recover it": what follows "so", or
                # says "fusing them", is said of the incident before it; any other clause with no name is the next
                # name's lead.
                # ... and so is a clause after "and" that names only fusion ("In A2 …, and compile's fusion gives 3.8×")
                # ... and so is a tail that sets fusion aside ("A6's launches go with faster kernels, not by fusion")
                set_aside = _NOT_BY_FUSION.match(f"{joined}{unit}".strip(" ,;"))
                said_of_last = _SO.fullmatch(joined) or _FUSING_IT.search(unit) or set_aside or (
                    carried and last == carried and not joined and not lead) or (
                    _LEAD_JOIN.fullmatch(joined) and not _CONDITION.search(unit) and not _MEMORY.search(unit)
                    and not _COMPUTE.search(unit))
                pays = (False if set_aside else _paid(unit)) if last and said_of_last and _FUSION.search(unit) else None
                if pays is not None:
                    said_unit = f"{unit_before}{joined}{unit}" if set_aside else unit
                    out.append(FusionSaid(last, pays, said_unit.strip(), _small(unit),
                                          bool(_BIG_WIN.search(unit)),
                                          _times(unit)))
                lead = unit if not last else lead  # only before the sentence names an incident
                continue
            last = f"a{named[-1][1]}"
            start = 0
            for n, found in enumerate(named):
                end = named[n + 1].start() if n + 1 < len(named) else len(unit)
                if n + 1 < len(named) and not _COMPARED.search(unit[max(0, end - 12):end]):
                    # "A2 got 3.8×, and a waste when the math does (A1": the words after the last "and" (else the
                    # last comma or bracket) before the next name are the next incident's; "as A2" is no subject.
                    breaks = list(_BREAK.finditer(unit, found.end(), end))
                    joins = [b for b in breaks if b.group().strip().isalpha()]
                    end = (joins or breaks)[-1].start() if breaks else end
                said = unit[start:end]
                if n == 0 and (not joined or _LEAD_JOIN.fullmatch(joined)):
                    said = f"{lead} {said}"
                lead, start = "", end
                # "Fusion wins on A2 and on A1's matmul too": a name added with "too" takes the last one's verdict
                also = out[-1] if n and out and out[-1].incident == f"a{named[n - 1][1]}" and _ALSO.search(said) \
                    and _paid(said) is None else None
                if also is not None:
                    out.append(dataclasses.replace(also, incident=f"a{found[1]}", clause=f"{also.clause} {said.strip()}"))
                    continue
                if not _FUSION.search(said) and not _TRY_IT_ON.search(said) and not _IT_LEADS.search(said):
                    continue
                pays = _paid(said)
                if pays is None:
                    continue
                times = _times(said)
                out.append(FusionSaid(f"a{found[1]}", pays, said.strip(), _small(said),
                                      bool(_BIG_WIN.search(said)), times))
        carried = last if sentence.rstrip().endswith(";") else ""
    return out
