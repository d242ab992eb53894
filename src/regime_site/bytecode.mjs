// Compile the core's modules with the Python the site serves (Pyodide's), so the browser imports
// bytecode instead of compiling source at start-up. Called by bytecode.py at build time.
// stdin: {"regime_core/x.py": "source", ...}; stdout: {"regime_core/x.pyc": base64, ...}: each .pyc
// where its source was, which Python imports with no source beside it (the wheel ships no sources),
// without docstrings (optimize=2: nothing in the browser reads them; 9% of the wheel).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir] = process.argv.slice(2);
const sources = JSON.parse(readFileSync(0, "utf8"));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.globals.set("sources", pyodide.toPy(sources));
const compiled = pyodide.runPython(`
import base64, importlib.util, json, py_compile, site
from pathlib import Path

root = Path(site.getsitepackages()[0])  # where the worker unpacks the wheel: tracebacks name it
out = {}
for name, text in sources.items():
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    # Unchecked hash: the loader trusts the .pyc and never reads the source to validate it.
    cached = py_compile.compile(str(path), cfile=str(path.with_suffix(".pyc")), doraise=True, optimize=2,
                                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    out[Path(cached).relative_to(root).as_posix()] = base64.b64encode(Path(cached).read_bytes()).decode()
json.dumps(out)
`);
process.stdout.write(compiled);
