"""The strict build: self-hosted runtime, no third-party assets, answers hidden from text and search."""

from __future__ import annotations

import base64
import html
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from regime_core.content.drill import incidents
from regime_site.prebuild import PYODIDE_FILES
from regime_site.wheel import NOT_IN_BROWSER, browser_modules, package_files

ROOT = Path(__file__).resolve().parent.parent
ASSET_ATTR = re.compile(r'<(?:script|link|img|source|iframe)\b[^>]*?\b(?:src|href)="([^"]+)"', re.I)


def test_pyodide_and_the_wheel_are_self_hosted(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    pyodide = (built_site / "assets/regime" / manifest["pyodide"]).resolve()
    for name in PYODIDE_FILES:
        assert (pyodide / name).stat().st_size > 0, name
    wheel = built_site / "assets/regime" / manifest["wheel"]
    names = zipfile.ZipFile(wheel).namelist()
    assert "regime_core/bridge/api.pyc" in names
    assert "regime_core/data/hardware.json" in names
    assert not any(n.startswith("regime_site") for n in names)


def test_the_served_wheel_carries_bytecode_and_no_source(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    wheel = built_site / "assets/regime" / manifest["wheel"]
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(".py")]  # the first visit downloads no source
    expected = {name + "c" for name, _ in browser_modules(package_files(ROOT / "src/regime_core"))}
    assert {n for n in names if n.endswith(".pyc")} == expected
    assert not set(NOT_IN_BROWSER) & {n.removesuffix("c") for n in names}
    out = subprocess.run(["node", "tests/pyodide_bytecode_check.mjs", str(wheel)], cwd=Path(__file__).parent.parent,
                         capture_output=True, text=True, check=True, timeout=300)
    assert int(out.stdout) == len(expected) - 1  # every module but the package itself, imported from bytecode


def test_the_bridge_never_imports_what_the_browser_wheel_leaves_out() -> None:
    script = "import json, sys, regime_core.bridge.api; print(json.dumps([m for m in sys.modules if m.startswith('regime_core')]))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    imported = {f"{name.replace('.', '/')}.py" for name in json.loads(out.stdout)}
    left_out = {name for name in NOT_IN_BROWSER if name.endswith(".py")}
    assert "regime_core/bridge/api.py" in imported
    assert not imported & left_out


def test_the_served_standard_library_is_what_the_core_uses(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    pyodide = (built_site / "assets/regime" / manifest["pyodide"]).resolve()
    stdlib = (built_site / "assets/regime" / manifest["stdlib"]).resolve()
    assert stdlib.parent.parent == pyodide  # under the version's folder, in one named by its content
    full = ROOT / "node_modules/pyodide/python_stdlib.zip"
    names = set(zipfile.ZipFile(stdlib).namelist())
    assert {"json/__init__.py", "re/__init__.py", "dataclasses.py", "encodings/utf_8.py", "pyodide/__init__.py"} <= names
    assert not {"unittest/__init__.py", "email/__init__.py", "xml/__init__.py", "pdb.py"} & names
    assert names < set(zipfile.ZipFile(full).namelist())
    assert stdlib.stat().st_size < full.stat().st_size / 2
    assert not (pyodide / "python_stdlib.zip").exists()  # the whole one is not served
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    assert lock["packages"] == {}
    assert lock["info"] == json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text())["info"]
    fetched = [pyodide / "pyodide.asm.wasm", pyodide / "pyodide-lock.json", stdlib,
               built_site / "assets/regime" / manifest["wheel"]]
    assert int(manifest["bytes"]) == sum(f.stat().st_size for f in fetched)  # what the progress line counts to


def test_the_served_standard_library_is_minified_and_still_compiles(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    served = zipfile.ZipFile((built_site / "assets/regime" / manifest["stdlib"]).resolve())
    full = zipfile.ZipFile(ROOT / "node_modules/pyodide/python_stdlib.zip")
    sources = [n for n in served.namelist() if n.endswith(".py")]
    served_size = sum(served.getinfo(n).compress_size for n in sources)
    full_size = sum(full.getinfo(n).compress_size for n in sources)
    assert served_size < 0.7 * full_size  # comments and docstrings are gone (about 0.55 when written)
    json_init = served.read("json/__init__.py").decode()
    assert "JSON (JavaScript Object Notation)" not in json_init  # its module docstring
    compile(json_init, "json/__init__.py", "exec")  # what is served is still Python (the parity suite runs it)


def test_no_asset_comes_from_another_origin(built_site: Path, site_port: int) -> None:
    own = f"http://127.0.0.1:{site_port}/"  # the canonical link names the site itself
    for page in built_site.rglob("*.html"):
        for url in ASSET_ATTR.findall(page.read_text(encoding="utf-8")):
            assert url.startswith(own) or not re.match(r"^(https?:)?//", url), f"{page}: {url}"
    for asset in list(built_site.rglob("*.css")) + list((built_site / "assets/regime").glob("*.js")):
        text = asset.read_text(encoding="utf-8", errors="replace")
        assert "fonts.googleapis" not in text
        assert "cdn.jsdelivr" not in text, asset


def _visible_text(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"<script\b.*?</script>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def _answers(page: Path) -> dict[str, str]:
    found = re.findall(r'data-regime-answer="([^"]+)" data-payload="([^"]+)"', page.read_text(encoding="utf-8"))
    return {item: html.unescape(re.sub(r"<[^>]+>", " ", base64.b64decode(p).decode())) for item, p in found}


def test_every_item_has_an_encoded_answer(built_site: Path) -> None:
    answers = _answers(built_site / "drill/index.html")
    assert set(answers) == {*(f"a{i}" for i in range(1, 9)), "part-b", "part-c"}
    assert "compute-bound" in answers["a1"]
    assert "156 FLOP/byte" in answers["part-b"]


#: One table cell's end, then only tags, then the next cell: search's index would read their texts as one word.
GLUED_CELLS = re.compile(r"</t[dh]>(?:<[^>]+>)*<t[dh][ >]")


def test_no_table_glues_one_cells_text_to_the_next(built_site: Path) -> None:
    glued = [f"{page.relative_to(built_site)}: {m.group(0)}" for page in built_site.rglob("*.html")
             for m in GLUED_CELLS.finditer(page.read_text(encoding="utf-8"))]
    assert glued == []
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    part_b = next(doc["text"] for doc in index["docs"] if doc["location"] == "drill/#part-b")
    assert "bytes elementwise add" in part_b
    assert " 1.68e7 5.03e7 " in part_b  # the elementwise add's FLOPs, then its bytes


@pytest.mark.parametrize("secret", ["156 FLOP/byte", "1365 FLOP/byte", "46.7 ms", "21.4 tok/s", "Lever that helps:"])
def test_answers_are_not_in_visible_text_or_search_index(built_site: Path, secret: str) -> None:
    assert secret not in _visible_text(built_site / "drill/index.html")
    index = json.loads((built_site / "search/search_index.json").read_text())
    drill = " ".join(d["title"] + " " + d["text"] for d in index["docs"] if d["location"].startswith("drill/"))
    assert secret not in html.unescape(drill)


#: Words of the widgets, which a search snippet must never show (the forms and buttons are left out of the index;
#: the home page names "Copy as review comment" in a sentence, which stays).
WIDGET_WORDS = ("Check without the answer", "Submit attempt", "Copy link", "Start over",
                "Fold open answers", "Next incident", "Filter the cases")


def test_search_snippets_hold_no_widget_words_and_no_glued_table_cells(built_site: Path) -> None:
    index = json.loads((built_site / "search/search_index.json").read_text())
    text = {d["location"]: html.unescape(d["title"] + " " + d["text"]) for d in index["docs"]}
    for location, words in text.items():
        assert not [w for w in WIDGET_WORDS if w in words], location
    # Adjacent cells of a table are separate words: "kernel FLOPs bytes", not "kernelFLOPsbytes".
    everything = " ".join(text.values())
    for glued in ("kernelFLOPs", "The authorsThe classifier", "Compute-boundCompute-bound", "on GitHubFlash",
                  "kernelintensity"):
        assert glued not in everything
    assert "The authors The classifier" in everything
    # Words split at punctuation, so "item" finds the drill's `.item()`: the index's own separator says so.
    separator = re.compile(index["config"]["separator"])
    assert "item" in separator.split("loss.item() in the loop")
    assert "3.35" in separator.split("3.35 TB/s")


def test_the_attempt_forms_share_one_list_of_levers(built_site: Path) -> None:
    text = (built_site / "drill/index.html").read_text(encoding="utf-8")
    lists = re.findall(r'\blist="([^"]+)"', text)
    datalists = re.findall(r'<datalist id="([^"]+)"', text)
    assert len(lists) == 2 * len(incidents())  # helps and wastes, in each incident's form
    assert datalists == ["regime-levers"]
    assert set(lists) == set(datalists)


def test_permalink_ids_are_stable(built_site: Path) -> None:
    text = (built_site / "drill/index.html").read_text(encoding="utf-8")
    for anchor in [*(f"a{i}" for i in range(1, 9)), "part-b", "part-c", "stretch"]:
        assert f'id="{anchor}"' in text, anchor


def test_lesson_numbers_come_from_the_core(built_site: Path) -> None:
    text = _visible_text(built_site / "lesson/index.html")
    assert "295 FLOP/byte" in text  # the H100's ridge
    assert "43.3 ms" in text  # a 13B bf16 decode step's floor on an A10
    words = len(re.findall(r"\w+", (Path(__file__).parent.parent / "docs/lesson.md").read_text()))
    assert 600 <= words <= 1400


@pytest.mark.parametrize("page", ["lesson/index.html", "index.html", "reference/index.html", "reference/cli/index.html",
                                  "reference/symptoms/index.html", "reference/traces/index.html",
                                  "reference/grading/index.html"])
def test_the_lesson_and_home_page_leave_the_drill_to_be_solved(built_site: Path, page: str) -> None:
    """No figure the drill's answers rest on is worked out before the drill: the ridge of its card, its incidents'
    deciding arithmetic, Part B's intensities."""
    from regime_core.catalogue.quantity import Dim, format_quantity
    from regime_core.content import drill

    text = _visible_text(built_site / page)
    rows = drill.part_b()
    given = {format_quantity(rows[0].placement.ridge, Dim.INTENSITY)}
    given |= {format_quantity(r.placement.intensity, Dim.INTENSITY) for r in rows if r.id != "decode"}
    a4 = drill.incident("a4").verdict().placement
    assert a4 is not None
    given |= {format_quantity(a4.floor_seconds, Dim.SECOND), "8.75×", "1365"}
    assert [g for g in given if g in text] == []
    assert "three reasons" not in text
    if not page.startswith("reference/"):
        assert "communication" in text.lower()


def _keys() -> str:
    """The code's own keys a sentence could name: every symptom and work field written with an underscore."""
    from regime_core.judgment.symptoms import OBSERVED_FIELDS
    from regime_core.model import work

    keys = {k for k in OBSERVED_FIELDS if "_" in k} | {f for fields in work.FIELDS.values() for f in fields if "_" in f}
    return "|".join(sorted(keys | {"host_sync_in_loop", "authors_regime", "weight_dtype", "active_params"}))


#: The code's words, which a learner never needs: the package, its folders, data-file keys, "the core", an
#: editor's note that a field was left empty.
_IDENTIFIERS = re.compile(r"\bregime_core\b|\bsrc/regime|\bsparse_printed\b|\b[Tt]he core\b|\bNEAR_[A-Z_]+\b"
                          rf"|\b(?:{_keys()})\b|\bleft empty\b|\bexpected\.regime\b")


def _learner_text(page: str) -> str:
    """What a learner reads on a page, answers included once opened: no scripts, no attributes, and no
    code spans (commands and file names the learner types are code, and are allowed to be)."""
    payloads = [base64.b64decode(p).decode("utf-8") for p in re.findall(r'data-payload="([^"]+)"', page)]
    text = " ".join([page, *payloads])
    text = re.sub(r"<(script|style|pre|code)\b.*?</\1>", " ", text, flags=re.DOTALL | re.IGNORECASE)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html.unescape(text).split())


def test_no_page_speaks_in_the_codes_identifiers(built_site: Path) -> None:
    found = []
    for path in sorted(built_site.rglob("index.html")):
        for match in _IDENTIFIERS.finditer(_learner_text(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(built_site)}: …{match.group(0)}…")
    assert not found, found
    # The check reads what it should: an identifier outside code is found, inside code it is not.
    assert _IDENTIFIERS.search(_learner_text("<p>read by regime_core</p>"))
    assert not _IDENTIFIERS.search(_learner_text("<p>run <code>python -m regime_core</code></p>"))
    assert _IDENTIFIERS.search(_learner_text("<li>graph_speedup 1.44 as quoted</li>"))


#: A number in a form the core never writes: a share under 1% to three figures ("0.409%"; it writes "0.41%"), or a
#: ratio with a prefix ("1.25k×"; it writes "1248×" in text and tables alike).
_OTHER_FORMS = re.compile(r"(?<![\d.])0\.0*[1-9]\d{2,}%|\d(?:\.\d+)?k×")


def test_numbers_read_in_one_form_across_text_and_tables(built_site: Path) -> None:
    found = []
    for path in sorted(built_site.rglob("index.html")):
        # Quotations keep their sources' figures as printed.
        page = re.sub(r"<(blockquote|q)\b.*?</\1>", " ", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        found += [f"{path.relative_to(built_site)}: {m.group(0)}" for m in _OTHER_FORMS.finditer(_learner_text(page))]
    assert not found, found


def test_no_figure_table_has_a_column_of_dashes(built_site: Path) -> None:
    """A column that is empty in every row says nothing (the lesson's "measured" column once did)."""
    empty = []
    for path in sorted(built_site.rglob("index.html")):
        for table in re.findall(r'<table class="regime-figure__table">(.*?)</table>', path.read_text(encoding="utf-8"), re.S):
            heads = re.findall(r"<th>(.*?)</th>", table)
            rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[-1])]
            empty += [f"{path.relative_to(built_site)}: {head}" for i, head in enumerate(heads)
                      if rows and all(len(row) > i and row[i] == "—" for row in rows)]
    assert not empty, empty
