"""A ``python_stdlib.zip`` with only the standard library the core uses, built at build time.

Pyodide's own zip holds the whole standard library (2.5 MB, compressed already, so the server
cannot shrink it further); the worker downloads it on every first visit. The core needs a small
part of it. The build starts the Pyodide the site serves in Node, does what the worker does (unpack
the wheel, import the core), imports every module the core's sources name anywhere (function-level
imports included), asks the core a question of each kind, and keeps what is then loaded from the
standard library, with a few codecs Python may look up by name, but not the source of modules frozen
into the interpreter (it is only read for tracebacks; ``os.py`` stays: Python looks for it to find
its library). tests/test_parity.py runs the whole
parity suite against the zip the site serves, so a module missing from it fails a test.

The sources it keeps are minified by the same Python (which parses its own syntax): comments go,
and docstrings go as ``python -OO`` drops them (the standard library is tested to run without
them; Pyodide's start-up, which formats some, takes a missing one as empty). That halves the zip
(716 -> ~380 KB); what is lost is the source lines in a traceback from inside the standard library.
"""

from __future__ import annotations

import ast
import base64
import io
import json
import shutil
import subprocess
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mkdocs.exceptions import PluginError

from regime_site.wheel import NOT_IN_BROWSER

#: Codecs kept whether or not the build saw them used: ones Python and Pyodide may look up by name.
CODECS = ("__init__", "aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_32")

# Runs in Node, from stdin {"pyodide": dir, "wheel": base64, "imports": [names], "codecs": [files]}; prints
# {"files": the standard library files (relative to its folder) loaded afterwards, "minified": {file: source}}
# for those and the codecs.
_SCRIPT = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

process.on("uncaughtException", (error) => {  // one readable line, not the minified source
  process.stderr.write(`${String(error && error.message ? error.message : error).split("\n").slice(-2).join(" ")}\n`);
  process.exit(1);
});
const job = JSON.parse(readFileSync(0, "utf8"));
const { loadPyodide } = await import(pathToFileURL(`${job.pyodide}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${job.pyodide}/` });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(Buffer.from(job.wheel, "base64")), "wheel", { extractDir: sitePackages });
pyodide.globals.set("names", pyodide.toPy(job.imports));
pyodide.globals.set("codecs", pyodide.toPy(job.codecs));
process.stdout.write(pyodide.runPython(`
import importlib, json, os, sys
from regime_core.bridge.api import handle
from regime_core.resources import load_json

for name in names:
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # a module Pyodide does not have: the core cannot use it in the browser either
for name in ("hardware.json", "levers.json", "drill.json"):
    load_json(name)
for request in ({"op": "gpus"}, {"op": "ridge", "hardware": {"id": "l4"}},
                {"op": "ridge_table", "hardware": {"id": "l4"}}):
    answer = json.loads(handle(json.dumps(request)))
    if not answer["ok"]:  # a refused request would load less than a real one: the zip would lack modules
        raise RuntimeError(f"the request {request} was refused: {answer['error']}")
handle(json.dumps({"op": "nope"}))  # the refusal path

def frozen(module):  # its code is in the interpreter: the source would only be read for tracebacks
    return getattr(getattr(module, "__spec__", None), "origin", None) == "frozen" and module.__name__ != "os"

root = os.path.dirname(os.__file__) + "/"
files = sorted({m.__file__[len(root):] for m in list(sys.modules.values())
                if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(root) and not frozen(m)})
# Only now, so that what minifying loads is not counted as used.
import ast, zipfile

def minified(text):
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and ast.get_docstring(node, clean=False) is not None:
            node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree)

with zipfile.ZipFile(root.rstrip("/")) as stdlib:  # the standard library is a zip Python imports from
    sources = {name: minified(stdlib.read(name).decode("utf-8")) for name in sorted(set(files) | set(codecs))}
json.dumps({"files": files, "minified": sources})
`));
"""


def imported_names(files: Iterable[tuple[str, bytes]]) -> list[str]:
    """Every module name the core's sources import anywhere (top-level and inside functions)."""
    names: set[str] = set()
    for path, data in files:
        if not path.endswith(".py") or path in NOT_IN_BROWSER:
            continue
        for node in ast.walk(ast.parse(data, filename=path)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)  # a submodule, perhaps
    return sorted(n for n in names if n.split(".")[0] not in ("regime_core", "__future__"))


def used_files(pyodide_dir: Path, wheel: bytes, imports: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The standard library files loaded in Pyodide once the core has started and answered.

    Returns those files and the minified source of each of them and of the kept codecs.
    """
    node = shutil.which("node")
    if node is None:
        raise PluginError("regime: Node.js is needed to find the standard library the core uses (it also runs"
                          " `npm ci`); install it, or run `make setup`")
    job = json.dumps({"pyodide": str(pyodide_dir.resolve()), "wheel": base64.b64encode(wheel).decode(),
                      "imports": list(imports), "codecs": _codec_files()})
    result = subprocess.run([node, "--input-type=module", "-e", _SCRIPT], input=job, capture_output=True,
                            text=True, check=False, timeout=300)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1][:300]
        raise PluginError(f"regime: finding the standard library the core uses failed: {last}")
    found = json.loads(result.stdout)
    return list(found["files"]), dict(found["minified"])


def _codec_files() -> list[str]:
    return [f"encodings/{codec}.py" for codec in CODECS]


def trim(full_zip: bytes, keep: Iterable[str], sources: Mapping[str, str] | None = None) -> bytes:
    """``full_zip`` with only the files in ``keep`` (paths inside it), their folders and the kept codecs.

    Each file's text is replaced by ``sources[file]`` where given. Entries keep their order and dates, so the result depends only on its inputs.
    """
    sources = sources or {}
    wanted = set(keep) | set(_codec_files())
    folders = {"site-packages/"} | {path[: i + 1] for path in wanted for i, c in enumerate(path) if c == "/"}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(full_zip)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            if entry.filename in sources:
                target.writestr(entry, sources[entry.filename].encode(), compress_type=zipfile.ZIP_DEFLATED,
                                compresslevel=9)
            elif entry.filename in wanted or entry.filename in folders:
                target.writestr(entry, source.read(entry), compress_type=entry.compress_type)
    return out.getvalue()


def trimmed_stdlib(pyodide_dir: Path, wheel: bytes, core_files: Iterable[tuple[str, bytes]]) -> bytes:
    """The standard library zip the site serves: what the core in ``wheel`` uses, from ``pyodide_dir``."""
    files, sources = used_files(pyodide_dir, wheel, imported_names(core_files))
    return trim((pyodide_dir / "python_stdlib.zip").read_bytes(), files, sources)


def trimmed_lock(full_lock: bytes) -> bytes:
    """Pyodide's lock file without its package list: the site loads no package (119 KB -> under 1 KB)."""
    lock = json.loads(full_lock)
    return json.dumps({**lock, "packages": {}}, sort_keys=True, separators=(",", ":")).encode()
