"""A learner's write-up as data: parsed and checked, never trusted.

The attempt file::

    {"part_a": {"a1": {"regime": "...", "evidence": "...", "helps": "...", "wastes": "..."}, ...},
     "part_b": {"ridge": N, "kernels": {"add": {"intensity": N, "side": "below", "optimisation": "..."}, ...}},
     "part_c": "..."}

Every part is optional; what is missing is graded as not attempted.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from regime_core.catalogue.quantity import Dim, parse, plain_numbers, quantities_in, quantity_spans
from regime_core.content import drill
from regime_core.errors import RegimeError
from regime_core.grading.language import (
    decimal_commas,
    delatex,
    numbers_in_words,
    spaced_thousands,
    typeset_marks,
    unrepl,
)

#: The longest text any line of an attempt may hold; the page's text boxes allow no more.
MAX_TEXT = 10_000
#: The largest attempt file the page imports, in bytes (so at most as many characters): far above the largest
#: valid attempt (36 lines of MAX_TEXT characters), far below what would stall a browser tab.
MAX_IMPORT_BYTES = 1_000_000
PART_A_FIELDS = ("regime", "evidence", "helps", "wastes")
KERNEL_FIELDS = ("intensity", "side", "optimisation")
SIDES = ("below", "above")


@dataclass(frozen=True)
class KernelAttempt:
    """One Part B row as the learner wrote it."""

    intensity: float | None = None
    side: str = ""
    optimisation: str = ""
    #: The fields whose text could not be read ("intensity", "side"), each as the learner wrote it: graded "could
    #: not tell", never a refusal of the whole write-up.
    unread: tuple[tuple[str, str], ...] = ()
    #: The intensity field's words, where it has any beside its number ("1.37e11 ÷ 1.01e8 ≈ 1,356, ~8.7× the
    #: ridge"): its written arithmetic is checked.
    said: str = ""
    #: The side field as written ("above the ridge, by roughly 9×"): how far it says the kernel is, is checked.
    side_said: str = ""


@dataclass(frozen=True)
class Attempt:
    """The whole write-up."""

    part_a: dict[str, dict[str, str]] = field(default_factory=dict)
    ridge: float | None = None
    kernels: dict[str, KernelAttempt] = field(default_factory=dict)
    part_c: str = ""
    ridge_unread: str = ""  # the ridge as written, where it could not be read
    ridge_said: str = ""  # the ridge field's words, where it has any beside its number ("156: above it, compute")


def _mapping(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RegimeError(where, f"expected an object, got {type(value).__name__}")
    return value


def _or_empty(value: object) -> object:
    """A missing part (absent or null) is an empty one; anything else is checked as given."""
    return {} if value is None else value


def _text(value: object, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RegimeError(where, f"expected text, got {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise RegimeError(where, f"expected at most {MAX_TEXT:,} characters, got {len(value):,}")
    return value.strip()


def _known(data: Mapping[str, object], allowed: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in allowed:
            shown = str(key)[:30]
            raise RegimeError(f"{where}.{shown}" if where else shown, f"unknown field; expected {', '.join(allowed)}")


# What a field's text gives when it shows its working: the result after the last "=" or "≈" ("1.68e7/5.03e7 ≈ 0.33"),
# else an intensity it opens with ("0.33 FLOP/B (3·1.68e7·2 B = 1.01e8 bytes)", "something like 1360 FLOP/byte").
# Either stands alone in its place (a mark, a comma or a bracket may follow): "alert(1)" or "1=1 --" states nothing.
_RESULT = re.compile(r"=|≈|≃|~|→|->|\bi\.e\.|\bthat is\b|\b(?:is|gives|comes to|makes)\b(?:\s+(?:like|about|roughly|around))?"
                     r"|:(?=\s)")
_LEAD_IN = re.compile(r"^\s*(?:something like|about|around|roughly|approx\.?|approximately|circa|some|nearly|almost"
                      r"|just (?:under|over)|like|maybe|probably|~|≈)?\s*", re.I)
# A hedge after the number ("~0.33 I think", "1360 or so") and a comment after it ("0.334  # 1.68e7 / 5.03e7").
_HEDGE_AFTER = re.compile(r"\s+(?:i think|i guess|i believe|probably|or so|-?ish|if i'?m right)\s*[.!?]*\s*$", re.I)
_COMMENT = re.compile(r"\s#\s.*$|^\s*#\s*")
# A config key before the value ("ridge_flop_per_byte: 156").
_KEY = re.compile(r"^\s*[a-z][a-z0-9_]*\s*:\s*(?=[\d~≈.])", re.I)
_ALONE = re.compile(r"\s*(?:$|[,;(.)\]:—–]|\s-\s)")
# What a field may hold beside its number that is not part of it: emoji and arrows ("0.33 ⬇️"), and the unit
# and the fractions spelt out ("some 1,360 FLOP per byte", "roughly a third of a FLOP per byte").
_PICTURES = re.compile("[\u2190\u2191\u2193-\u21d1\u21d3-\u21ff\u2b00-\u2bff\u2600-\u27bf\ufe0f\u200d"
                       "\U0001f000-\U0001faff]")  # arrows but → and ⇒, which lead to a result
_LIST_MARK = re.compile(r"^\s*(?:[•*–]|-(?![\d.]))\s*")  # a list's bullet, not a minus sign ("-1" stays -1)
_PER_BYTE = re.compile(r"\b(?:of an? )?(?:flops?|math operations?|operations?|ops)\s+(?:per|a|an|for each|for every|to the|to a)"
                       r"\s+(?:bytes?|b)\b"
                       r"|\bF/B\b", re.I)
_FRACTION = {"third": 1 / 3, "quarter": 0.25, "half": 0.5, "fifth": 0.2, "tenth": 0.1}
_A_FRACTION = re.compile(r"\b(?:a|one) (third|quarter|half|fifth|tenth)\b", re.I)
_ONE = re.compile(r"\bone\b(?=\s+FLOP/byte)|^\W*(?:about|around|roughly|approximately|~|≈)?\s*\bone\b(?=\W*$)", re.I)


# Where a field's own check of its result begins ("— check: 0.334 × 5.03e7 ≈ 1.68e7, yes").
_CHECKED = re.compile(r"\s[—–-]+\s*(?:check|verify|sanity)\w*|\(?\b(?:check|verify|sanity check)\w*\s*:", re.I)
# How far from the ridge, said after the intensity ("0.33 (about 470× below the ridge)", "1356, ~8.7× the ridge").
_HOW_FAR_REMARK = re.compile(r"\s*(?:\(|[,;—–](?=\s)|\s-\s)\s*(?:about|around|roughly|approx\.?|approximately|some|i\.e\.|~|≈)?"
                             r"\s*\d[\d.,]*\s*(?:×|x|times)\s*(?:(?:below|under|above|over|beyond|past|left of|right of|beneath"
                             r"|from|off|less than|more than)\b\s*(?:(?:the|its|a)\s+)?(?:ridge\b|it\b)?|(?:the\s+)?ridge\b)"
                             r"[^)\n]{0,40}?\)?\s*$", re.I)
# The working after a result, in brackets: "0.334 (1.68e7 ÷ 5.03e7)".
_WORKING_AFTER = re.compile(r"(?<=\d)\s*\(\s*~?[\d.,]+(?:e[+-]?\d+)?\s*(?:÷|/|over)\s*~?[\d.,]+(?:e[+-]?\d+)?\s*\)\s*$", re.I)
# A fraction of the unit ("1/3 FLOP/byte"): its value.
_UNIT_FRACTION = re.compile(r"(?<![\d.])(\d{1,2})\s*/\s*(\d{1,2})\s*(?=FLOP/byte)")
# A number or a number word right before another: the two are one number read in parts ("one fifty six").
_RUN_BEFORE = re.compile(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|hundred|thousand))\s+$",
                         re.I)
_DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9"}
_POINT_WORDS = re.compile(r"\bpoint((?:\s+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b)+)", re.I)
_THOUSANDS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)k\b", re.I)


def _lenient(text: str) -> str:
    """A Part B field's text with what is not its number or unit set aside, for the lenient reading."""
    text = _LIST_MARK.sub("", _PICTURES.sub(" ", text)).rstrip(" ?")  # "~1360?": said with a doubt, still said
    # "point three three" is 0.33, read first so that working after it is seen as working ("Point three three (…)")
    text = _POINT_WORDS.sub(lambda m: "0." + "".join(_DIGIT_WORDS[w.lower()] for w in m[1].split()), text)
    text = _CHECKED.split(text, maxsplit=1)[0]  # "= 0.334 — check: 0.334 × 5.03e7 ≈ 1.68e7": the check is not the result
    text = _HOW_FAR_REMARK.sub("", text)  # "1/3 FLOP/byte (about 470× below the ridge)": how far is checked on its own
    text = _WORKING_AFTER.sub("", text)  # "0.334 (1.68e7 ÷ 5.03e7)": the working after the result, in brackets
    before_comment = _COMMENT.sub("", text) if not text.lstrip().startswith("#") else text.lstrip()[1:]
    text = _KEY.sub("", _HEDGE_AFTER.sub("", before_comment.split("  #")[0].split(" # ")[0]))
    # "1.36k" is 1360, and "1'356" (a Swiss thousands mark) 1356
    text = typeset_marks(text)
    text = _THOUSANDS.sub(lambda m: f"{float(m[1]) * 1000:g}", text)
    text = _PER_BYTE.sub("FLOP/byte", text)
    text = _UNIT_FRACTION.sub(lambda m: f"{int(m[1]) / int(m[2]):.3g} " if int(m[2]) else m.group(), text)
    text = _A_FRACTION.sub(lambda m: f"{_FRACTION[m[1].lower()]:.3g}", text)
    text = spaced_thousands(" ".join(text.replace("\u202f", " ").replace("\u00a0", " ").split()))
    return " ".join(numbers_in_words(decimal_commas(_ONE.sub(lambda m: m.group()[:-3] + "1", text))).split())


