// Make a Pyodide memory snapshot with regime_core imported and its data loaded, for the benchmark's
// "beat the floor" experiment. Usage: node bench/make_snapshot.mjs WHEEL OUT.bin
// (_makeSnapshot/_loadSnapshot are Pyodide's experimental options; the site does not ship this.)
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheelPath, outPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ _makeSnapshot: true });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
// Import everything and read every data file now: the snapshot keeps memory, not the files.
pyodide.runPython(`
import regime_core.bridge.api
from regime_core.resources import load_json
for name in ("hardware.json", "levers.json", "drill.json"):
    load_json(name)
regime_core.bridge.api.handle('{"op": "gpus"}')
regime_core.bridge.api.handle('{"op": "classify", "symptoms": {"observed": {"occupancy": 0.5}}}')
`);
writeFileSync(outPath, pyodide.makeMemorySnapshot());
