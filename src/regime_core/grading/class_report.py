"""A class of write-ups graded at once: per learner, per item, and what the class got wrong together.

A mentor holds the attempt files the site's **Download JSON** writes, one per learner. Each is graded by the
same grader the pages run; the report says, per learner, the five criteria and the counts; per incident (and
Part B and Part C), how many named the right regime, which wrong regimes were given, and the misconceptions the
class shares: the grader's own reasons for a ✗, with the learner's quoted figures and words set aside so that one
mistake made by several learners is counted once, with one learner's line as its example. Lines the grader could
not tell are listed, so the mentor knows what to read by hand. A file that is not an attempt is refused by name;
the rest are graded.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from regime_core.catalogue.levers import advice
from regime_core.content import drill
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import regime_named
from regime_core.grading.grade import grade
from regime_core.grading.receipt import check as receipt_check

#: The items of a write-up, as the report names them (the site's keys for Parts B and C).
ITEMS: tuple[str, ...] = (*(i.id for i in drill.incidents()), "part-b", "part-c")
_GRADED_KEY = {"part-b": "part_b", "part-c": "part_c"}
#: How many misconceptions an item lists, most shared first.
MOST_MISCONCEPTIONS = 8


@dataclass(frozen=True)
class Submission:
    """One file of the class: where it came from, and its parsed JSON (or why it could not be read)."""

    file: str
    data: object = None
    unreadable: str = ""


@dataclass
class _Item:
    attempted: int = 0
    regime_right: int = 0
    regimes_given: Counter[str] = field(default_factory=Counter)
    misconceptions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # what → [(learner, example)]
    unsure: list[dict[str, str]] = field(default_factory=list)


def learner_name(file: str, data: object) -> str:
    """The learner's name: the file's own ``learner`` field, else the file name without its folder and suffix."""
    if isinstance(data, Mapping):
        named = data.get("learner")
        if isinstance(named, str) and named.strip():
            return " ".join(named.split())[:80]
    stem = re.split(r"[\\/]", file)[-1]
    return re.sub(r"\.json$", "", stem, flags=re.IGNORECASE) or file


_QUOTED = re.compile(r"[“\"][^”\"]{0,200}[”\"]")
_NUMBER = re.compile(r"[-−+]?\d[\d,.]*(?:e[-+]?\d+)?\s?(?:[kMGTP]?(?:FLOP/s|B/s|B|FLOP)|FLOP/byte|µs|ms|s|%|×)?")


def misconception(why: str) -> str:
    """A ✗'s reason with the learner's own words and figures set aside, so one mistake reads the same for all."""
    text = _QUOTED.sub("…", why.split(": ", 1)[0] if why.startswith(("Not ", "Your reason")) else why)
    text = _NUMBER.sub("…", text)
    return " ".join(text.split()).rstrip(".")


def _field(value: object, key: str) -> object:
    """``value[key]`` where ``value`` is an object, else None: a file's parts may be anything."""
    return value.get(key) if isinstance(value, Mapping) else None


def _line_of(data: Mapping[str, Any], item: str, check: str) -> str:
    """The learner's own words for one check, for an example."""
    if item == "part-c":
        text = data.get("part_c")
    elif item == "part-b":
        part_b = data.get("part_b")
        text = _field(part_b, "ridge") if check == "ridge" else _field(_field(part_b, "kernels"), check)
    else:
        text = _field(_field(data.get("part_a"), item), check)
    shown = text if isinstance(text, str) else "" if text is None else str(text)
    shown = " ".join(shown.split())
    return shown if len(shown) <= 160 else shown[:157] + "…"


def _regime_given(data: Mapping[str, Any], item: str) -> str | None:
    said = _field(_field(data.get("part_a"), item), "regime")
    if not isinstance(said, str) or not said.strip():
        return None
    named = regime_named(said)
    return advice(named).name if named else "unread"


def class_report(submissions: Iterable[Submission]) -> dict[str, Any]:
    """The class's report: ``learners``, ``items`` (per incident, ``part-b``, ``part-c``) and ``refused``."""
    learners: list[dict[str, Any]] = []
    refused: list[dict[str, str]] = []
    items = {key: _Item() for key in ITEMS}
    seen: dict[str, str] = {}
    for sub in submissions:
        if sub.unreadable:
            refused.append({"file": sub.file, "reason": sub.unreadable})
            continue
        try:
            result = grade(sub.data)
        except RegimeError as exc:
            refused.append({"file": sub.file, "reason": str(exc)})
            continue
        data: Mapping[str, Any] = sub.data if isinstance(sub.data, Mapping) else {}
        name = learner_name(sub.file, data)
        if name in seen:  # two files of one learner: both graded, the second named by its file
            name = f"{name} ({sub.file})"
        seen[name] = sub.file
        counts = Counter[str]()
        for key in ITEMS:
            graded = result["items"][_GRADED_KEY.get(key, key)]
            if not graded.get("attempted"):
                continue
            counts["attempted"] += 1
            item = items[key]
            item.attempted += 1
            checks: dict[str, Any] = graded["checks"]
            if key not in _GRADED_KEY:
                given = _regime_given(data, key)
                if given is not None:
                    item.regimes_given[given] += 1
                item.regime_right += checks.get("regime", {}).get("passed") is True
            verdict = graded.get("passed")
            counts["right" if verdict is True else "wrong" if verdict is False else "could_not_tell"] += 1
            for check, mark in checks.items():
                if mark.get("passed") is False:
                    what = f"{mark.get('label', check)}: {misconception(str(mark.get('why', '')))}"
                    item.misconceptions.setdefault(what, []).append((name, _line_of(data, key, check)))
                elif mark.get("passed") is None:
                    item.unsure.append({"learner": name, "check": str(mark.get("label", check)),
                                        "why": str(mark.get("why", ""))})
        learners.append({"name": name, "file": sub.file, "passed": result["passed"], "receipt": receipt_check(data),
                         "criteria": {str(c["id"]): c["passed"] for c in result["criteria"]},
                         "attempted": counts["attempted"], "right": counts["right"], "wrong": counts["wrong"],
                         "could_not_tell": counts["could_not_tell"]})
    return {"learners": learners, "items": {key: _item_json(item) for key, item in items.items()}, "refused": refused}


