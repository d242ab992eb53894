"""The core's tree is its architecture: each layer imports only the layers below it.

A layer is a subpackage of ``regime_core`` (or, at the bottom, one of its two foundation modules).
Each subpackage's docstring ends with ``May import: …``; this test holds that line to the order below
and every import in the package's modules to that line, so a layer that reaches upward, or sideways
into a sibling, fails here instead of in a reviewer's head.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CORE = Path(__file__).parents[1] / "src" / "regime_core"

#: Bottom to top. Layers in one tuple are siblings: neither may import the other.
ORDER: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("resources",),
    ("catalogue",),
    ("model",),
    ("judgment",),
    ("content", "trace"),
    ("grading",),
    ("practice",),
    ("bridge", "cli"),
)
RANK = {layer: rank for rank, layers in enumerate(ORDER) for layer in layers}
#: The package's own entry points sit above every layer: they may import anything.
TOP = {"__init__", "__main__"}


def layer_of(path: Path) -> str:
    """The layer a source file belongs to: its subpackage, or its module name at the top."""
    parts = path.relative_to(CORE).with_suffix("").parts
    return parts[0]


def imported_layers(path: Path, source: str | None = None) -> set[str]:
    """Every layer of ``regime_core`` the module at ``path`` (or ``source`` as if it lay there) imports,
    at any depth of its code, relative imports included."""
    module = ".".join(("regime_core", *path.relative_to(CORE).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from regime_core import x`` imports the layer ``x``, not the package's top.
            names = [f"{base}.{alias.name}" for alias in node.names] if base == "regime_core" else [base]
        for name in names:
            parts = name.split(".")
            if parts[0] == "regime_core" and len(parts) > 1 and parts[1] in RANK:
                found.add(parts[1])
    return found


def declared(package: str) -> set[str]:
    """The layers a subpackage's docstring says it may import."""
    doc = ast.get_docstring(ast.parse((CORE / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    line = re.search(r"^May import: (.+?)\.?$", doc, re.MULTILINE)
    assert line, f"regime_core/{package}/__init__.py's docstring has no 'May import: …' line"
    return {name.strip() for name in line.group(1).split(",")}


def sources() -> list[Path]:
    return sorted(p for p in CORE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_belongs_to_a_known_layer() -> None:
    unknown = sorted(str(p.relative_to(CORE)) for p in sources() if layer_of(p) not in RANK | dict.fromkeys(TOP))
    assert not unknown, f"modules outside every layer (add them to a subpackage, or ORDER): {unknown}"


def test_every_layer_in_the_order_exists() -> None:
    missing = [layer for layer in RANK if not (CORE / layer).is_dir() and not (CORE / f"{layer}.py").is_file()]
    assert not missing, missing


@pytest.mark.parametrize("package", sorted(layer for layer in RANK if (CORE / layer).is_dir()))
def test_a_package_declares_only_layers_below_it(package: str) -> None:
    upward = sorted(name for name in declared(package) if name not in RANK or RANK[name] >= RANK[package])
    assert not upward, f"{package} says it may import {upward}, which are not below it"


def reached_beyond(path: Path, source: str | None = None) -> list[str]:
    """The layers the module at ``path`` imports that its layer may not (a foundation module may import
    only the foundation below it; the package's entry points anything)."""
    layer = layer_of(path)
    if layer in TOP:
        return []
    allowed = declared(layer) if (CORE / layer).is_dir() else {name for name in RANK if RANK[name] < RANK[layer]}
    return sorted(imported_layers(path, source) - {layer} - allowed)


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(CORE)))
def test_a_module_imports_only_what_its_layer_may(path: Path) -> None:
    reached = reached_beyond(path)
    assert not reached, f"regime_core/{path.relative_to(CORE)} ({layer_of(path)}) imports {reached}"


def test_the_reader_sees_every_import_form() -> None:
    """Absolute, package-level, nested and relative imports are all found, so no finding means clean."""
    source = ("from regime_core.grading import grade\nimport regime_core.cli.main\n"
              "from regime_core import practice\ndef f():\n    from regime_core.bridge.api import handle\n"
              "from ..content import drill\nfrom . import work\nimport json\n")
    assert imported_layers(CORE / "model" / "probe.py", source) == {"grading", "cli", "practice", "bridge",
                                                                     "content", "model"}


def test_an_upward_import_fails_the_layer_check() -> None:
    """The check itself, run on a judgment module that reaches up into grading, reports it."""
    path = CORE / "judgment" / "classify.py"
    source = path.read_text(encoding="utf-8")
    assert reached_beyond(path, source) == []
    assert reached_beyond(path, source + "\nfrom regime_core.grading.grade import grade\n") == ["grading"]
    # Sideways is as wrong as upward: trace and content are siblings.
    trace = CORE / "trace" / "reading.py"
    assert reached_beyond(trace, "from regime_core.content import drill\n") == ["content"]
    # A foundation module may import only what is below it.
    assert reached_beyond(CORE / "errors.py", "from regime_core import resources\n") == ["resources"]
