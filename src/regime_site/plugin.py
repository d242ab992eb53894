"""The ``regime`` MkDocs plugin: puts a self-hosted Pyodide and the core's wheel into the site.

On every build (``mkdocs build`` and each rebuild of ``mkdocs serve``) it runs the plain build step in
``prebuild.py``: a wheel of ``regime_core`` (with bytecode compiled by the Pyodide it serves, see
``bytecode.py``), the pinned npm package ``pyodide`` from ``node_modules``, and
``assets/regime/runtime.json``, which tells the browser where both are; and it adds the generated
casebook pages. Templates get the same manifest as ``regime_runtime``: pages name it in the worker's
URL, so the worker starts loading Python without a round trip for the manifest. Nothing is fetched
from another origin. A builder that runs no MkDocs plugin runs ``python -m regime_site.prebuild``
first instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from regime_site.prebuild import (
    CACHE_DIR,
    CORE_DIR,
    PYODIDE_DIR,
    Prebuild,
    PrebuildError,
    Runtime,
    pages,
    template_runtime,
)


class RegimePluginConfig(Config):
    """Options in ``mkdocs.yml``."""

    pyodide_dir = config_options.Type(str, default=PYODIDE_DIR)
    core_dir = config_options.Type(str, default=CORE_DIR)


class RegimePlugin(BasePlugin[RegimePluginConfig]):
    """Self-host Pyodide and the regime_core wheel."""

    def __init__(self) -> None:
        """Nothing built yet: each build makes its runtime in ``on_pre_build``."""
        self._prebuild: Prebuild | None = None
        self._runtime = Runtime({}, {}, {})

    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path).parent

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Build the wheel and the manifest the pages name (kept while the core is unchanged)."""
        root = self._root(config)
        if self._prebuild is None:
            self._prebuild = Prebuild(root / self.config.pyodide_dir, root / self.config.core_dir, root / CACHE_DIR)
        try:
            self._runtime = self._prebuild.runtime()
        except PrebuildError as error:
            raise PluginError(str(error)) from error

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        """Add the casebook's pages (one per published case and per drill incident), written by the core."""
        for path, markdown in pages().items():
            files.append(File.generated(config, path, content=markdown))
        return files

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:  # noqa: ARG002
        """Give templates the manifest, and the worker's query string that carries it."""
        env.globals["regime_runtime"] = template_runtime(self._runtime.manifest)
        return env

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Copy Pyodide, write the wheel and the runtime manifest."""
        self._runtime.write(Path(config.site_dir))

    def on_serve(  # MkDocs passes builder by keyword, so the name stays
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any,  # noqa: ARG002
    ) -> LiveReloadServer:
        """Rebuild when the core changes, so the browser gets the new wheel."""
        server.watch(str(self._root(config) / self.config.core_dir))
        return server