def _opening(text: str, *, typed: bool) -> float | None:
    """The number ``text`` opens with, standing alone (an intensity only, where ``typed``)."""
    body = text[_LEAD_IN.match(text).end():]  # type: ignore[union-attr]  # the pattern matches any text
    spans = quantity_spans(body)
    if not spans or spans[0][2] != 0:
        return None
    value, dim = spans[0][0], spans[0][1]
    if not _ALONE.match(body, spans[0][3]):
        return None
    # A bare number typed with a remark that holds no other number ("0.33 (well below)"), or only itself again
    # ("About 156 — the card does 156 math operations a byte"), is that number.
    others = [v for v, _, _, _ in quantity_spans(body[spans[0][3]:])]
    bare = dim is Dim.COUNT and (not typed or all(math.isclose(v, value, rel_tol=0.05) for v in others))
    return value if dim is Dim.INTENSITY or bare else None


def _stated(text: str) -> float | None:
    """The number a Part B field's text states, where the text is more than a number; None if it states none.

    The last result of its working that stands alone ("1 FLOP / 6 B ≈ 0.167 (fp16 a+b→c)" is 0.167, the
    arrow inside the remark aside), else the intensity it opens with.
    """
    plain = plain_numbers(re.sub(r"[*`]", "", text))
    parts = _RESULT.split(plain)
    # A field that gives an intensity in its unit keeps it against working beside it that is not one
    # ("0.33 FLOP/B (memory time ≈ 5.03e7 / 2e12 ≈ 25 µs)", "1.37e11/1.01e8 ≈ 1356 FLOP/B. Math ≈ 1.37e11/312e12 ≈
    # 439 µs vs bytes ≈ 1.01e8/2e12 ≈ 50 µs": times worked out beside it)
    typed = any([dim for _, dim in quantities_in(p)[:1]] == [Dim.INTENSITY] for p in parts)
    for part in reversed(parts[1:]):
        if typed and [dim for _, dim in quantities_in(part)[:1]] != [Dim.INTENSITY]:
            continue
        result = _opening(part, typed=False)
        if result is None and "/" in part:  # a result written as a fraction ("≈ 1/3")
            result = _quotient(part.strip())
        if result is not None:
            return result
    return _opening(plain, typed=True)


