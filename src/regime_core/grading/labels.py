"""The name a learner sees beside each check: the label of the form field it reads, never a key.

The drill's grade, the practice grade, the Markdown export and the command line all label their lines
from here, so a line reads "Lever that helps: ✗ …" wherever it is shown.
"""

from __future__ import annotations

from regime_core.content import drill
from regime_core.grading.answer_lines import cap
from regime_core.judgment.words import LABEL

#: Part C's three checks, named by what they look for in the paragraph.
PART_C = {"number": "A number from the drill", "fusion": "Fusion", "both_sides": "Both sides"}
#: Practice asks, where the verdict is undecided, for the measurement to take next in the lever's place.
PRACTICE = {**LABEL, "helps": "Lever that helps, or the measurement to take next"}


def check_label(item: str, name: str) -> str:
    """The label of check ``name`` of ``item`` (``a1``..``a8``, ``part_b``, ``part_c`` or ``practice``)."""
    if item == "part_b":
        if name == "ridge":
            return "Ridge"
        row = next((r for r in drill.part_b() if r.id == name), None)
        if row is not None:
            return cap(row.label)
    elif item == "part_c" and name in PART_C:
        return PART_C[name]
    elif item == "practice" and name in PRACTICE:
        return PRACTICE[name]
    elif name in LABEL:
        return LABEL[name]
    raise KeyError(f"no label for check {name!r} of {item!r}")


def labelled(item: str, checks: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """``checks`` (name: check as JSON) with each check's ``label`` added."""
    return {name: {**check, "label": check_label(item, name)} for name, check in checks.items()}
