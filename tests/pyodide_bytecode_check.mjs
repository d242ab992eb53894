// Import every module of the served wheel in Pyodide: it carries bytecode and no source, so each
// import succeeds only when the interpreter reads that bytecode.
// Usage: node tests/pyodide_bytecode_check.mjs WHEEL  ->  prints how many modules it imported.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const pyodide = await loadPyodide();
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(process.argv[2])), "wheel", { extractDir: sitePackages });
process.stdout.write(String(pyodide.runPython(`
import importlib, pathlib, site
package = pathlib.Path(site.getsitepackages()[0]) / "regime_core"
assert not list(package.rglob("*.py")), "the wheel carries a source"
names = [".".join(c.relative_to(package).with_suffix("").parts) for c in sorted(package.rglob("*.pyc"))]
modules = ["regime_core." + n.removesuffix(".__init__") for n in names if n != "__init__"]
for name in modules:
    importlib.import_module(name)
len(modules)
`)));