# A quotient of two quantities, each with or without its unit: "312 TFLOP/s / 2 TB/s", "312e12/2e12", "(312)/(2)".
_DIVIDE = re.compile(r"/|÷|\bover\b|\bdivided by\b", re.I)
_QUOTIENTS = {(Dim.FLOP_RATE, Dim.BYTE_RATE), (Dim.FLOP, Dim.BYTE), (Dim.COUNT, Dim.COUNT)}


def _one_quantity(text: str) -> tuple[float, Dim] | None:
    """The one quantity ``text`` is (brackets and spaces around it aside), or None."""
    body = plain_numbers(text.strip().strip("()").strip())
    spans = quantity_spans(body)
    if len(spans) != 1 or spans[0][2] != 0 or spans[0][3] != len(body):
        return None
    return spans[0][0], spans[0][1]


def _quotient(text: str) -> float | None:
    """The value of a written quotient of two quantities, where their units make an intensity.

    Each division sign is tried as the one that divides, since a unit holds one too ("TFLOP/s").
    """
    if len(text) > 200:
        return None
    for sign in _DIVIDE.finditer(text):
        a, b = _one_quantity(text[:sign.start()]), _one_quantity(text[sign.end():])
        if a is not None and b is not None and b[0] and (a[1], b[1]) in _QUOTIENTS:
            return a[0] / b[0]
    return None


