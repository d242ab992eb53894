"""Learner text read the way a reader would: shorthand, typos, numbers in words, negation.

The grader never matches raw text. It first ``normalise``s it (lower case, common misspellings,
``per cent`` → ``%``, ``seventy`` → ``70``, ``12us`` → ``12 µs``), then asks ``negated`` whether a
phrase found in it is denied ("not KV paging", "MMA won't help") and ``in_context`` whether it only
describes the kernel ("a kernel already on tensor cores").
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TypeVar

from regime_core.catalogue.levers import unsnake
from regime_core.catalogue.levers import vocabulary as levers_vocabulary

_Read = TypeVar("_Read")

#: The longest line kept in a reading cache: a longer one (rare, and hostile when it is 100,000 characters) is read
#: afresh each time, so that the caches stay small in the browser.
CACHED_LENGTH = 4000


def cached_line(read: Callable[[str], _Read]) -> Callable[[str], _Read]:
    """``read`` with its results kept for lines up to ``CACHED_LENGTH``.

    A grading reads the same line several times (an incident's facts, then the learner's evidence beside them; a
    class's write-ups of one incident). Only for functions of the text alone that return something immutable.
    """
    kept = lru_cache(maxsize=4096)(read)

    @functools.wraps(read)
    def reading(text: str) -> _Read:
        return kept(text) if len(text) <= CACHED_LENGTH else read(text)
    return reading


# Misspellings too far from the word for the fuzzy match below (or too short for it).
_TYPOS = {
    "fusoin": "fusion", "fuison": "fusion", "fuze": "fuse", "fuzed": "fused", "fuzing": "fusing",
    "grpahs": "graphs", "grapsh": "graphs", "graps": "graphs", "grahps": "graphs", "grpah": "graph",
    "sycn": "sync", "synch": "sync", "snyc": "sync", "memroy": "memory", "meory": "memory", "mmeory": "memory",
    "bonud": "bound", "boud": "bound", "kernal": "kernel", "kernals": "kernels", "regs": "registers",
    "reg": "registers", "quantisaton": "quantisation", "quantizaton": "quantization", "pagging": "paging",
    # Jamaican English as learners write it ("tek out di .item()", "mek it faster", "keep di token pon device")
    "di": "the", "tek": "take", "mek": "make", "pon": "on", "dem": "them", "dat": "that", "dis": "this",
    # ... and in the Eastern Caribbean's Englishes ("way more dan 4×")
    "dan": "than", "nutting": "nothing", "de": "the",
    # British English's plural of the word the vocabulary spells "math"
    "maths": "math",
}
# Real words close enough to a word of the vocabulary that the fuzzy match below would "correct" them
# ("waiting" is not "writing", "copied" is not "compiled"); found by reading every word of the learner sets.
_REAL_WORDS = frozenset({"waiting", "copied", "spending", "tensorrt", "sided", "large", "compiler", "sending",
                         "wanting", "writing", "casting", "costing", "posting", "fasting", "listing", "testing",
                         "sharing", "shared", "shares", "sharding", "turning", "turned", "fussing", "fussed",
                         "fusses", "fussy",
                         # English words the corrector took for the vocabulary's, read in the kept sets ("the hoist is
                         # the limit" is no host; "deciding" no decoding; "the width" no "with")
                         "deciding", "refuse", "width", "match", "landing", "leading", "ready", "returned", "seeing",
                         "hoist", "hoists", "shard", "patch", "chore", "shaping", "widen", "manager", "managed",
                         "black", "resting", "sharpens", "concert", "coaching", "coached", "redoing", "regrading",
                         "carting", "swamping", "shading", "bracketing", "slide", "combing", "tailed", "shoving",
                         "stoop", "tenor", "prompter", "catching", "moire"})
# Whole-phrase shorthand, matched on word boundaries after lower-casing; each with the strings one of which it
# needs, so text without them is not scanned for it (Python's regex engine reads some 10-20 MB/s per pattern).
_SHORTHAND = tuple((re.compile(pattern), replacement, needles) for pattern, replacement, needles in (
    (r"\bper[ -]?cent\b|\bpercent\b|\bpct\b|(?<=\d)pct\b", "%", ("cent", "pct")),
    (r"\bmicro[ -]?seconds?\b|\busecs?\b", "µs", ("micro", "usec")),
    (r"\bmilli[ -]?seconds?\b|\bmsecs?\b", "ms", ("milli", "msec")),
    (r"\bnano[ -]?seconds?\b", "ns", ("nano",)),
    (r"\btokens? (?:per|a) (?:second|sec)\b|\btok/sec\b|\btokens/sec\b", "tok/s", ("tok",)),
    (r"\bflops? (?:per|a) byte\b", "flop/byte", ("byte",)),
    # Sizes and bandwidths spelt out or in slang after a number ("14 gigs", "2 terabytes per sec").
    (r"(?<=\d)\s?(?:gigs?|gigabytes?)\b", " gb", ("gig",)), (r"(?<=\d)\s?terabytes?\b", " tb", ("terabyte",)),
    (r"(?<=\d)\s?megabytes?\b", " mb", ("megabyte",)), (r"(?<=\d)\s?kilobytes?\b", " kb", ("kilobyte",)),
    (r"(?<![a-z])([kmgtp]i?b|bytes?)(?:/| per | a )(?:sec|second)\b", r"\1/s", ("sec",)),
    (r"(?<=\d)\s?cubed\b", "³", ("cubed",)), (r"(?<=\d)\s?squared\b", "²", ("squared",)),
    (r"(?<=\d)\s?teraflops\b", " tflop/s", ("teraflops",)), (r"(?<=\d)\s?petaflops\b", " pflop/s", ("petaflops",)),
    (r"(?<=\d)\s?gigaflops\b", " gflop/s", ("gigaflops",)),
    (r"\bmicro-?opt\b", "micro-optimise", ("micro",)),
    (r"\bquant\b", "quantisation", ("quant",)),
    (r"\bperf\b", "performance", ("perf",)),
    (r"\battn\b", "attention", ("attn",)),
    (r"\bkern\b", "kernel", ("kern",)),
    (r"\brm\b", "remove", ("rm",)),
    (r"\bw/", "with ", ("w/",)),
))
_ONES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1e6, "billion": 1e9}
_NUMBER_WORD = "|".join([*_ONES, *_TENS, *_SCALES, "point", "and"])
# "one" and "zero" start a number only inside a run ("twenty-one"): "one kernel" stays words.
_RUN_STARTS = (*(w for w in _ONES if _ONES[w] > 1), *_TENS)
# ... or before a decimal point or a scale ("one point seven", "one hundred").
_NUMBER_RUN = re.compile(rf"\b(?:{'|'.join(_RUN_STARTS)}|(?:one|zero)(?=[ -](?:point|hundred|thousand|million|billion)\b)"
                         # "one fifty-six" is 156 said as a radio host or a gate agent says it
                         rf"|one(?=[ -](?:{'|'.join(_TENS)})\b))\b"
                         rf"(?:[ -](?:{_NUMBER_WORD})\b)*")
# Decimal prefixes written in lower case before bytes or FLOPs ("1.7tb/s", "14 gb"): a reader knows.
_PREFIXED_UNIT = re.compile(r"(\d)\s?([kmgtp])(b/s|b(?![a-z])|flops?\b|flop/s)")
# Binary prefixes written in lower case ("1.55 tib/s", "16 kib"): kept binary.
_BINARY_UNIT = re.compile(r"(\d)\s?([kmgtp])i(b/s|b(?![a-z]))")
# Markdown emphasis and list marks are not words ("rewriting the **matmul** kernels", "- fuse"): dropped; an
# underscore inside a name (pin_memory) stays.
# A run of * or _ is emphasis where it opens a word (after a space or a mark) or closes one (before a space or a
# mark), as CommonMark reads it; "2*70e9*8" and "x * 2" are multiplication and stay.
_MARKDOWN = re.compile(r"(?:^|(?<=[\s(\[\"'-]))[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?=$|[\s.,;:!?)\]\"'-])"
                       r"|(?m:^)[ \t]*[-•][ \t]+|^#+[ \t]*")
# Quotation marks around a word ("the 'faster' kernel", `pin_memory`); an apostrophe inside a word stays.
_QUOTES = re.compile(r"[\"“”`]|(?<![a-z])'|'(?![a-z])")
# A unit per step written with a slash ("47 ms/token", "14 GB/step"): the same as "per token".
_PER_STEP = re.compile(r"(?<=[a-zµ])/(tokens?|toks?|steps?|iters?|iterations?|requests?|reqs?)\b")
# After a digit (a lookbehind, so each replacement is a plain string: a template would cost a Python call per match).
# ("a thousand-odd times", "20-odd x": a rough multiplier is still one)
_TIMES = re.compile(r"(?<=\d)(?:-?odd)?\s?(?:x|×|times|-?fold)(?![a-z])")
_TIMES_AFTER_THINGS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?\s?[a-z]{3,20})\s+x\s+(?=[\d(])")
_PERCENT = re.compile(r"(?<=\d)\s%")
_MICROSECONDS = re.compile(r"(?<=\d)\s?us\b")

# Words a negation denies what follows ("not KV paging") or what precedes ("MMA won't help").
_BEFORE = re.compile(r"\b(?:not|no|never|neither|don't|dont|do not|does not|doesn't|avoid|avoiding|without|nor|"
                     r"cannot|can't|won't|"  # "fusing it cannot remove the arithmetic"
                     r"instead of|rather than|skip|forget|stop|stops|stopping|stopped|quit|nowhere near"
                     # Scots: "naebody's FLOP-limited", "it isnae the maths"
                     r"|nobody|naebody|nae|isnae|disnae|cannae|dinnae|wisnae"
                     # Papiamento: "Nò fusion"
                     r"|nò)\b")
_AFTER = re.compile(r"\b(?:won't|wont|will not|would not|wouldn't|wouldnt|does not|doesn't|doesnt|do not|don't|"
                    r"cannot|can't|cant|can not|could not|couldn't|couldnt|is not|isn't|isnt|are not|aren't|arent"
                    r"|is gone|gone|useless|pointless|irrelevant|ruled out|excluded|eliminated|dismissed|"
                    r"no help|wasted|waste|theatre|theater|trivial|negligible|little left|little to gain|not much left"
                    r"|(?:has |have |gives? |brings? )?(?:zero|no) (?:return|gain|payoff|benefit)s?)\b")
# A call's empty brackets (".item()") are part of its name, not the end of a clause.
_CLAUSE_END = re.compile(r"[;:!?\[\]—–]|\((?!\))|(?<!\()\)|\.(?=\s|$)|\bbut\b|\bso\b|\bbecause\b|\bsince\b|\bwhile\b|"
                         r"\bwhereas\b|\bthen\b|\bthus\b|\bhence\b|\bwhich\b|,")
_NEGATION_REACH = 4  # words between a negation and the phrase it denies
_WINDOW = 80  # characters either side of a phrase in which its negation or context is looked for
_CONTEXT = re.compile(r"\b(?:already|currently)\b")
# Words that put something in ("add a sync after every step"): said of a problem, they offer the problem.
_ADDING = re.compile(r"\b(?:add|adds|adding|added|insert|inserts|inserting|inserted|introduce|introduces|introducing|"
                     r"put in|putting in|put a|put an|call|calls|calling|force|forces|forcing|throw|throws|throwing"
                     r"|stick|sticks|sticking|sprinkle|sprinkles|sprinkling"
                     # "precede the .item() with an explicit synchronize()": what it is preceded or followed with
                     r"|(?:precede|follow)[sd]?\b(?:\s+\S+){1,3}?\s+with|wrap\w*\b(?:\s+\S+){1,3}?\s+in)\b"
                     # "replace .item() with .cpu()": what it is replaced with is put in
                     r"|\b(?:replac|swap|switch|substitut)\w*\b(?:\s+\S+){1,3}?\s+(?:with|for|by)\b")


_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d+),(\d{1,2})(?![\d,])")
_ZERO_COMMA = re.compile(r"(?<![\d,.])(0),(\d+)(?!\d|,\d)")
_THOUSANDS_DOT = re.compile(r"(?<![\d.])(\d{1,3})\.(\d{3})(?![\d.])")
_BILLIONS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)b(?= ?(?:×|\*|x\b|params|parameters|model|weights|int8|int4|fp16|bf16|fp8|llama|decode))"
                       r"|(?<=(?:bf16|fp16|fp32|int8|int4) )(\d+(?:\.\d+)?)b\b|(?<=fp8 )(\d+(?:\.\d+)?)b\b")
# A word or two set off by dashes, read in its sentence: what it names is what the sentence says it of.
_APPOSITION = re.compile(r"\s[—–]\s?([a-z][\w-]*(?:\s[a-z][\w-]*)?)\s?[—–]\s")
# A size said as a fraction of another's ("1/4,096 the size of the A2 tensor", "1/16384th of the size").
_SIZE_FRACTION = re.compile(r"(?<![\w.])1\s*/\s*(\d[\d,]*(?:\.\d+)?)(?:th)?\s+(?:of\s+)?the\s+size\b")
# Millions of things ("134M elements", "a 134m-element buffer"): not milli-anything.
_MILLIONS = re.compile(r"(?<![\w.])(~?\d+(?:\.\d+)?)m(?=[ -](?:elements?|values?|entries|floats?|params|parameters|tokens"
                       r"|launches|kernels|items|numbers)\b)")
_DIGITS_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[\s-]+(million|billion|trillion)\b")
# Thousands grouped by a space, as SI and LaTeX write them ("40 000", "8 192", "40\\,000"): one number.
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,])")
_SCALE_EXPONENT = {"million": 6, "billion": 9, "trillion": 12}


def spaced_thousands(text: str) -> str:
    """Thousands grouped with spaces, as French and SI write them ("1 356"), as one number ("1356")."""
    return _SPACED_THOUSANDS.sub(lambda m: m.group().replace(" ", ""), text) if " " in text else text
_RUN_NEEDLES = (*_RUN_STARTS, "one", "zero")  # what a number in words holds, before the regex looks for one
_DIGIT_GROUP = re.compile(r"(?<=\d)_(?=\d{3}\b)")
_A_SCALE = re.compile(r"\ba (hundred|thousand)\b")
_FRACTION_WORDS = ("half", "third", "quarter", "fifth", "tenth")
_PARTS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
# The number run may have taken the "and" ("two and a quarter" reads "2 a quarter" by here).
_AND_A_PART = re.compile(r"\b(\d+(?:\.\d+)?|one) (?:and )?(a|one|three|3) (half|third|quarter|fifth)s?\b")
_A_PART_OF = re.compile(r"\b(?:a|one) (half|third|quarter|fifth|tenth)(?= of\b)")
_PARTS_OF = re.compile(r"\b(\d+)[ -](halves|thirds|quarters|fifths|tenths)\b(?! of a second)")  # "four-fifths" → 80%
_PARTS_OF_A_SECOND = re.compile(r"\b(\d+) (halves|thirds|quarters|fifths|tenths) of a second\b")


def _fractions(text: str) -> str:
    """Fractions in words: "two and a quarter" → 2.25, "a fifth of the time" → 20%, "four tenths of a second" → 0.4 s."""
    def and_a_part(m: re.Match[str]) -> str:
        count = 3 if m[2] in ("three", "3") else 1
        whole = 1.0 if m[1] == "one" else float(m[1])
        return f"{whole + count / _PARTS[m[3]]:g}"

    text = _AND_A_PART.sub(and_a_part, text)
    text = _A_PART_OF.sub(lambda m: f"{100 / _PARTS[m[1]]:.0f}%", text)
    singular = {"halves": "half", "thirds": "third", "quarters": "quarter", "fifths": "fifth", "tenths": "tenth"}
    text = _PARTS_OF_A_SECOND.sub(lambda m: f"{int(m[1]) / _PARTS[singular[m[2]]]:g} s", text)
    return _PARTS_OF.sub(lambda m: f"{100 * int(m[1]) / _PARTS[singular[m[2]]]:.0f}%", text)


# A dot before three zeros ("40.000 launches") or before three digits and a count of things ("12.345 kernels") is a
# thousands separator: a count of launches is whole.
_THOUSANDS_PLAIN = re.compile(r"(?<![\d.,])([1-9]\d{0,2})\.(000|\d{3}(?=\s+(?:launches|kernels|calls|elements|tokens|steps"
                              r"|requests|grids|iterations|params|parameters)\b))(?![\d.,])")


def decimal_commas(text: str) -> str:
    """A decimal comma ("0,33", "1,7 von 2,0 TB/s") read as a point; it makes the line's dots thousands ("40.000").

    Without a decimal comma, a dot is a thousands separator only where it cannot be a decimal point ("40.000
    launches").
    """
    decimal = bool(_DECIMAL_COMMA.search(text))
    if decimal:  # the line's dots are thousands, before any comma is made a point ("0,334 … 1,68·10⁷")
        text = _THOUSANDS_DOT.sub(r"\1\2", text)
    if "0," in text:  # "0,047 s": a comma after a lone zero is a decimal one, whatever follows (no number is 0,047)
        text = _ZERO_COMMA.sub(r"\1.\2", text)
    if not decimal:
        return _THOUSANDS_PLAIN.sub(r"\1\2", text) if "." in text else text
    return _DECIMAL_COMMA.sub(r"\1.\2", text)


def numbers_in_words(text: str) -> str:
    """``text`` (lower case) with its numbers in words as digits, and nothing else changed ("about three" → "about 3")."""
    if _has(text, ("a hundred", "a thousand")):
        text = _A_SCALE.sub(r"one \1", text)
    if "point o" in text:  # "one point oh eight" is 1.08
        text = re.sub(r"\bpoint (?:oh|o)\b", "point zero", text)
    text = _NUMBER_RUN.sub(lambda m: _number_words(m.group(0)), text) if _has(text, _RUN_NEEDLES) else text
    if "thousand" in text:  # "1.4 thousand FLOP/byte" (millions and more are read as exponents in normalise)
        text = _DIGITS_THOUSAND.sub(_thousands, text)
    return text


# Digits and "thousand": "1.4 thousand", a range "1.36–1.37 thousand" (both ends scaled).
_DIGITS_THOUSAND = re.compile(r"(?<![\w.,])(?:(\d+(?:\.\d+)?)(\s*[–-]\s*|\s+to\s+))?(\d+(?:\.\d+)?)\s+thousand\b")


def _thousands(found: re.Match[str]) -> str:
    low = f"{_shown_scaled(float(found[1]) * 1000)}{found[2]}" if found[1] else ""
    return low + _shown_scaled(float(found[3]) * 1000)


def _shown_scaled(value: float) -> str:
    return f"{value:.0f}" if value.is_integer() else f"{value:g}"


def _number_words(run: str) -> str:
    """``sixty-two`` → ``62``, ``three point eight`` → ``3.8``, ``forty thousand`` → ``40000``."""
    words = re.split(r"[ -]+", run.strip())
    # "thirteen fifty six" is said for 1356, "one fifty-six" for 156: a number under a hundred, then a tens word,
    # with no scale word
    if (len(words) >= 2 and words[0] in _ONES and _ONES[words[0]] >= 1 and words[1] in _TENS
            and not any(w in _SCALES or w in ("point", "and") for w in words)):
        return f"{_ONES[words[0]] * 100 + sum(_TENS.get(w, _ONES.get(w, 0)) for w in words[1:]):.0f}"
    total, current, decimals, after_point = 0.0, 0.0, "", False
    for word in words:
        if word == "and":
            continue
        if word == "point":
            after_point = True
        elif after_point and word in _ONES and _ONES[word] < 10:
            decimals += str(_ONES[word])
        elif word in _ONES:
            current += _ONES[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
    value = total + current
    return f"{value:.0f}" + (f".{decimals}" if decimals else "")


@cache
def _by_first_letter() -> dict[str, tuple[str, ...]]:
    """The vocabulary grouped by first letter: a typo rarely changes the first letter, so only these compete."""
    groups: dict[str, list[str]] = {}
    for word in sorted(levers_vocabulary()):
        groups.setdefault(word[0], []).append(word)
    return {letter: tuple(words) for letter, words in groups.items()}


@lru_cache(maxsize=4096)
def _correct(word: str) -> str:
    """A misspelt word of the grader's vocabulary, corrected; any other word as it is."""
    if word in _TYPOS:
        return _TYPOS[word]
    if word in _REAL_WORDS or word in _ONES or word in _TENS or word in _SCALES:  # "eighty" is not "eight"
        return word
    vocabulary = levers_vocabulary()
    if len(word) < 5 or word in vocabulary or f"{word}s" in vocabulary or word.removesuffix("s") in vocabulary:
        return word  # a word of the vocabulary, or its singular or plural ("token" of "fewer tokens")
    candidates = [w for w in _by_first_letter().get(word[0], ()) if abs(len(w) - len(word)) <= 2]
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.84)
    return close[0] if close else word


_G_DROPPED = re.compile(r"\b([a-z]{2,}?[b-df-hj-np-tv-z]?)in'(?![a-z])")
_MARKDOWN_MARKS = ("*", "_", "-", "•", "#")
_QUOTE_MARKS = ('"', "“", "”", "`", "'")


def _has(text: str, needles: tuple[str, ...]) -> bool:
    """Whether any of ``needles`` is in ``text``: a substring search in C, before a regex scan that needs one."""
    return any(needle in text for needle in needles)


# LaTeX as learners type it: "$\\frac{312}{2}$", "312 \\times 10^{12}", "\\approx 156", "75\\%", "12\\,\\mu s".
_LATEX = ((re.compile(r"\^\{([^{}]*)\}"), r"^\1"),
          (re.compile(r"\\(?:mathrm|text|texttt|textit|textbf|operatorname|mathit|mathbf)\s*\{([^{}]*)\}"), r"\1"),
          (re.compile(r"\\(?:times|cdot)"), "×"), (re.compile(r"\\(?:approx|sim)"), "≈"), (re.compile(r"\\%"), "%"),
          (re.compile(r"\\mu\s*"), "µ"), (re.compile(r"\\(?:left|right)"), ""), (re.compile(r"\\(?:geq|ge)"), "≥"),
          (re.compile(r"\\(?:leq|le)"), "≤"), (re.compile(r"\\(?:to|rightarrow)"), "→"),
          (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"(\1)/(\2)"),
          (re.compile(r"\\[,;!: ]"), " "), (re.compile(r"[$]"), ""))


# A unit written with the SI's negative power ("312 TFLOP s⁻¹", "156 FLOP B⁻¹", "125 s⁻¹"): a unit per that one.
_SI_INVERSE = re.compile(r"\s?([A-Za-zµ]{1,6})\s?⁻¹")


def delatex(text: str) -> str:
    """Text with the LaTeX people type for numbers and units read as plain text (a fraction as a quotient).

    A unit's negative power as the SI writes it ("TFLOP s⁻¹") is read as a quotient too ("TFLOP/s").
    """
    if "⁻¹" in text:
        text = _SI_INVERSE.sub(r"/\1", text)
    if "\\" not in text and "$" not in text:
        return text
    for pattern, replacement in _LATEX:
        text = pattern.sub(replacement, text)
    return text


# A result a Python REPL printed on its own line ("156.0", "-0.25", "1.6e-05").
_PRINTED = re.compile(r"[-+]?\d[\d.eE+-]*")


# A notebook's cells: "In [2]: 12*1.08" over "Out[2]: 12.96  # µs compiled".
_CELL_IN = re.compile(r"^[ \t]*in[ \t]?\[\d*\][ \t]*:[ \t]?", re.IGNORECASE)
_CELL_OUT = re.compile(r"^[ \t]*out[ \t]?\[\d*\][ \t]*:[ \t]*", re.IGNORECASE)
_NAMED = re.compile(r"(?<![\d.])[a-z_][a-z_0-9]*(?!\s*\()", re.IGNORECASE)
_ANY_CELL_OUT = re.compile(r"^[ \t]*out[ \t]?\[\d*\][ \t]*:", re.IGNORECASE | re.MULTILINE)
# A unit said first in a printed result's comment ("12.96  # µs compiled"): the result's unit.
_UNIT_FIRST = re.compile(r"^(ms|µs|us|ns|s|sec|seconds?|milliseconds?|microseconds?|tok/s|tokens?/s|[kmgtp]?b/s"
                         r"|[kmgtp]?b|flop/byte|flop/b|t?flop/s|%)(?![\w/])", re.IGNORECASE)


def _worked(expression: str, printed: str, *, cell: bool) -> str:
    """A prompt's expression and the result printed under it, as working: "12*1.08 = 12.96 µs; compiled"."""
    value, _, said = printed.partition("#")
    expression, _, comment = expression.partition("#")
    unit = _UNIT_FIRST.match(said.strip())
    result = f"{value.strip()} {unit.group()}" if unit else value.strip()
    rest = "; ".join(c for c in (comment.strip(), said.strip()[unit.end():].strip() if unit else said.strip()) if c)
    # a cell's expression on a name ("w/300e9*1e3", "on/(on+off)") is no sum to check: the result stands alone
    joined = ": " if cell and _NAMED.search(expression) else " = "
    return f"{expression.strip()}{joined}{result}" + (f"; {rest}" if rest else "")


def unrepl(text: str) -> str:
    """A REPL transcript or a notebook's cells read as working.

    ">>> 312e12 / 2.0e12" over "156.0", or "In [1]: 312e12 / 2.0e12" over "Out[1]: 156.0", is
    "312e12 / 2.0e12 = 156.0"; a unit said first in the result's comment is the result's ("0.4  # ms per request"),
    the rest of the comments are kept after it, and the prompts go. Line by line, so any text reads in linear time.
    """
    if ">>>" not in text and not ("[" in text and _ANY_CELL_OUT.search(text)):
        return text
    lines = text.split("\n")
    out: list[str] = []
    for n, line in enumerate(lines):
        printed = _CELL_OUT.sub("", line, count=1)
        if out and out[-1].startswith("\0") and _PRINTED.fullmatch(printed.partition("#")[0].strip()):
            out.append(_worked(out.pop()[1:], printed, cell=printed != line))
            continue
        stripped = line.lstrip()
        # a cell's input is working only where its output follows ("In [1]: 0.62  # share" alone stays as typed)
        cell = _CELL_IN.match(line) if n + 1 < len(lines) and _CELL_OUT.match(lines[n + 1]) else None
        is_prompt = (stripped.startswith(">>>") or cell is not None) and n + 1 < len(lines)
        if is_prompt:
            out.append("\0" + (line[cell.end():] if cell else stripped[3:]).strip())
        else:
            out.append(_CELL_OUT.sub("", line.replace(">>>", ""), count=1))
    return "\n".join(line.lstrip("\0") for line in out)


# A key that ends in its value's unit, then the value, on a line of its own: "gpu busy pct: 80", "time us = 12".
_KEYED_UNIT = re.compile(r"^(?P<key>[ \t]*[a-z][a-z ]{0,40}?)[ \t]+(?P<unit>pct|percent|ms|us|µs|ns|s|gb|gb/s|tb/s"
                         r"|tok per s|tokens per s|ms per tok(?:en)?|flop per byte)[ \t]*[:=][ \t]*"
                         r"(?P<value>[-+]?\d[\d.]*(?:e[-+]?\d+)?)(?=[ \t]*(?:#|;|$))", re.MULTILINE)
_UNIT_SAID = {"pct": "%", "percent": "%", "tok per s": " tok/s", "tokens per s": " tok/s"}


def _unit_after(found: re.Match[str]) -> str:
    unit = _UNIT_SAID.get(found["unit"], " " + found["unit"])
    return f"{found['key']}: {found['value']}{unit}"


_ISH = re.compile(r"(\d)\s?-?ish\b")
_TIME_FOR_TIMES = re.compile(r"(\d)\s+time\s+(smaller|bigger|larger|faster|slower|quicker|more|less|fewer|over|under"
                             r"|above|below|higher|lower|longer|shorter)\b")


_DE_OF = re.compile(r"(?<=[\d%s]) de (?=~?\d)")
_KRIOL_THEN = re.compile(r"(?<=\s)den(?=\s)")
_SCOTS_OF = re.compile(r"(?<=\s)o(?=\s+(?:peak|the|it|them|that|this|its|~?\d))")


# French sizes in octets, with their capital prefix ("70 Go", "2 To/s"): bytes, read before the case is lowered.
_OCTETS = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?([KMGT])o(/s)?\b")


_NARROW_SPACES = ("\u2009", "\u202f", "\u2007", "\u200a", "\u2002", "\u2003")
_AS_SPACE = str.maketrans(dict.fromkeys(_NARROW_SPACES, " "))
_APOSTROPHE_THOUSANDS = re.compile(r"(?<=\d)['’](?=\d{3}(?!\d))")


def typeset_marks(text: str) -> str:
    """A thin or narrow space ("1.08\u2009µs", "40\u202f000") as a space; a Swiss thousands mark ("1'356") dropped."""
    if _has(text, _NARROW_SPACES):
        text = text.translate(_AS_SPACE)
    return _APOSTROPHE_THOUSANDS.sub("", text) if _has(text, ("'", "’")) else text


@cached_line
def normalise(text: str) -> str:
    """Lower case, typos fixed, shorthand spelt out, numbers in words as digits, units attached."""
    lowered = _OCTETS.sub(r"\1 \2B\3", delatex(unrepl(text))).lower().replace("’", "'").replace("‘", "'").replace("\u00a0", " ")
    lowered = typeset_marks(lowered)
    if " -- " in lowered:  # a typed dash ("2.0 TB/s card -- 85%"), not a minus or an arrow
        lowered = lowered.replace(" -- ", " — ")
    if _has(lowered, _MARKDOWN_MARKS):
        lowered = _MARKDOWN.sub("", lowered)
    if " o' " in lowered:  # "140 GB o' weights": "of", as Scots and some Englishes write it
        lowered = lowered.replace(" o' ", " of ")
    if " o " in lowered or " oot o " in lowered:  # "1.7 TB/s oot o 2.0, that's 75% o peak": Scots and Orcadian
        lowered = _SCOTS_OF.sub("of", lowered.replace(" oot o ", " out of "))
    if " de " in lowered or " den " in lowered:  # "1.7 TB/s de 2.0": Spanish "of"; "2 µs den wait": Kriol "then"
        lowered = _KRIOL_THEN.sub("then", _DE_OF.sub(" of ", lowered))
    if " uh de " in lowered:  # "17% uh de 2.0 TB/s card": "of the", as Bajan English writes it
        lowered = lowered.replace(" uh de ", " of the ")
    if "in'" in lowered:  # "savin'", "haulin'": the g dropped, as some Englishes write it (before quotes are read)
        lowered = _G_DROPPED.sub(r"\1ing", lowered)
    if _has(lowered, _QUOTE_MARKS):
        lowered = _QUOTES.sub("", lowered)
    lowered = re.sub(r"[a-z]+", lambda m: _correct(m.group(0)), lowered)
    lowered = decimal_commas(lowered)
    lowered = spaced_thousands(lowered)
    # Numbers in words first, so that a unit spelt out after one is read as after a digit ("seventy terabytes").
    lowered = numbers_in_words(lowered)
    if _has(lowered, _FRACTION_WORDS):
        lowered = _fractions(lowered)
    for pattern, replacement, needles in _SHORTHAND:
        if _has(lowered, needles):
            lowered = pattern.sub(replacement, lowered)
    if "b" in lowered:  # a model's size ("7b × 2 bytes", "a 70b model") is billions of parameters, not bytes
        lowered = _BILLIONS.sub(lambda m: f"{m[1] or m[2] or m[3]}e9", lowered)
    if "m" in lowered:
        lowered = _MILLIONS.sub(lambda m: f"{m[1]}e6", lowered)
    if "illion" in lowered:  # digits with a scale in words ("7 billion × 2 bytes"): one number
        lowered = _DIGITS_SCALED.sub(lambda m: f"{m[1]}e{_SCALE_EXPONENT[m[2]]}", lowered)
    if "_" in lowered:  # Python's 40_000 in a learner's line (a field of a form refuses it); snake_case as words
        lowered = unsnake(_DIGIT_GROUP.sub("", lowered))
    if ":" in lowered or "=" in lowered:  # "floor ms per token: 47" (a config's key carries the unit) is "floor: 47 ms"
        lowered = _KEYED_UNIT.sub(_unit_after, lowered)
    if "—" in lowered or "–" in lowered:  # "something other than the tensor cores — memory — is the limit"
        lowered = _APPOSITION.sub(r" \1 ", lowered)
    if "ish" in lowered:  # "1356-ish", "21ish tok/s": about the number
        lowered = _ISH.sub(r"\1", lowered)
    if " time " in lowered:  # "4,096 time smaller", "87 time over di ridge": "times" as some Englishes say it
        lowered = _TIME_FOR_TIMES.sub(r"\1 times \2", lowered)
    if "size" in lowered:  # "1/4,096 the size of A2's tensor" is "4,096× smaller than A2's"
        lowered = _SIZE_FRACTION.sub(r"a size \1× smaller than", lowered)
    lowered = _TIMES.sub("×", lowered)
    if " x " in lowered:  # "3 matrices x 4096^2 x 2 B": a count of things times a number is a product too
        lowered = _TIMES_AFTER_THINGS.sub(r"\1 × ", lowered)
    lowered = _PERCENT.sub("%", lowered)
    return _MICROSECONDS.sub(" µs", lowered) if "us" in lowered else lowered


# A speed-up said in words ("compile doubled the speed", "a threefold win", "twice as fast"): read as the multiplier.
_FOLD_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_FOLD = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten)fold\b")
_MULTIPLIED = {"doubl": 2, "tripl": 3, "quadrupl": 4}
_SPEED_MULTIPLIED = re.compile(r"\b(?P<verb>doubl|tripl|quadrupl)(?:ed|es|ing)\s+(?:the\s+|its\s+|our\s+)?"
                               r"(?P<noun>speed|throughput|performance|perf|(?:tensor[- ](?:core\s+)?|math\s+|compute\s+)?(?:peak"
                               r"|flop/s|flops))\b"
                               r"|\b(?P<noun2>speed|throughput|performance|perf)\s+(?P<verb2>doubl|tripl|quadrupl)(?:ed|es)\b"
                               r"|\btwice as (?:fast|quick)\b")


