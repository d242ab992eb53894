"""The ``regime`` plugin's work as a plain build step that any builder can run first.

:class:`Prebuild` makes what the site needs beside its Markdown: the generated casebook pages (one per
published case and per drill incident), the runtime files (Pyodide's, a trimmed standard library and
lock file, the core's wheel with bytecode) at their paths in the site, and the manifest that pages
name in the worker's URL. The MkDocs plugin (``plugin.py``) calls it on every build. Run as a
command, it writes the same into a folder a builder without our plugin can build::

    python -m regime_site.prebuild build/prebuilt    # then: mkdocs build -f build/prebuilt/mkdocs.yml

The folder gets ``docs/`` (the project's pages, the generated ones, the runtime files as static
assets) and ``mkdocs.yml`` (the project's config inherited, without the ``regime`` plugin, the manifest
in ``extra.regime_runtime`` for the template). ``tests/test_builders.py`` builds both ways, and with
ProperDocs, and compares the sites.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import posixpath
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import yaml  # type: ignore[import-untyped]
from mkdocs.utils.yaml import get_yaml_loader

from regime_core.bridge.protocol import PROTOCOL
from regime_site.bytecode import compile_for_pyodide
from regime_site.casebook import pages as casebook_pages
from regime_site.runtime_cache import Kept, RuntimeCache, key_of
from regime_site.stdlib import trimmed_lock, trimmed_stdlib
from regime_site.wheel import browser_files, browser_modules, build_wheel, package_files

#: The runtime files Pyodide loads, served as the npm package has them; nothing else from it is served
#: but a trimmed ``python_stdlib.zip`` and ``pyodide-lock.json`` (see ``stdlib.py``).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
ROOT = Path(__file__).resolve().parents[2]
#: Where the pinned npm package and the core's sources are, relative to the project (the plugin's defaults).
PYODIDE_DIR = "node_modules/pyodide"
CORE_DIR = "src/regime_core"
#: Where a build keeps its slowest step's output for the next build (ignored by git).
CACHE_DIR = "build/runtime-cache"


class PrebuildError(Exception):
    """What a build needs is missing (the npm packages, a Pyodide file): one line saying what to run."""


@dataclass(frozen=True)
class Runtime:
    """The runtime files by their path in the site, and the manifest that names them.

    ``copies`` are Pyodide's files, copied as they are; ``files`` are written from bytes.
    """

    manifest: dict[str, str]
    files: dict[str, bytes]
    copies: dict[str, Path]

    def write(self, site: Path) -> None:
        """Write every runtime file under ``site`` (a Pyodide file of the same size is left as it is)."""
        for name, source in self.copies.items():
            destination = site / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            if not destination.exists() or destination.stat().st_size != source.stat().st_size:
                shutil.copyfile(source, destination)
        for name, data in self.files.items():
            destination = site / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(data)


class Prebuild:
    """Makes the runtime.

    It keeps the compiled bytecode and standard library while the core is unchanged (``mkdocs serve``
    rebuilds on every edit).
    """

    def __init__(self, pyodide_dir: Path, core_dir: Path, cache_dir: Path | None = None) -> None:
        """Where the runtime is made from, and where it is kept between builds.

        ``pyodide_dir``: the npm package ``pyodide``; ``core_dir``: ``src/regime_core``; ``cache_dir``: where
        the bytecode and the trimmed standard library are kept between builds (see ``runtime_cache``).
        """
        self.pyodide_dir = pyodide_dir
        self.core_dir = core_dir
        self.cache = RuntimeCache(cache_dir) if cache_dir is not None else None
        self._bytecode: tuple[str, list[tuple[str, bytes]]] = ("", [])  # (sources' hash, .pyc files)
        self._stdlib: tuple[str, bytes, bytes] = ("", b"", b"")  # (sources' hash, python_stdlib.zip, lock file)

    def pyodide_version(self) -> str:
        """The pinned Pyodide's version, from its package.json."""
        package = self.pyodide_dir / "package.json"
        if not package.is_file():
            raise PrebuildError(f"regime: {self.pyodide_dir} is missing; run `npm ci` (or `make setup`) first")
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])

    def runtime(self) -> Runtime:
        """The wheel, the trimmed Pyodide files and the manifest (its paths relative to ``assets/regime/``)."""
        version = self.pyodide_version()
        source = self.pyodide_dir
        for name in PYODIDE_FILES:
            if not (source / name).is_file():
                raise PrebuildError(f"regime: {source / name} is missing; reinstall with `npm ci`")
        files = package_files(self.core_dir)
        key = key_of(version, files)
        kept = self.cache.get(key) if self.cache is not None and self._bytecode[0] != key else None
        if kept is not None:
            self._bytecode, self._stdlib = (key, kept.bytecode), (key, kept.stdlib, kept.lock)
        if self._bytecode[0] != key:
            self._bytecode = (key, compile_for_pyodide(browser_modules(files), source))
        wheel_name, wheel_bytes = build_wheel(browser_files(files, self._bytecode[1]))
        if self._stdlib[0] != key:
            lock = trimmed_lock((source / "pyodide-lock.json").read_bytes())
            self._stdlib = (key, trimmed_stdlib(source, wheel_bytes, files), lock)
            if self.cache is not None:
                self.cache.put(key, Kept(self._bytecode[1], self._stdlib[1], lock))
        stdlib, lock = self._stdlib[1:]
        manifest = {
            "pyodide": f"../pyodide/{version}/",
            "wheel": f"wheels/{hashlib.sha256(wheel_bytes).hexdigest()[:16]}/{wheel_name}",
            "pyodide_version": version,
            # The bridge's version: the worker refuses a wheel that speaks another (see regime_core.bridge.protocol).
            "protocol": str(PROTOCOL),
            # Named by its content: which modules it holds changes with the core, the cache lasts a year.
            "stdlib": f"../pyodide/{version}/{hashlib.sha256(stdlib).hexdigest()[:16]}/python_stdlib.zip",
            # What the worker's progress line counts up to: what it fetches (the .mjs are imports).
            "bytes": str((source / "pyodide.asm.wasm").stat().st_size + len(lock) + len(stdlib) + len(wheel_bytes)),
            # The files the worker checks before loadPyodide (which never settles when one is missing):
            # the list is written here once, beside the copy that serves them.
            "files": ",".join((*PYODIDE_FILES, "pyodide-lock.json")),
        }
        written = {
            f"assets/pyodide/{version}/pyodide-lock.json": lock,
            posixpath.normpath(f"assets/regime/{manifest['stdlib']}"): stdlib,
            f"assets/regime/{manifest['wheel']}": wheel_bytes,
            "assets/regime/runtime.json": json.dumps(manifest, indent=2).encode(),
        }
        copies = {f"assets/pyodide/{version}/{name}": source / name for name in PYODIDE_FILES}
        return Runtime(manifest, written, copies)


