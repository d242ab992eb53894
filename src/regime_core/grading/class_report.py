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
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from regime_core.catalogue.levers import advice
from regime_core.content import drill
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import regime_named
from regime_core.grading.attempt import MAX_IMPORT_BYTES
from regime_core.grading.grade import grade
from regime_core.grading.practice_record import is_practice_record
from regime_core.grading.practice_record import read as read_practice_record
from regime_core.grading.receipt import NO_RECEIPT
from regime_core.grading.receipt import check as receipt_check
from regime_core.resources import parse_json_text

#: The items of a write-up, as the report names them (the site's keys for Parts B and C).
ITEMS: tuple[str, ...] = (*(i.id for i in drill.incidents()), "part-b", "part-c")
_GRADED_KEY = {"part-b": "part_b", "part-c": "part_c"}
#: The most files one class report grades; past it, the rest are named as not graded.
MAX_CLASS_FILES = 2000
#: How many misconceptions an item lists, most shared first.
MOST_MISCONCEPTIONS = 8


@dataclass(frozen=True)
class Submission:
    """One file of the class: where it came from, and its parsed JSON (or why it could not be read)."""

    file: str
    data: object = None
    unreadable: str = ""


def submission(file: str, text: str) -> Submission:
    """A file's text as one submission: parsed, or why it cannot be (the page and the command line say the same)."""
    try:
        return Submission(file, parse_json_text(text.removeprefix("\ufeff"), "file", limit=MAX_IMPORT_BYTES,
                                                expected="a JSON attempt file"))
    except RegimeError as exc:
        return Submission(file, unreadable=exc.expected)


def too_many(file: str) -> Submission:
    """A file past the most one report grades: named, not graded."""
    return Submission(file, unreadable=f"not graded: over {MAX_CLASS_FILES:,} files in one report")


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
_NUMBER = re.compile(r"[-−+]?\d[\d,.]*(?:e[-+]?\d+)?\s?(?:FLOP/byte|[kMGTP]?(?:FLOP/s|B/s|B|FLOP)|µs|ms|s|%|×)?")


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


def entry(sub: Submission) -> dict[str, Any]:
    """One file's part of the report, small and JSON-safe: what ``merge`` needs of it, and nothing of the file.

    The report is these entries merged, so a page can read a class one file at a time and hold only the entries.
    ``kind`` is ``attempt``, ``practice`` (a practice record) or ``refused`` (with its ``reason``).
    """
    if sub.unreadable:
        return {"kind": "refused", "file": sub.file, "reason": sub.unreadable}
    data: Mapping[str, Any] = sub.data if isinstance(sub.data, Mapping) else {}
    try:
        if is_practice_record(sub.data):
            practised = read_practice_record(sub.data)
            return {"kind": "practice", "file": sub.file, "name": learner_name(sub.file, data),
                    "practice": practised.to_json()}
        result = grade(sub.data)
    except RegimeError as exc:
        return {"kind": "refused", "file": sub.file, "reason": str(exc)}
    counts = Counter[str]()
    items: dict[str, dict[str, Any]] = {}
    for key in ITEMS:
        graded = result["items"][_GRADED_KEY.get(key, key)]
        if not graded.get("attempted"):
            continue
        verdict = graded.get("passed")
        counts["attempted"] += 1
        counts["right" if verdict is True else "wrong" if verdict is False else "could_not_tell"] += 1
        checks: dict[str, Any] = graded["checks"]
        items[key] = {
            "regime_given": _regime_given(data, key) if key not in _GRADED_KEY else None,
            "regime_right": key not in _GRADED_KEY and checks.get("regime", {}).get("passed") is True,
            "wrong": [[f"{m.get('label', check)}: {misconception(str(m.get('why', '')))}", _line_of(data, key, check)]
                      for check, m in checks.items() if m.get("passed") is False],
            "unsure": [[str(m.get("label", check)), str(m.get("why", ""))]
                       for check, m in checks.items() if m.get("passed") is None]}
    return {"kind": "attempt", "file": sub.file, "name": learner_name(sub.file, data), "passed": result["passed"],
            "receipt": receipt_check(data), "criteria": {str(c["id"]): c["passed"] for c in result["criteria"]},
            "attempted": counts["attempted"], "right": counts["right"], "wrong": counts["wrong"],
            "could_not_tell": counts["could_not_tell"], "items": items}


#: A learner's columns besides name, file and practice, as a learner who sent no write-up has them.
_NO_WRITEUP: dict[str, Any] = {"passed": None, "receipt": NO_RECEIPT, "criteria": {}, "attempted": 0, "right": 0,
                               "wrong": 0, "could_not_tell": 0}


