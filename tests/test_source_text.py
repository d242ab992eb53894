"""The project's own text files hold no control characters.

A regular expression written with ``"\\b"`` in a plain string is a backspace, not a word boundary: the pattern still
compiles and silently matches nothing. Such a character got into two patterns during an edit once; this keeps any
control character (tab, newline and carriage return aside) out of the sources, data and pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SUFFIXES = {".py", ".json", ".md", ".js", ".css", ".html", ".yml", ".yaml", ".toml", ".txt"}
_FILES = sorted(p for folder in ("src", "tests", "docs", "overrides", "bench") for p in (ROOT / folder).rglob("*")
                if p.is_file() and p.suffix in _SUFFIXES and "__pycache__" not in p.parts)


def test_the_files_are_found() -> None:
    assert len(_FILES) > 100
    assert ROOT / "src" / "regime_core" / "grading" / "claims.py" in _FILES


@pytest.mark.parametrize("path", _FILES, ids=[str(p.relative_to(ROOT)) for p in _FILES])
def test_no_control_characters(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = _CONTROL.search(text)
    assert found is None, f"{path.relative_to(ROOT)}: {found.group()!r} at line {text.count(chr(10), 0, found.start()) + 1}"


def test_the_check_sees_a_backspace() -> None:
    """The check itself: a pattern written with a plain "\\b" carries a backspace it finds."""
    sample = "_WORD = re.compile(\"\b(?:then)\b\")\n"
    assert _CONTROL.search(sample) is not None