_MODAL_MULTIPLIED = re.compile(r"\b(?P<modal>(?:could|would|will|can|might|may)(?:\s+(?:roughly|nearly|about|easily|almost"
                               r"|more than|at least|then|still))?)\s+(?P<verb>doubl|tripl|quadrupl)e\s+(?:it|that|this)\b")


def _speed_in_words(text: str) -> str:
    if "fold" in text:
        text = _FOLD.sub(lambda m: f"{_FOLD_WORDS[m[1]]}×", text)
    if not any(w in text for w in ("doubl", "tripl", "quadrupl", "twice as")):
        return text

    def said(m: re.Match[str]) -> str:
        verb = m["verb"] or m["verb2"]
        return f"{_MULTIPLIED[verb]}× faster" if verb else "2× faster"
    text = _SPEED_MULTIPLIED.sub(said, text)
    # "a good tune could roughly triple it": what it is said of is the kernel's speed
    return _MODAL_MULTIPLIED.sub(lambda m: f"{m['modal']} make it {_MULTIPLIED[m['verb']]}× faster", text)


# A capital SI prefix standing alone after a number, before an operator or what it counts ("137 G / 101 M ≈ 1.36 k",
# "312 T / 2 T"): a power of ten, which lower-casing would turn into grams and metres.
_BARE_PREFIX = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([KMGT])(?=\s*(?:[/÷×*≈=~,;)]|$)|\s+(?:flops?|bytes?|elements?"
                          r"|params?|parameters|values|ops)\b)")
