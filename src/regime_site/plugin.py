"""The ``regime`` MkDocs plugin: puts a self-hosted Pyodide and the core's wheel into the site.

On every build (``mkdocs build`` and each rebuild of ``mkdocs serve``) it copies the pinned
npm package ``pyodide`` from ``node_modules`` and a freshly built wheel of ``regime_core`` into
``assets/``, and writes ``assets/regime/runtime.json``, which tells the browser where both are.
Nothing is fetched from another origin.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin

from regime_site.wheel import build_wheel

#: The runtime files Pyodide loads; nothing else from the npm package is served.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


class RegimePluginConfig(Config):
    """Options in ``mkdocs.yml``."""

    pyodide_dir = config_options.Type(str, default="node_modules/pyodide")
    core_dir = config_options.Type(str, default="src/regime_core")


class RegimePlugin(BasePlugin[RegimePluginConfig]):
    """Self-host Pyodide and the regime_core wheel."""

    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Copy Pyodide, build the wheel and write the runtime manifest."""
        root = self._root(config)
        source = root / self.config.pyodide_dir
        package = source / "package.json"
        if not package.is_file():
            raise PluginError(f"regime: {source} is missing; run `npm ci` (or `make setup`) first")
        version = json.loads(package.read_text(encoding="utf-8"))["version"]
        site = Path(config.site_dir)
        target = site / "assets" / "pyodide" / version
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            if not (source / name).is_file():
                raise PluginError(f"regime: {source / name} is missing; reinstall with `npm ci`")
            destination = target / name
            if not destination.exists() or destination.stat().st_size != (source / name).stat().st_size:
                shutil.copyfile(source / name, destination)
        wheel_name, wheel_bytes = build_wheel(root / self.config.core_dir)
        digest = hashlib.sha256(wheel_bytes).hexdigest()[:16]
        wheel_dir = site / "assets" / "regime" / "wheels" / digest
        wheel_dir.mkdir(parents=True, exist_ok=True)
        (wheel_dir / wheel_name).write_bytes(wheel_bytes)
        manifest: dict[str, Any] = {
            "pyodide": f"../pyodide/{version}/",
            "wheel": f"wheels/{digest}/{wheel_name}",
            "pyodide_version": version,
        }
        (site / "assets" / "regime" / "runtime.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")

    def on_serve(  # MkDocs passes builder by keyword, so the name stays
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any,  # noqa: ARG002
    ) -> LiveReloadServer:
        """Rebuild when the core changes, so the browser gets the new wheel."""
        server.watch(str(self._root(config) / self.config.core_dir))
        return server