_BARE_QUOTIENT_THEN_RESULT = re.compile(
    r"^\s*(?P<a>\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(?:/|÷|over)\s*(?P<b>\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*[,;:]?\s*"
    r"(?:about|around|roughly|approx\w*\.?|≈|~|so|i\.e\.|that'?s|which is|=)\s*~?\s*(?P<result>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|one)\s*$",
    re.I)


def _bare_quotient_then_result(text: str) -> float | None:
    """The result of "a over b, about r" where a ÷ b comes to r (within 10%), else None."""
    found = _BARE_QUOTIENT_THEN_RESULT.match(text)
    if found is None or not float(found["b"]):
        return None
    result = 1.0 if found["result"].lower() == "one" else float(found["result"].replace(",", ""))
    return result if math.isclose(float(found["a"]) / float(found["b"]), result, rel_tol=0.1) else None


def _number(value: object, where: str, *, strict: bool = True) -> float | None:
    """A Part B number; text that states none raises (``strict``) or gives ``math.nan`` (could not be read)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return parse(value, where, Dim.INTENSITY, allow_zero=True)
    except RegimeError:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise
        text = _lenient(delatex(unrepl(value)))
        stated = _stated(text)
        if stated is None:
            parts = _RESULT.split(plain_numbers(text))
            stated = _quotient(parts[0]) if len(parts) == 1 else None
        if stated is None:  # "1.37e11 / 1.01e8, about 1,360 FLOP/byte": the intensity it names last
            plain = plain_numbers(text)
            # not one read out of a run of numbers ("one fifty six" read as 1 and 56): that run is no one number
            named = [v for v, d, start, _ in quantity_spans(plain) if d is Dim.INTENSITY
                     and not _RUN_BEFORE.search(plain[:start])]
            stated = named[-1] if named else None
        if stated is None:  # "1.37e11 over 1.01e8, about 1,360": a bare quotient, then the result it comes to
            stated = _bare_quotient_then_result(plain_numbers(text))
        if stated is None:
            try:
                stated = parse(text, where, Dim.INTENSITY, allow_zero=True)
            except RegimeError:
                if strict:
                    raise
                return math.nan
        return stated


#: Sides as people write them: "under", "left of the ridge", "below (by ~470×)", "<".
_SIDE_WORDS = {"below": re.compile(r"^(?:below|under|beneath|left|lower|less|<|≪|<<|(?:the )?(?:memory|bandwidth|bytes?)"
                                   r"[- ]side|memory[- ]bound|unterhalb|darunter|por debajo|debajo|en dessous|sous)\b|^[<≪]"),
               "above": re.compile(r"^(?:above|over|beyond|past|right|higher|more|greater|>|≫|>>|(?:the )?(?:compute|math|flops?)"
                                   r"[- ]side|compute[- ]bound|oberhalb|darüber|über|por encima|encima|au-dessus|au dessus)"
                                   r"(?![\w-])|^[>≫]")}
# Working before the side ("1356 > 156 → compute side"): the side is what the arrow leads to.
_SIDE_AFTER_WORKING = re.compile(r"(?:→|->|=>|:|\bso\b|\bhence\b|i\.e\.)\s*(?P<side>[^→:]*)$")


def _side(value: str) -> str | None:
    """The side a learner's text names, or None when it names neither or both."""
    plain = delatex(value).replace("\\gg", "≫").replace("\\ll", "≪").replace("\\approx", "≈")
    text = _LIST_MARK.sub("", _PICTURES.sub(" ", plain.lower())).strip(" .!*_`$")
    after = _SIDE_AFTER_WORKING.search(text)
    if after and re.match(r"[\d.,\s<>≪≫e×x]+$", text[:after.start()].replace("flop/byte", "").replace("flop/b", "")):
        text = after["side"].strip()
    # "≈ 2.7 decades below the ridge", "~470× under it": how far is said first, then the side.
    text = re.sub(r"^[~≈]?\s*[\d.,]+\s*(?:decades?|orders? of magnitude|×|x|times)\s+", "", text)
    # "I < R", "AI << ridge", "So isn't it far below the ridge, memory-bound?": the intensity named first, or asked.
    text = re.sub(r"^(?:so\s+)?(?:isn'?t|doesn'?t|is)\s+(?:it|that)\s+|^(?:i|ai|intensity)\s*(?=[<>≪≫])", "", text)
    text = re.sub(r"^(?:it(?:'s| is)|is|sits|far|well|way|much|just|slightly|weit|muy|bien|très)\s+", "", text)
    text = re.sub(r"^(?:far|well|way|much|just|slightly|weit|muy|bien|très)\s+", "", text)
    found = [side for side, pattern in _SIDE_WORDS.items() if pattern.search(text)]
    if len(found) != 1 and (concluded := _CONCLUSION.split(text)[-1].strip(" .")) != text:  # "I ≪ R ⇒ below"
        found = [side for side, pattern in _SIDE_WORDS.items() if pattern.search(concluded)]
    return found[0] if len(found) == 1 else None


