"""The words the drill's answers are written in, once: the four lines and what a verdict adds to them.

The attempt forms, the Markdown export, the command line, the pages and the widgets all take their
labels from here (through ``Verdict.lines()`` for a verdict), so they never drift apart.
"""

from __future__ import annotations

#: The drill's four lines (Part A): key in an attempt, label everywhere it is shown.
FOUR_LINES: tuple[tuple[str, str], ...] = (
    ("regime", "Regime"),
    ("evidence", "Evidence"),
    ("helps", "Lever that helps"),
    ("wastes", "Lever that wastes the week"),
)
LABEL = dict(FOUR_LINES)
UNDECIDED = "undecided — measure this next"
NEEDS = "Measure this next"
PROPOSAL = "The proposal"
ANOMALY = "Anomaly"
NOTES = "Notes from the source (shown, not used)"
