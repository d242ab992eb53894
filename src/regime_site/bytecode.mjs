// Compile the core's modules with the Python the site serves (Pyodide's), so the browser imports
// bytecode instead of compiling source at start-up. Called by bytecode.py at build time.
// stdin: {"site_packages_name.py": "source", ...}; stdout: {"...__pycache__/x.cpython-3NN.pyc": base64}.
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
    cached = py_compile.compile(str(path), doraise=True,
                                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    out[Path(cached).relative_to(root).as_posix()] = base64.b64encode(Path(cached).read_bytes()).decode()
json.dumps(out)
`);
process.stdout.write(compiled);
