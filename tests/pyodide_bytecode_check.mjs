// Import the served wheel in Pyodide with every source replaced by a line that raises: the import
// succeeds only when the interpreter reads the wheel's bytecode and never the sources.
// Usage: node tests/pyodide_bytecode_check.mjs WHEEL  ->  prints how many modules it imported.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const pyodide = await loadPyodide();
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(process.argv[2])), "wheel", { extractDir: sitePackages });
process.stdout.write(String(pyodide.runPython(`
import importlib, pathlib, site
package = pathlib.Path(site.getsitepackages()[0]) / "regime_core"
sources = sorted(package.glob("*.py"))
for source in sources:
    source.write_text("raise ImportError('the source was read, not the bytecode')\\n")
modules = [f"regime_core.{s.stem}" for s in sources if s.stem not in ("__init__", "__main__")]
for name in modules:
    importlib.import_module(name)
len(modules)
`)));
