"""The ``regime`` MkDocs plugin: puts a self-hosted Pyodide and the core's wheel into the site.

On every build (``mkdocs build`` and each rebuild of ``mkdocs serve``) it builds a wheel of
``regime_core`` (with bytecode compiled by the Pyodide it serves, see ``bytecode.py``), copies the
pinned npm package ``pyodide`` from ``node_modules`` and the wheel into ``assets/``, and writes
``assets/regime/runtime.json``, which tells the browser where both are. Templates get the same
manifest as ``regime_runtime``: pages name it in the worker's URL, so the worker starts loading
Python without a round trip for the manifest. Nothing is fetched from another origin.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from regime_core.bridge.protocol import PROTOCOL
from regime_site.bytecode import compile_for_pyodide
from regime_site.casebook import pages as casebook_pages
from regime_site.stdlib import trimmed_lock, trimmed_stdlib
from regime_site.wheel import browser_files, browser_modules, build_wheel, package_files

#: The runtime files Pyodide loads, served as the npm package has them; nothing else from it is served
#: but a trimmed ``python_stdlib.zip`` and ``pyodide-lock.json`` (see ``stdlib.py``).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")


class RegimePluginConfig(Config):
    """Options in ``mkdocs.yml``."""

    pyodide_dir = config_options.Type(str, default="node_modules/pyodide")
    core_dir = config_options.Type(str, default="src/regime_core")


class RegimePlugin(BasePlugin[RegimePluginConfig]):
    """Self-host Pyodide and the regime_core wheel."""

    def __init__(self) -> None:
        """Nothing built yet: each build makes its wheel in ``on_pre_build``."""
        self._wheel: tuple[str, bytes] = ("", b"")
        self._manifest: dict[str, str] = {}
        self._bytecode: tuple[str, list[tuple[str, bytes]]] = ("", [])  # (sources' hash, .pyc files)
        self._stdlib: tuple[str, bytes, bytes] = ("", b"", b"")  # (sources' hash, python_stdlib.zip, lock file)

    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent

    def _pyodide_source(self, config: MkDocsConfig) -> tuple[Path, str]:
        source = self._root(config) / self.config.pyodide_dir
        package = source / "package.json"
        if not package.is_file():
            raise PluginError(f"regime: {source} is missing; run `npm ci` (or `make setup`) first")
        return source, str(json.loads(package.read_text(encoding="utf-8"))["version"])

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Build the wheel and the manifest (paths relative to ``assets/regime/``) the pages name."""
        source, version = self._pyodide_source(config)
        core = self._root(config) / self.config.core_dir
        files = package_files(core)
        key = hashlib.sha256(repr((version, files)).encode()).hexdigest()
        if self._bytecode[0] != key:  # `mkdocs serve` rebuilds: compile again only when the core changed
            self._bytecode = (key, compile_for_pyodide(browser_modules(files), source))
        wheel_name, wheel_bytes = build_wheel(browser_files(files, self._bytecode[1]))
        digest = hashlib.sha256(wheel_bytes).hexdigest()[:16]
        self._wheel = (wheel_name, wheel_bytes)
        if self._stdlib[0] != key:
            lock = trimmed_lock((source / "pyodide-lock.json").read_bytes())
            self._stdlib = (key, trimmed_stdlib(source, wheel_bytes, files), lock)
        stdlib, lock = self._stdlib[1:]
        self._manifest = {
            "pyodide": f"../pyodide/{version}/",
            "wheel": f"wheels/{digest}/{wheel_name}",
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

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        """Add the casebook's pages (one per published case and per drill incident), written by the core."""
        for path, markdown in casebook_pages().items():
            files.append(File.generated(config, path, content=markdown))
        return files

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:  # noqa: ARG002
        """Give templates the manifest, and the worker's query string that carries it."""
        env.globals["regime_runtime"] = {**self._manifest, "query": urlencode(self._manifest)}
        return env

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Copy Pyodide, write the wheel and the runtime manifest."""
        source, version = self._pyodide_source(config)
        site = Path(config.site_dir)
        target = site / "assets" / "pyodide" / version
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            if not (source / name).is_file():
                raise PluginError(f"regime: {source / name} is missing; reinstall with `npm ci`")
            destination = target / name
            if not destination.exists() or destination.stat().st_size != (source / name).stat().st_size:
                shutil.copyfile(source / name, destination)
        (target / "pyodide-lock.json").write_bytes(self._stdlib[2])
        stdlib = site / "assets" / "regime" / self._manifest["stdlib"]
        stdlib.parent.mkdir(parents=True, exist_ok=True)
        stdlib.write_bytes(self._stdlib[1])
        regime = site / "assets" / "regime"
        wheel_path = regime / self._manifest["wheel"]
        wheel_path.parent.mkdir(parents=True, exist_ok=True)
        wheel_path.write_bytes(self._wheel[1])
        (regime / "runtime.json").write_text(json.dumps(self._manifest, indent=2), encoding="utf-8")

    def on_serve(  # MkDocs passes builder by keyword, so the name stays
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any,  # noqa: ARG002
    ) -> LiveReloadServer:
        """Rebuild when the core changes, so the browser gets the new wheel."""
        server.watch(str(self._root(config) / self.config.core_dir))
        return server