def merge(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The class's report from its files' entries: ``learners``, ``items``, ``practice`` and ``refused``."""
    learners: dict[str, dict[str, Any]] = {}  # by name, in the order read
    refused: list[dict[str, str]] = []
    items = {key: _Item() for key in ITEMS}
    records: list[Mapping[str, Any]] = []
    for one in entries:
        if one["kind"] == "refused":
            refused.append({"file": one["file"], "reason": one["reason"]})
        elif one["kind"] == "practice":
            records.append(one)
        else:
            name = _unique(one["name"], one["file"], learners)
            learners[name] = {"name": name, "file": one["file"], **{key: one[key] for key in _NO_WRITEUP},
                              "criteria": dict(one["criteria"]), "practice": None}
            for key, got in one["items"].items():
                _count_item(items[key], name, got)
    practice = _Practice()
    for record in records:
        practice.add(record["practice"])
        owner = learners.get(record["name"])
        if owner is None or owner["practice"] is not None:  # a learner who only practised, or a second record
            name = _unique(record["name"], record["file"], learners)
            owner = learners[name] = {"name": name, "file": record["file"], **_NO_WRITEUP, "criteria": {}}
        owner["practice"] = record["practice"]
    return {"learners": list(learners.values()), "items": {key: _item_json(item) for key, item in items.items()},
            "practice": practice.to_json(), "refused": refused}


def class_report(submissions: Iterable[Submission]) -> dict[str, Any]:
    """The class's report: ``learners``, ``items`` (per incident, ``part-b``, ``part-c``), ``practice``, ``refused``."""
    return merge(entry(sub) for sub in submissions)


def _unique(name: str, file: str, taken: Container[str]) -> str:
    """Two files of one learner: both graded, the second named by its file."""
    return f"{name} ({file})" if name in taken else name


def _count_item(item: _Item, name: str, got: Mapping[str, Any]) -> None:
    item.attempted += 1
    if got["regime_given"] is not None:
        item.regimes_given[got["regime_given"]] += 1
    item.regime_right += bool(got["regime_right"])
    for what, line in got["wrong"]:
        item.misconceptions.setdefault(what, []).append((name, line))
    item.unsure += [{"learner": name, "check": check, "why": why} for check, why in got["unsure"]]


@dataclass
class _Practice:
    learners: int = 0
    tried: int = 0
    right: int = 0
    missed: Counter[str] = field(default_factory=Counter)  # kind → learners who still owe it
    traps: Counter[str] = field(default_factory=Counter)  # trap → learners who fell for it

    def add(self, record: Mapping[str, Any]) -> None:
        self.learners += 1
        self.tried += record["tried"]
        self.right += record["right"]
        self.missed.update(record["missed"])
        self.traps.update(name for name, trap in record["traps"].items() if trap["caught"])

    def to_json(self) -> dict[str, Any]:
        return {"learners": self.learners, "tried": self.tried, "right": self.right,
                "missed": dict(self.missed.most_common()), "traps": dict(self.traps.most_common())}


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


RECEIPT_NOTE = ("Every file is graded afresh. A receipt is what the site wrote into the file when it graded it: "
                "“edited after grading” means the answers changed since; a file a learner holds can always be edited, "
                "receipt and all, so this catches slips, not cheats.")
#: The learners table's columns, as the report and the page head them.
LEARNER_COLUMNS = ("learner", "passing", *_CRITERIA_SHORT.values(), "items: right, wrong, could not tell",
                   "receipt", "practice")


def view(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report as text, in the order it is read: what Markdown prints and the Mentor page shows, word for word.

    ``summary``; ``learners`` (``head``, ``rows`` of cells); ``sections``, each a ``title``, a ``lead`` line and
    ``points`` (``strong`` and ``text``); ``note``; ``refused`` lines.
    """
    rows = []
    for learner in report["learners"]:
        wrote = bool(learner["criteria"])
        rows.append([learner["name"], _MARK[learner["passed"]] if wrote else "no write-up",
                     *(_MARK[learner["criteria"].get(k)] if wrote else "–" for k in _CRITERIA_SHORT),
                     _items_cell(learner), learner["receipt"], practice_summary(learner["practice"])])
    sections = []
    for key, item in report["items"].items():
        if not item["attempted"]:
            continue
        lead = ""
        if key not in _GRADED_KEY:
            given = ", ".join(f"{regime} {count}" for regime, count in item["regimes_given"].items())
            lead = f"Right regime: {item['regime_right']} of {item['attempted']} (given: {given or 'none'})."
        points = [{"strong": m["what"], "text": f"{m['count']} ({', '.join(m['learners'])}); e.g."
                   f" {m['example']['learner']}: “{m['example']['line']}”"} for m in item["misconceptions"]]
        if item["could_not_tell"]:
            who = ", ".join(f"{u['learner']} ({u['check']})" for u in item["could_not_tell"][:12])
            more = len(item["could_not_tell"]) - 12
            points.append({"strong": "Read by hand (the grader could not tell)",
                           "text": who + (f" and {more} more" if more > 0 else "")})
        if not points:
            lead = f"{lead} Every line of every learner who tried it passed.".strip()
        sections.append({"title": _item_name(key), "lead": lead, "points": points})
    sections += _practice_section(report["practice"])
    return {"summary": f"{len(report['learners'])} learners, {len(report['refused'])} files not graded.",
            "learners": {"head": list(LEARNER_COLUMNS), "rows": rows}, "sections": sections, "note": RECEIPT_NOTE,
            "refused": [f"{r['file']}: {r['reason']}" for r in report["refused"]]}


def _practice_section(practice: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not practice["learners"]:
        return []
    points = []
    if practice["missed"]:
        points.append({"strong": "Kinds still missed (learners)",
                       "text": ", ".join(f"{kind} ({n})" for kind, n in practice["missed"].items())})
    if practice["traps"]:
        points.append({"strong": "Traps fallen for (learners)",
                       "text": ", ".join(f"{trap} ({n})" for trap, n in practice["traps"].items())})
    records = "1 practice record" if practice["learners"] == 1 else f"{practice['learners']} practice records"
    return [{"title": "Practice", "lead": f"{records}: {practice['right']} of {practice['tried']} generated incidents"
             " read right.", "points": points}]


def markdown(report: Mapping[str, Any]) -> str:
    """The report as Markdown, for a course page or an issue."""
    shown = view(report)
    head = shown["learners"]["head"]
    out = ["# The class's write-ups", "", shown["summary"], "", "| " + " | ".join(head) + " |",
           "| " + " | ".join("---" for _ in head) + " |"]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in shown["learners"]["rows"]]
    for section in shown["sections"]:
        out += ["", f"## {section['title']}", ""]
        if section["lead"]:
            out.append(_cell(section["lead"]))
        out += [f"- **{_cell(p['strong'])}**: {_cell(p['text'])}" for p in section["points"]]
    out += ["", shown["note"]]
    if shown["refused"]:
        out += ["", "## Files not graded", ""]
        out += [f"- {_cell(line)}" for line in shown["refused"]]
    return "\n".join(out) + "\n"


def _items_cell(learner: Mapping[str, Any]) -> str:
    """A learner's items in one cell: "8 ✓ 1 ✗ 1 ? of 10" (a table a mentor reads without scrolling)."""
    if not learner["attempted"]:
        return "none"
    return (f"{learner['right']} ✓ {learner['wrong']} ✗ {learner['could_not_tell']} ? of {learner['attempted']}")


def practice_summary(record: Mapping[str, Any] | None) -> str:
    """A learner's practice in a few words: read right of tried."""
    if record is None:
        return "none sent"
    return f"{record['right']} of {record['tried']} read right"


def _cell(text: str) -> str:
    """Learner text in one Markdown table cell or line: no pipes, no raw HTML, no line breaks."""
    return " ".join(str(text).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").split())


def csv_text(report: Mapping[str, Any]) -> str:
    """One row per learner, for a gradebook."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["learner", "file", "passing", *(f"criterion {k}" for k in _CRITERIA_SHORT), "attempted", "right",
                     "wrong", "could_not_tell", "receipt", "practice_tried", "practice_right", "practice_missed"])
    for learner in report["learners"]:
        writer.writerow([_spreadsheet_safe(learner["name"]), _spreadsheet_safe(learner["file"]),
                         *((_word(learner["passed"]), *(_word(learner["criteria"].get(k)) for k in _CRITERIA_SHORT))
                           if learner["criteria"] else ("no write-up", *("" for _ in _CRITERIA_SHORT))),
                         learner["attempted"], learner["right"], learner["wrong"], learner["could_not_tell"],
                         learner["receipt"], *_practice_cells(learner["practice"])])
    return buffer.getvalue()


def _practice_cells(record: Mapping[str, Any] | None) -> list[object]:
    if record is None:
        return ["", "", ""]
    return [record["tried"], record["right"], "; ".join(record["missed"])]


def _word(passed: bool | None) -> str:
    return {True: "pass", False: "fail", None: "could not tell"}[passed]


def _spreadsheet_safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula ("=HYPERLINK(…)" in a learner's name)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