_PREFIX_POWER = {"K": 3, "M": 6, "G": 9, "T": 12}
# A FLOP rate shortened to its prefix and an F after a number ("312 TF / 2 TB/s card", "989 TF"), lower-cased later.
_SHORT_FLOP_RATE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([GTP])F(?![\w/])")
# A range with its scale said once, after its far end: "1.36–1.37 thousand FLOP/byte" is 1.36e3–1.37e3 FLOP/byte.
_RANGE_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?[–-]\s?(\d+(?:\.\d+)?)\s+(thousand|million|billion)\b")
_SCALE_POWER = {"thousand": 3, "million": 6, "billion": 9}


@cached_line
def with_units(text: str) -> str:
    """Normalised text with SI prefixes upper-cased ("1.7tb/s" → "1.7 TB/s") and "/token" read as "per token"."""
    if _SHORT_FLOP_RATE.search(text):
        text = _SHORT_FLOP_RATE.sub(lambda m: f"{m[1]} {m[2]}FLOP/s", text)
    if _BARE_PREFIX.search(text):
        text = _BARE_PREFIX.sub(lambda m: f"{m[1]}e{_PREFIX_POWER[m[2]]}", text)
    text = _BINARY_UNIT.sub(lambda m: f"{m[1]} {m[2].upper()}i{m[3].replace('b', 'B', 1)}",
                            _PER_STEP.sub(r" per \1", _speed_in_words(normalise(text))))
    if any(w in text for w in ("thousand", "million", "billion")):
        text = _RANGE_SCALED.sub(lambda m: f"{m[1]}e{_SCALE_POWER[m[3]]}–{m[2]}e{_SCALE_POWER[m[3]]}", text)
    return _PREFIXED_UNIT.sub(lambda m: f"{m[1]} {m[2].upper()}{m[3].replace('b', 'B', 1) if m[3][0] == 'b' else m[3]}",
                              text)


