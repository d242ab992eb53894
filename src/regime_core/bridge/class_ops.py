"""The Mentor page's requests: one file of a class read into its entry, and the entries merged into the report.

The page reads the class's files one at a time, in the browser; each file's text comes here and goes back as
its entry (kilobytes, nothing of the file but what the report counts), so the page holds the entries and one
file, never the class. ``class_report`` merges the entries into the same report ``regime grade`` prints, with
its Markdown and CSV for the page's download buttons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regime_core.bridge.protocol import Op
from regime_core.errors import RegimeError
from regime_core.grading.attempt import MAX_IMPORT_BYTES
from regime_core.grading.class_report import MAX_CLASS_FILES, csv_text, entry, markdown, merge, submission, too_many
from regime_core.grading.class_report import view as report_view

_KINDS = {"attempt": ("name", "passed", "receipt", "criteria", "attempted", "right", "wrong", "could_not_tell",
                      "items"),
          "practice": ("name", "practice"), "refused": ("reason",)}
#: Files dropped past MAX_CLASS_FILES still get an entry each (not graded, by name), up to this many.
_MOST_ENTRIES = 100_000


def op_class_entry(req: Mapping[str, Any]) -> dict[str, Any]:
    """One file of a class (its name, its text, its size in bytes) read into its entry in the report."""
    file, text, size, at = req.get("file"), req.get("text"), req.get("bytes"), req.get("index", 0)
    if not isinstance(file, str) or not file or len(file) > 500:
        raise RegimeError("file", "expected the file's name")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise RegimeError("index", "expected the file's place in the class, from 0")
    if at >= MAX_CLASS_FILES:
        return {"entry": entry(too_many(file))}
    if isinstance(size, int) and not isinstance(size, bool) and size > MAX_IMPORT_BYTES:
        # whole megabytes past a terabyte: an integer beyond a float's range (a page's own number) cannot be divided
        megabytes = f"{size / 1e6:,.1f}" if size < 10**12 else f"{size // 10**6:,}"
        return {"entry": {"kind": "refused", "file": file,
                          "reason": f"expected an attempt file of at most {MAX_IMPORT_BYTES // 1000:,} kB;"
                                    f" this one is {megabytes} MB"}}
    if not isinstance(text, str):
        raise RegimeError("text", "expected the file's text")
    return {"entry": entry(submission(file, text))}


def _checked(entries: object) -> list[Mapping[str, Any]]:
    """The entries the page sent back: each of a known kind with the keys its kind has, or one line saying not."""
    if not isinstance(entries, list) or len(entries) > _MOST_ENTRIES:
        raise RegimeError("entries", "expected the list of entries this page made, one per file")
    for at, one in enumerate(entries):
        keys = _KINDS.get(str(one.get("kind"))) if isinstance(one, Mapping) else None
        if keys is None or not isinstance(one.get("file"), str) or any(k not in one for k in keys):
            raise RegimeError(f"entries[{at}]", "expected an entry this page made of a file (class_entry)")
    return entries


def op_class_report(req: Mapping[str, Any]) -> dict[str, Any]:
    """The class's entries merged: the report, as the page shows it, and as Markdown and CSV."""
    entries = _checked(req.get("entries"))
    try:
        report = merge(entries)
        return {"report": report, "view": report_view(report), "markdown": markdown(report), "csv": csv_text(report)}
    except RegimeError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError):  # an entry changed on its way: said, never a traceback
        raise RegimeError("entries", "expected the entries this page made, unchanged") from None


OPS = [
    Op("class_entry", ("file", "text", "bytes", "index"), op_class_entry, ("entry",)),
    Op("class_report", ("entries",), op_class_report, ("report", "view", "markdown", "csv")),
]
