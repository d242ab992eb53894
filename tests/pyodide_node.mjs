// Run regime_core.bridge.api.handle under Pyodide in Node, from the same npm package the site ships.
// Usage: node tests/pyodide_node.mjs WHEEL REQUESTS.json [STDLIB.zip]  ->  prints a JSON list of responses
// (with STDLIB.zip: that standard library instead of the npm package's whole one).
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheelPath, requestsPath, stdLibURL] = process.argv.slice(2);
process.on("uncaughtException", (error) => {
  // Print one readable line instead of Node's dump of the minified source.
  process.stderr.write(`pyodide_node: ${String(error && error.message ? error.message : error).slice(0, 2000)}\n`);
  process.exit(1);
});
const pyodide = await loadPyodide(stdLibURL ? { stdLibURL } : {});
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
const handle = pyodide.pyimport("regime_core.bridge.api").handle;
const requests = JSON.parse(readFileSync(requestsPath, "utf8"));
const version = pyodide.runPython("import sys; sys.version.split()[0]");
process.stdout.write(JSON.stringify({ python: version, responses: requests.map((r) => handle(JSON.stringify(r))) }));