def _before(text: str, start: int) -> str:
    """The words just before ``start`` in the same clause (at most ``_WINDOW`` characters: negation is near)."""
    window = text[max(0, start - _WINDOW):start]
    # A full stop right against the phrase joins a name ("torch.cuda.synchronize"), it does not end a clause.
    ends = [m.end() for m in _CLAUSE_END.finditer(window) if not (m.group() == "." and m.end() == len(window))]
    return window[ends[-1]:] if ends else window


def _after(text: str, end: int) -> str:
    """The words just after ``end`` in the same clause (at most ``_WINDOW`` characters)."""
    window = text[end:end + _WINDOW]
    found = _CLAUSE_END.search(window)
    return window[:found.start()] if found else window


#: A word that denies what a matched phrase says from inside it ("do not move it to the CPU", "isn't memory-bound").
NEGATION = re.compile(r"\b(?:not|never|no|don'?t|avoid\w*|without)\b|n't")


def negated(text: str, start: int, end: int) -> bool:
    """Whether the phrase at ``text[start:end]`` (normalised text) is denied within its clause."""
    before = _before(text, start)
    cues = list(_BEFORE.finditer(before))
    if cues and len(before[cues[-1].end():].split()) <= _NEGATION_REACH:
        return True
    return bool(_AFTER.search(_after(text, end)))