#: Where a side's working ends and its conclusion begins ("I_mm ≈ 8.7 R > R ⇒ above").
_CONCLUSION = re.compile(r"⇒|=>|->|→|\b(?:so|hence|therefore|thus)\b")


#: Files people mistake for an attempt, told by a key of their own, with where to take them instead.
_OTHER_FILES = {
    "traceEvents": "this is a profiler trace, not an attempt file: read it on the Your trace page or with regime trace",
    "schemaVersion": "this is a profiler trace, not an attempt file: read it on the Your trace page or with regime trace",
    "practice": "this is an attempt at a practice incident: grade it on the Practice page or with regime grade",
    "observed": "this is a symptoms file, not an attempt file: read it with regime classify",
}


def parse_attempt(raw: object, *, strict: bool = False) -> Attempt:
    """Check an attempt object; a RegimeError names the first bad field.

    A Part B field whose text cannot be read is kept as unread (graded "could not tell"); with ``strict`` (the
    form's own check of one field as it is typed) it raises instead.
    """
    data = _mapping(raw, "attempt")
    if any(key in data for key in _OTHER_FILES):
        raise RegimeError("file", _OTHER_FILES[next(key for key in _OTHER_FILES if key in data)])
    # "learner": the name a learner puts in the file for a mentor's class report (read there, not graded);
    # "receipt": what graded the file on the page (grading/receipt.py), read by a mentor's report, not graded
    _known(data, ("part_a", "part_b", "part_c", "learner", "receipt"), "")
    if "learner" in data and not isinstance(data["learner"], str | None):
        raise RegimeError("learner", "expected the learner's name as text")
    ids = tuple(i.id for i in drill.incidents())
    part_a: dict[str, dict[str, str]] = {}
    for key, item in _mapping(_or_empty(data.get("part_a")), "part_a").items():
        if key not in ids:
            raise RegimeError(f"part_a.{str(key)[:30]}", f"unknown incident; expected one of {', '.join(ids)}")
        entry = _mapping(item, f"part_a.{key}")
        _known(entry, PART_A_FIELDS, f"part_a.{key}")
        texts = {name: _text(entry.get(name), f"part_a.{key}.{name}") for name in PART_A_FIELDS}
        if any(texts.values()):
            part_a[key] = texts
    part_b = _mapping(_or_empty(data.get("part_b")), "part_b")
    _known(part_b, ("ridge", "kernels"), "part_b")
    rows = tuple(r.id for r in drill.part_b())
    kernels: dict[str, KernelAttempt] = {}
    for key, row in _mapping(_or_empty(part_b.get("kernels")), "part_b.kernels").items():
        where = f"part_b.kernels.{str(key)[:30]}"
        if key not in rows:
            raise RegimeError(where, f"unknown kernel; expected one of {', '.join(rows)}")
        entry = _mapping(row, where)
        _known(entry, KERNEL_FIELDS, where)
        written_side = _text(entry.get("side"), f"{where}.side")
        side = _side(written_side) if written_side else ""
        unread = []
        if side is None:
            if strict:
                raise RegimeError(f"{where}.side", "expected below or above")
            side, unread = "", [("side", written_side)]
        intensity = _number(entry.get("intensity"), f"{where}.intensity", strict=strict)
        if intensity is not None and math.isnan(intensity):
            intensity, unread = None, [*unread, ("intensity", str(entry.get("intensity")))]
        written = entry.get("intensity")
        kernels[key] = KernelAttempt(intensity, side, _text(entry.get("optimisation"), f"{where}.optimisation"),
                                     tuple(unread), written[:MAX_TEXT] if isinstance(written, str) else "",
                                     written_side[:MAX_TEXT])
    ridge = _number(part_b.get("ridge"), "part_b.ridge", strict=strict)
    ridge_unread = ""
    if ridge is not None and math.isnan(ridge):
        ridge, ridge_unread = None, str(part_b.get("ridge"))[:200]
    said = part_b.get("ridge")
    ridge_said = said[:MAX_TEXT] if isinstance(said, str) and re.search(r"[a-zA-Z]{4}", said) else ""
    return Attempt(part_a, ridge, kernels, _text(data.get("part_c"), "part_c"), ridge_unread, ridge_said)