def template_runtime(manifest: dict[str, str]) -> dict[str, str]:
    """What templates get as ``regime_runtime``: the manifest, and the worker's query string that carries it."""
    return {**manifest, "query": urlencode(manifest)}


def pages() -> dict[str, str]:
    """The generated pages' Markdown by source path (``casebook/<id>.md``)."""
    return casebook_pages()


def write_folder(out: Path, root: Path = ROOT) -> Path:
    """Write ``out/docs`` and ``out/mkdocs.yml`` (see the module's docstring); returns the config's path."""
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    shutil.copytree(root / "docs", docs)
    for path, markdown in pages().items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(markdown, encoding="utf-8")
    runtime = Prebuild(root / PYODIDE_DIR, root / CORE_DIR, root / CACHE_DIR).runtime()
    runtime.write(docs)
    config = out / "mkdocs.yml"
    # INHERIT merges mappings and replaces lists: the plugins are the project's own, read from its
    # config, less `regime` (JSON is YAML, one plugin a line).
    plugins = "".join(f"  - {json.dumps(p)}\n" for p in _project_plugins(root / "mkdocs.yml") if _name(p) != "regime")
    config.write_text(
        f"INHERIT: {json.dumps(str((root / 'mkdocs.yml').resolve()))}\n"
        f"docs_dir: {json.dumps(str(docs.resolve()))}\n"
        f"theme:\n  custom_dir: {json.dumps(str((root / 'overrides').resolve()))}\n"
        f"plugins:\n{plugins}"
        f"extra:\n  regime_runtime: {json.dumps(template_runtime(runtime.manifest))}\n",
        encoding="utf-8")
    return config


def _project_plugins(config: Path) -> list[object]:
    """The ``plugins`` list of a MkDocs config as written, read with MkDocs' own YAML loader (``!ENV``)."""
    loaded = yaml.load(config.read_text(encoding="utf-8"), Loader=get_yaml_loader())
    return list(loaded.get("plugins", []))


def _name(plugin: object) -> str:
    """A plugin entry's name: ``search``, or the one key of ``{"markdown-exec": {...}}``."""
    return plugin if isinstance(plugin, str) else next(iter(plugin)) if isinstance(plugin, dict) else ""


def main(argv: list[str] | None = None) -> int:
    """``python -m regime_site.prebuild OUT``: write the folder; one line and exit 2 if it cannot."""
    parser = argparse.ArgumentParser(prog="python -m regime_site.prebuild", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write (docs/ and mkdocs.yml go in it)")
    args = parser.parse_args(argv)
    try:
        config = write_folder(args.out)
    except PrebuildError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"wrote {config}: build it with `mkdocs build -f {config}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
