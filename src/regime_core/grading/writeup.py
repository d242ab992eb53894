"""The learner's write-up as Markdown: to show a mentor or paste into a pull request."""

from __future__ import annotations

from typing import Any

from regime_core.catalogue.levers import REGIMES, advice
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.content import drill
from regime_core.grading.attempt import Attempt
from regime_core.judgment.words import FOUR_LINES

#: The mark beside a criterion's verdict: passed, not passed, could not tell.
MARKS = {True: "✅", False: "❌", None: "❔"}
VERDICTS = {True: "Passing write-up.", False: "Not passing yet.",
            None: "Nothing fails, but the grader could not tell everything: compare with the worked answers."}
_LINES = tuple((label, key) for key, label in FOUR_LINES)


def _md(text: str) -> str:
    """Learner text on one Markdown line: no raw HTML, no line breaks that end the list."""
    return " ".join(text.replace("<", "&lt;").replace(">", "&gt;").split()) or "—"


def _line(key: str, text: str) -> str:
    """A learner's line as the write-up shows it: a regime the page's form stored by its key ("memory") by name."""
    if key == "regime" and text.strip() in REGIMES:
        return advice(text.strip()).name
    return _md(text)


def markdown(attempt: Attempt, result: dict[str, Any]) -> str:
    """The write-up in the drill's own format, with the grader's verdict at the end."""
    out = ["# Regime from the symptoms — my write-up", "", "## Part A — Classify", ""]
    for item in drill.incidents():
        entry = attempt.part_a.get(item.id)
        out.append(f"### {item.id.upper()}. {item.title}")
        out.append("")
        out.append(f"> {_md(item.text)}")
        out.append("")
        if entry:
            out += [f"- **{label}:** {_line(key, entry.get(key, ''))}" for label, key in _LINES]
        else:
            out.append("_Not attempted._")
        out.append("")
    out += ["## Part B — The ridge, by hand", ""]
    ridge = format_quantity(attempt.ridge, Dim.INTENSITY) if attempt.ridge is not None else "—"
    out += [f"1. Ridge: {ridge}", "", "| kernel | intensity | side | optimisation allowed |", "| --- | --- | --- | --- |"]
    for row in drill.part_b():
        k = attempt.kernels.get(row.id)
        intensity = format_quantity(k.intensity, Dim.INTENSITY) if k and k.intensity is not None else "—"
        out.append(f"| {row.label} | {intensity} | {k.side if k and k.side else '—'} |"
                   f" {_md(k.optimisation) if k else '—'} |")
    out += ["", "## Part C — The argument", "", _md(attempt.part_c) if attempt.part_c else "_Not attempted._", "",
            "## Acceptance (as Regime grades it)", ""]
    for criterion in result["criteria"]:
        out.append(f"{criterion['id']}. {criterion['text']} {MARKS[criterion['passed']]} {criterion['why']}")
    out += ["", f"**{VERDICTS[result['passed']]}**", ""]
    return "\n".join(out)


_WORDS = {True: "pass", False: "FAIL", None: "could not tell"}


def report(result: dict[str, Any]) -> str:
    """The grade for a terminal: each criterion in its own words with its verdict, then every line not passed."""
    lines = [f"{c['id']}. {c['text']} {_WORDS[c['passed']]}: {c['why']}" for c in result["criteria"]]
    for key, item in result["items"].items():
        for check in item["checks"].values():
            if check["passed"] is not True:
                lines.append(f"   {key.upper().replace('_', ' ')}, {check['label']}: {check['why']}")
    lines.append(VERDICTS[result["passed"]])
    return "\n".join(lines)
