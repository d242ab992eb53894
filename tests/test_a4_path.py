"""CONTRIBUTING.md's walk through A4 names real files, counts them right and misses no module A4's block loads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEADING = "### Follow one incident through the code (A4)"
#: Where a bare name in the section is looked for, in this order (``hardware.py``, ``data/levers.json``).
HOMES = ("", "src/regime_core", "src/regime_site", "src", "overrides/assets/regime")


def _section() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = text.index(HEADING) + len(HEADING)
    end = re.search(r"^#{2,3} ", text[start:], re.MULTILINE)
    return text[start:start + end.start()] if end else text[start:]


def _file(name: str) -> Path:
    found = [ROOT / home / name for home in HOMES if (ROOT / home / name).is_file()]
    found += [p for p in (ROOT / "src").rglob(name) if not found and p.is_file()]
    assert found, f"CONTRIBUTING.md's A4 walk names {name}, which is not a file here"
    return found[0].resolve()


def _named(text: str) -> list[Path]:
    return [_file(name) for name in re.findall(r"`([\w./-]+\.(?:py|json|md|js))`", text)]


def test_every_file_the_walk_names_exists() -> None:
    assert len(_named(_section())) > 8


def test_the_stated_count_is_the_number_of_files_on_the_path() -> None:
    section = _section()
    steps = section[:section.index("That is ")]
    stated = re.search(r"That is (\d+) files", section)
    assert stated, "the walk no longer says how many files it crosses"
    assert len(set(_named(steps))) == int(stated.group(1))


def test_building_a4s_block_loads_no_module_the_walk_leaves_unnamed() -> None:
    script = ("import sys\nfrom regime_site.render import incident\nincident('a4')\n"
              "print('\\n'.join(m.__file__ for n, m in sys.modules.items()"
              " if n.startswith(('regime_core', 'regime_site')) and not n.endswith('__init__') and m.__file__))")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    loaded = {Path(line).resolve() for line in out.split() if not line.endswith("__init__.py")}
    assert loaded, "building A4's block loaded no module of ours: the check would pass on anything"
    unnamed = sorted(str(p.relative_to(ROOT / "src")) for p in loaded - set(_named(_section())))
    assert not unnamed, f"A4's block loads modules CONTRIBUTING.md's walk does not name: {unnamed}"
