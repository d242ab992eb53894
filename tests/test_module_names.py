"""No module of the core binds one of its names twice at the top level.

The grader's readers are long tables of patterns; a second ``_SET_BESIDE = …`` further down a module silently
replaces the first for every function that reads it, and the tests of the first reading then fail far from the cause
(it happened twice in one session). A name rebound on purpose would say so here.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
MODULES = sorted(SRC.rglob("*.py"))


def _top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) and node.value is not None else []
        names += [t.id for t in targets if isinstance(t, ast.Name)]
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
    return names


def test_the_core_has_modules() -> None:
    assert len(MODULES) > 50


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(SRC)) for p in MODULES])
def test_no_top_level_name_is_bound_twice(path: Path) -> None:
    names = _top_level_names(ast.parse(path.read_text(encoding="utf-8")))
    twice = sorted(n for n, count in Counter(names).items() if count > 1)
    assert not twice, f"{path.relative_to(SRC)} binds {', '.join(twice)} more than once at the top level"