def in_context(text: str, start: int) -> bool:
    """Whether the phrase at ``start`` only describes the kernel ("a kernel already on tensor cores")."""
    return bool(_CONTEXT.search(_before(text, start)))


def added(text: str, start: int) -> bool:
    """Whether the phrase at ``start`` is put in ("add torch.cuda.synchronize() after each step"), not denied."""
    before = _before(text, start)
    cues = list(_ADDING.finditer(before))
    if not cues or len(before[cues[-1].end():].split()) > _NEGATION_REACH:
        return False
    return not _BEFORE.search(before[:cues[-1].start()])


# What fusion does not do: cut FLOPs, or make the math itself faster ("fusing a relu into a GEMM cuts the GEMM's
# FLOPs", "the compiled kernel maps the multiply-add onto tensor cores and so raises arithmetic throughput").
_FUSION_DOES_MATH = re.compile(r"\b(?:cut(?:s|ting)?|reduc(?:es?|ing)|remov(?:es?|ing)|lower(?:s|ing)?|sav(?:es?|ing)"
                               r"|delet(?:es?|ing))\b"
                               # the figure of what it cuts may stand between ("remove 4096^2 = 1.68e7 of the FLOPs")
                               r"(?:\s+(?:\d[\d.,^e+]*|[=≈~]))*"
                               r"(?:\s+(?!no\b|not\b|zero\b|none\b|nothing\b)[\w'’-]+){0,3}?\s+"
                               r"(?:flops\b|flop count|(?:operation|op) count|number of flops|arithmetic\b)"
                               r"|\b(?:fewer|less)\s+(?:[\w-]+\s+)?(?:calculations?|math|operations|flops|arithmetic"
                               r"|multipl\w*|computation)\b"
                               r"|\b(?:raises?|raising|higher|increases?|boosts?)\s+(?:the\s+)?occupancy\b|\bmore warps\b"
                               r"|\b(?:raises?|increases?|boosts?)\s+(?:the\s+)?(?:arithmetic|math|compute|flop)\s+"
                               r"(?:throughput|rate|speed)\b|\bonto (?:the )?tensor cores\b"
                               r"|\bon (?:the )?tensor[- ]cores (?:instead of|rather than)\b"
                               # fusion said to put the work on the tensor cores ("it lets the chain use the tensor cores")
                               r"|\b(?:fus|compil)\w*\b(?:(?!\b(?:already|which|that|not|never|no|nothing|whose)\b)(?:[^.;!?]|\.(?=\d))){0,80}?"
                               r"\b(?:lets?|letting|allows?|enabl\w*|so)\s+(?:it|them|the\s+[\w-]+)\s+(?:to\s+)?use\s+(?:the\s+)?"
                               r"tensor[- ]cores\b"
                               # ... or to make the math units faster ("fusion lets the tensor cores run faster")
                               r"|\b(?:fus|compil)\w*\b(?:(?!\b(?:already|which|that|not|never|no|nothing|whose)\b)(?:[^.;!?]|\.(?=\d))){0,80}?"
                               r"\b(?:lets?|letting|allows?|enabl\w*|makes?|making|helps?)\s+(?:the\s+)?(?:tensor[- ]cores|alus?"
                               r"|math units?|sms?|math|arithmetic)\s+(?:to\s+)?(?:run|go|work|compute|crunch|be)\s+faster\b")


