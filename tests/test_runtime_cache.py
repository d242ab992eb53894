"""The build's slowest step (the core's bytecode and the trimmed standard library, made by Pyodide in
Node) is kept between builds under a key of everything it depends on: a second build reads it, another
core or a damaged entry makes it again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from regime_site import prebuild
from regime_site.prebuild import CACHE_DIR, CORE_DIR, PYODIDE_DIR, Prebuild, Runtime
from regime_site.runtime_cache import RuntimeCache, key_of
from regime_site.wheel import package_files
from site_server import ROOT


class MadeAgainError(Exception):
    """The slow step ran."""


def _never(*_args: object) -> object:
    raise MadeAgainError


@pytest.fixture(scope="module")
def kept(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Runtime]:
    """A cache folder holding only this checkout's entry, and the runtime. The suite's own build (after
    which this runs) has made the entry: reading it costs nothing, making it again ~6 s."""
    runtime = Prebuild(ROOT / PYODIDE_DIR, ROOT / CORE_DIR, ROOT / CACHE_DIR).runtime()
    key = key_of(runtime.manifest["pyodide_version"], package_files(ROOT / CORE_DIR))
    folder = tmp_path_factory.mktemp("runtime-cache")
    shutil.copy(ROOT / CACHE_DIR / f"{key}.zip", folder)
    return folder, runtime


def test_a_second_build_reads_what_the_first_kept(kept: tuple[Path, Runtime], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder, first = kept
    shutil.copytree(folder, tmp_path / "cache")
    monkeypatch.setattr(prebuild, "compile_for_pyodide", _never)
    monkeypatch.setattr(prebuild, "trimmed_stdlib", _never)
    second = Prebuild(ROOT / PYODIDE_DIR, ROOT / CORE_DIR, tmp_path / "cache").runtime()
    assert (second.manifest, second.files) == (first.manifest, first.files)  # the same wheel, zip and manifest


def test_another_core_misses(kept: tuple[Path, Runtime], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = kept
    core = tmp_path / "regime_core"
    shutil.copytree(ROOT / CORE_DIR, core, ignore=shutil.ignore_patterns("__pycache__"))
    with (core / "errors.py").open("a", encoding="utf-8") as source:
        source.write("# one more line\n")
    monkeypatch.setattr(prebuild, "compile_for_pyodide", _never)
    with pytest.raises(MadeAgainError):
        Prebuild(ROOT / PYODIDE_DIR, core, folder).runtime()


def test_a_damaged_entry_is_a_miss_not_a_failed_build(kept: tuple[Path, Runtime], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = kept
    shutil.copytree(folder, tmp_path / "cache")
    entry = next((tmp_path / "cache").glob("*.zip"))
    entry.write_bytes(entry.read_bytes()[:1000])  # cut short, as a build killed mid-write would leave it
    assert RuntimeCache(tmp_path / "cache").get(entry.stem) is None
    monkeypatch.setattr(prebuild, "compile_for_pyodide", _never)
    with pytest.raises(MadeAgainError):
        Prebuild(ROOT / PYODIDE_DIR, ROOT / CORE_DIR, tmp_path / "cache").runtime()