def _item_json(item: _Item) -> dict[str, Any]:
    shared = sorted(item.misconceptions.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:MOST_MISCONCEPTIONS]
    return {"attempted": item.attempted, "regime_right": item.regime_right,
            "regimes_given": dict(item.regimes_given.most_common()),
            "misconceptions": [{"what": what, "count": len(who), "learners": sorted({n for n, _ in who}),
                                "example": {"learner": who[0][0], "line": who[0][1]}} for what, who in shared],
            "could_not_tell": item.unsure}


_CRITERIA_SHORT = {"1": "regimes", "2": "A1 fusion refused", "3": "A4 MMA refused", "4": "ridge", "5": "Part B sides"}
_MARK = {True: "✓", False: "✗", None: "?"}


def _item_name(key: str) -> str:
    return {"part-b": "Part B", "part-c": "Part C"}.get(key, key.upper())


def markdown(report: Mapping[str, Any]) -> str:
    """The report as Markdown, for a course page or an issue."""
    out = ["# The class's write-ups", "", f"{len(report['learners'])} graded, {len(report['refused'])} refused.", "",
           "| learner | passing | " + " | ".join(_CRITERIA_SHORT.values())
           + " | attempted | right | wrong | could not tell | receipt |",
           "| --- | --- | " + " | ".join("---" for _ in _CRITERIA_SHORT) + " | ---: | ---: | ---: | ---: | --- |"]
    for learner in report["learners"]:
        marks = " | ".join(_MARK[learner["criteria"].get(k)] for k in _CRITERIA_SHORT)
        out.append(f"| {_cell(learner['name'])} | {_MARK[learner['passed']]} | {marks} | {learner['attempted']} |"
                   f" {learner['right']} | {learner['wrong']} | {learner['could_not_tell']} | {learner['receipt']} |")
    for key, item in report["items"].items():
        if not item["attempted"]:
            continue
        out += ["", f"## {_item_name(key)}", ""]
        if key not in _GRADED_KEY:
            given = ", ".join(f"{regime} {count}" for regime, count in item["regimes_given"].items())
            out.append(f"Right regime: {item['regime_right']} of {item['attempted']} (given: {given or 'none'}).")
        for m in item["misconceptions"]:
            out.append(f"- **{_cell(m['what'])}**: {m['count']} ({', '.join(_cell(n) for n in m['learners'])}); e.g."
                       f" {_cell(m['example']['learner'])}: “{_cell(m['example']['line'])}”")
        if item["could_not_tell"]:
            who = ", ".join(f"{_cell(u['learner'])} ({_cell(u['check'])})" for u in item["could_not_tell"][:12])
            out.append(f"- Read by hand (the grader could not tell): {who}")
        if not item["misconceptions"] and not item["could_not_tell"]:
            out.append("Every line of every learner who tried it passed.")
    out += ["", "Every file is graded afresh. A receipt is what the site wrote into the file when it graded it: "
            "“edited after grading” means the answers changed since; a file a learner holds can always be edited, "
            "receipt and all, so this catches slips, not cheats."]
    if report["refused"]:
        out += ["", "## Files not graded", ""]
        out += [f"- {_cell(r['file'])}: {_cell(r['reason'])}" for r in report["refused"]]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    """Learner text in one Markdown table cell or line: no pipes, no raw HTML, no line breaks."""
    return " ".join(str(text).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").split())


def csv_text(report: Mapping[str, Any]) -> str:
    """One row per learner, for a gradebook."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["learner", "file", "passing", *(f"criterion {k}" for k in _CRITERIA_SHORT), "attempted", "right",
                     "wrong", "could_not_tell", "receipt"])
    for learner in report["learners"]:
        writer.writerow([_spreadsheet_safe(learner["name"]), _spreadsheet_safe(learner["file"]),
                         _word(learner["passed"]), *(_word(learner["criteria"].get(k)) for k in _CRITERIA_SHORT),
                         learner["attempted"], learner["right"], learner["wrong"], learner["could_not_tell"],
                         learner["receipt"]])
    return buffer.getvalue()


def _word(passed: bool | None) -> str:
    return {True: "pass", False: "fail", None: "could not tell"}[passed]


def _spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula ("=HYPERLINK(…)" in a learner's name)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