# The FLOP count said to fall by what the line offers ("chunked prefill cuts the prefill FLOPs 4×", "it would reduce
# the math"): a verb said of a subject, not "or fewer FLOPs", which offers fewer FLOPs as a lever of its own.
_FLOPS_CUT = re.compile(r"\b(?:(?:cuts|reduces|removes|lowers|saves|deletes|divides|shrinks|slashes|trims|halves)"
                        r"|(?:would|will|can|could|to) (?:cut|reduce|remove|lower|save|delete|divide|shrink|slash|trim|halve))\b"
                        r"(?:\s+(?!no\b|not\b|zero\b|none\b|nothing\b)[\w'’-]+){0,3}?\s+"
                        r"(?:flops\b|flop count|(?:operation|op) count|number of flops|arithmetic\b|math\b)(?!\s+time)"
                        # "to bring the FLOPs down", "brings the FLOP count down"
                        r"|\b(?:bring|brings|bringing|get|gets|knock|knocks)\s+(?:the\s+)?(?:flops|flop count|math)\s+down\b")


def flops_cut(lowered: str) -> re.Match[str] | None:
    """Where the text (normalised) says what it offers cuts the FLOP count, not denied; None where it does not."""
    found = _FLOPS_CUT.search(lowered)
    if found is None or negated(lowered, found.start(), found.end()) or _FUSION_DENIED.search(
            lowered[max(0, found.start() - 60):found.start()]):
        return None
    return found


