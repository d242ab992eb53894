"""Bytecode of the core for the browser, compiled by the Pyodide the site serves.

Importing ``regime_core`` from source costs Pyodide ~30 ms of compiling at every cold start; with
bytecode in the wheel in place of the sources, it reads bytecode instead, and the first visit
downloads no source. Only that Python can write bytecode it will
accept (the format changes between minor versions), so the build runs it in Node, from the same
npm package it copies into the site. The result depends only on the sources and that package.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from mkdocs.exceptions import PluginError

SCRIPT = Path(__file__).with_name("bytecode.mjs")


def compile_for_pyodide(files: Sequence[tuple[str, bytes]], pyodide_dir: Path) -> list[tuple[str, bytes]]:
    """Return (wheel path, bytes) of a ``.pyc`` for each ``.py`` in ``files``, for Pyodide's Python.

    Each ``.pyc`` lies where its ``.py`` was (``regime_core/x.pyc``): Python imports such a file
    without its source, where it would ignore one in ``__pycache__``.
    """
    node = shutil.which("node")
    if node is None:
        raise PluginError("regime: Node.js is needed to compile the core's bytecode for Pyodide (it also runs"
                          " `npm ci`); install it, or run `make setup`")
    sources = {name: data.decode("utf-8") for name, data in files if name.endswith(".py")}
    result = subprocess.run([node, str(SCRIPT), str(pyodide_dir.resolve())], input=json.dumps(sources),
                            capture_output=True, text=True, check=False, timeout=300)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise PluginError(f"regime: compiling the core's bytecode in Pyodide failed: {last}")
    compiled: dict[str, str] = json.loads(result.stdout)
    return sorted((name, base64.b64decode(data)) for name, data in compiled.items())
