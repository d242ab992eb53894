"""The site outlives its builder: ProperDocs builds the same site as MkDocs, and so does a builder that
runs none of our plugins once ``python -m regime_site.prebuild`` has done the plugin's work.

Both are compared with the suite's own ``mkdocs build --strict`` page by page and file by file. What may
differ is only what says which tool built it (the generator meta tag) and on which day (the sitemap's
lastmod), and the order in which a builder lists pages in the search index and the sitemap.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_server import ROOT

GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


def _build(command: list[str], out: Path, site_port: int) -> None:
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{site_port}/", NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([*command, "--strict", "-q", "-d", str(out)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-3000:]


def _sitemap(data: bytes) -> list[bytes]:
    # each page's <lastmod> is the day it was built: two builds either side of midnight differ there only
    return sorted(re.sub(rb"<lastmod>[^<]*</lastmod>", b"", url) for url in re.findall(rb"<url>.*?</url>", data, re.DOTALL))


def _normal(path: Path) -> object:
    """A built file's content, less what may differ between builders."""
    data = path.read_bytes()
    if path.name == "sitemap.xml.gz":
        return _sitemap(gzip.decompress(data))
    if path.name == "sitemap.xml":
        return _sitemap(data)
    if path.name == "search_index.json":
        index = json.loads(data)
        return {**index, "docs": sorted(index["docs"], key=lambda doc: (doc["location"], doc["title"]))}
    if path.suffix == ".html":
        return GENERATOR.sub(b"", data)
    return data


def differences(ours: Path, theirs: Path) -> list[str]:
    """Each file that one site has and the other lacks, or that reads differently in them."""
    mine = {p.relative_to(ours) for p in ours.rglob("*") if p.is_file()}
    other = {p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file()}
    found = [f"only in the MkDocs build: {p}" for p in sorted(mine - other)]
    found += [f"only in the other build: {p}" for p in sorted(other - mine)]
    found += [f"differs: {p}" for p in sorted(mine & other) if _normal(ours / p) != _normal(theirs / p)]
    return found


def test_the_comparison_sees_a_changed_page(built_site: Path, tmp_path: Path) -> None:
    """The check can fail: a copy of the site with one word changed, or one file gone, is not the same site."""
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(built_site), str(copy)], check=True)
    assert differences(built_site, copy) == []
    page = copy / "drill" / "index.html"
    page.write_bytes(page.read_bytes().replace(b"memory-bound", b"compute-bound", 1))
    (copy / "hardware" / "index.html").unlink()
    assert differences(built_site, copy) == ["only in the MkDocs build: hardware/index.html",
                                             "differs: drill/index.html"]


def test_properdocs_builds_the_same_site(built_site: Path, tmp_path: Path, site_port: int) -> None:
    if subprocess.run([sys.executable, "-c", "import properdocs"], check=False).returncode:
        pytest.fail("ProperDocs is missing: `make setup` installs it (requirements-dev.txt)")
    out = tmp_path / "properdocs"
    _build([sys.executable, "-m", "properdocs", "build"], out, site_port)
    assert differences(built_site, out) == []


def test_a_builder_without_our_plugin_builds_the_same_site_after_the_prebuild_step(
        built_site: Path, tmp_path: Path, site_port: int) -> None:
    folder = tmp_path / "prebuilt"
    subprocess.run([sys.executable, "-m", "regime_site.prebuild", str(folder)], cwd=ROOT, check=True,
                   capture_output=True, timeout=600)
    config = (folder / "mkdocs.yml").read_text(encoding="utf-8")
    assert "regime" not in re.search(r"^plugins:\n((?:  .*\n)*)", config, re.MULTILINE).group(1)  # type: ignore[union-attr]
    out = tmp_path / "site"
    _build([sys.executable, "-m", "mkdocs", "build", "-f", str(folder / "mkdocs.yml")], out, site_port)
    assert differences(built_site, out) == []


def test_the_sitemap_is_compared_without_the_build_day_but_with_every_page() -> None:
    def url(loc: bytes, day: bytes) -> bytes:
        return b"<urlset><url><loc>" + loc + b"</loc><lastmod>" + day + b"</lastmod></url></urlset>"

    assert _sitemap(url(b"/drill/", b"2026-12-04")) == _sitemap(url(b"/drill/", b"2026-12-05"))
    assert _sitemap(url(b"/drill/", b"2026-12-04")) != _sitemap(url(b"/trace/", b"2026-12-04"))