# What denies the misstatement that follows: "zero fewer FLOPs", "no fusion of a relu reduces its operation count".
_FUSION_DENIED = re.compile(r"(?:\bzero|\bnot any|\bno)\s*$|\b(?:no|never a)\s+(?:[\w-]+\s+)?fus\w*\b[^.;:!?]*$")


# What fusion does not cure either: a host sync ("the .item() sync goes away if you fuse", "fusing removes the sync").
# The host waits because the code asks for a value; a fused kernel still hands it back.
_FUSION_CURES_SYNC = re.compile(r"\bfus\w*\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)[^.;!?,]){0,30}?"
                                r"\b(?:removes?|eliminat\w*|kills?|gets? rid of|deletes?)\s+(?:the\s+|a\s+|that\s+)?"
                                r"(?:host\s+)?(?:sync\w*|\.?item\(\))"
                                r"|(?:\bsync\w*|\.?item\(\))[^.;!?]{0,25}?\b(?:goes away|go away|disappears?|vanish\w*|is gone)"
                                r"\b[^.;!?]{0,20}?\b(?:if|when|once|after)\s+(?:you\s+)?fus\w*")


# Fusion said to win by using more of the bandwidth ("compile closed that bandwidth gap", "the 85% unused, and
# fusing filled it"): it moves fewer bytes; the roof it moves them under is the same.
_FUSION_FILLS_BANDWIDTH = re.compile(
    r"\b(?:fus\w*|compil\w*)\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)[^.;!?]){0,40}?"
    r"\b(?:fill\w*|clos\w*|us(?:e|es|ed|ing) up|reclaim\w*|soak\w* up)\s+(?:up\s+)?(?:the\s+|that\s+|this\s+)?"
    r"(?:(?:unused|remaining|idle|spare|missing|leftover|left-over)\s+)?(?:bandwidth|bw)(?:\s+gap)?\b"
    r"|\b(?:fill\w*|clos\w*|us(?:e|es|ed|ing) up|reclaim\w*)\s+(?:the\s+|that\s+|this\s+)?(?:remaining\s+|unused\s+)?"
    r"(?:bandwidth|bw)(?:\s+gap)?\b(?=[^.;!?]{0,40}\b(?:fus\w*|compil\w*))"
    # the unused bandwidth named first, then filled by fusion ("85% … unused, and fusing filled it")
    r"|\b(?:unused|remaining|idle|spare|leftover)\b[^.;!?]{0,60}?\b(?:fus\w*|compil\w*)\s+(?:\w+\s+)?"
    r"(?:fill\w*|clos\w*|us(?:e|es|ed|ing) up|reclaim\w*)\s+(?:it|that|them|this)\b"
    # fusion said to raise the bandwidth itself ("fusion raises effective bandwidth"), not to cut the bytes moved
    r"|\b(?:fus\w*|compil\w*)\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)[^.;!?]){0,40}?"
    r"\b(?:rais\w*|increas\w*|boost\w*|improv\w*|lift\w*)\s+(?:the\s+)?(?:effective\s+|achieved\s+)?(?:memory\s+)?"
    r"(?:bandwidth|bw)\b(?![^.;!?]{0,40}\b(?:fewer|less traffic|cutting|deleting|removing|moving less))"
    # the same passes said to run faster ("compile gets its 3.8× by running the same passes at full bandwidth")
    r"|\b(?:fus\w*|compil\w*)\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)(?:[^.;!?]|\.(?=\d))){0,60}?"
    r"\b(?:running|runs?|doing|does|making|makes|moving|moves)\s+the\s+same\s+(?:passes|round[- ]?trips|traffic|bytes"
    r"|reads(?: and writes)?)\b[^.;!?]{0,20}?(?:\bfaster\b|\b(?:at|with)\s+(?:full|peak|higher|more|100%)\s+"
    r"(?:bandwidth|bw|speed)\b)")


# Fusion said to cut the weights' bytes ("fusing the decode kernels would cut the weight traffic"): each weight is
# read once a token, fused or not; fusion deletes the intermediates' round trips.
_FUSION_CUTS_WEIGHTS = re.compile(
    r"\b(?:fus\w*|compil\w*)\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)[^.;!?]){0,60}?"
    r"(?:\b(?:cut|reduc|halv|lower|shrink|sav|trim|remov|delet|eliminat|avoid|kill)\w*\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:model'?s?\s+)?weights?'?\s*(?:traffic|bytes|reads?|streaming|loads?)\b"
    # "decode would stop re-reading weights", "keeps the weights on-chip between layers"
    r"|\bstop\w*\s+(?:re-?)?read\w*\s+(?:the\s+|its\s+)?weights\b"
    r"|\bkeep\w*\s+(?:the\s+|its\s+|all\s+(?:the\s+)?)?weights\s+(?:on[- ]chip|in\s+(?:sram|smem|shared memory|registers|l2|cache))\b"
    # "takes the weight traffic out", "gets the weight reads out of the way"
    r"|\b(?:tak|get|pull)\w*\s+(?:the\s+)?(?:model'?s?\s+)?weights?'?\s*(?:traffic|bytes|reads?|loads?)\s+out\b)")


# Fusion said to add traffic ("fusing the relu actually adds a memory round trip"): it only ever deletes round trips
# and launches, by keeping the intermediate on chip.
_FUSION_ADDS_TRAFFIC = re.compile(
    r"\b(?:fus\w*|compil\w*)\b(?:(?!\b(?:not|never|no|cannot|can'?t|won'?t|doesn'?t)\b)[^.;!?]){0,60}?"
    r"\b(?:adds?|adding|added|introduc\w*|creat\w*|costs? you)\s+(?:an?\s+|one\s+|another\s+|more\s+)?(?:extra\s+)?"
    r"(?:memory\s+|hbm\s+|dram\s+)?(?:round[- ]?trips?|traffic|memory pass(?:es)?|reads? and writes?)\b")

def fusion_leaves(misstated: re.Match[str]) -> str:
    """What fusion leaves as it was, against what the misstatement has it do: the math, the host's wait, the roof."""
    if _FUSION_CUTS_WEIGHTS.fullmatch(misstated.group()):
        return "the weights' bytes as they were: each weight is read once a token, fused or not"
    if _FUSION_CURES_SYNC.fullmatch(misstated.group()):
        return "the host sync in place: the host waits while the code asks for a value (.item(), a print)"
    if _FUSION_ADDS_TRAFFIC.fullmatch(misstated.group()):
        return "no traffic of its own: it keeps the intermediate on chip, so it only ever removes round trips"
    if _FUSION_FILLS_BANDWIDTH.fullmatch(misstated.group()):
        return "the bandwidth roof as it was: it wins by moving fewer bytes, not by moving them faster"
    return "the FLOPs and the math units' speed as they were"


def fusion_misstated(lowered: str) -> re.Match[str] | None:
    """Where the text (normalised) says fusion does the math's work (less math, more occupancy) or a sync's cure."""
    found = (_FUSION_DOES_MATH.search(lowered) or _FUSION_CURES_SYNC.search(lowered)
             or _FUSION_FILLS_BANDWIDTH.search(lowered) or _FUSION_CUTS_WEIGHTS.search(lowered)
             or _FUSION_ADDS_TRAFFIC.search(lowered))
    if found is None or negated(lowered, found.start(), found.end()) or _FUSION_DENIED.search(
            lowered[max(0, found.start() - 60):found.start()]):
        return None
    return found
