// Times the trace op under Pyodide (the npm build the site ships) against Pyodide's own json.loads of the
// same file, unzipped: the browser target of bench/trace_page_bench.py. Prints one JSON line of seconds.
// Usage: node bench/trace_pyodide.mjs SRC_DIR TRACE.json.gz RUNS
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [srcDir, tracePath, runs] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/regime-src");
pyodide.mountNodeFS("/regime-src", srcDir);
pyodide.runPython("import sys; sys.path.insert(0, '/regime-src')");
const handle = pyodide.pyimport("regime_core.bridge.api").handle;
const bytes = new Uint8Array(readFileSync(tracePath));
pyodide.globals.set("trace_bytes", bytes);
const bare = pyodide.runPython(`
import gzip, json, time
def bare():
    data = trace_bytes.to_bytes()  # the same one copy the op makes
    start = time.perf_counter()
    json.loads(gzip.decompress(data))
    return time.perf_counter() - start
bare`);
const ours = [];
const theirs = [];
for (let run = 0; run < Number(runs); run += 1) {
  const start = performance.now();
  const answer = JSON.parse(handle('{"op": "trace"}', bytes));
  ours.push((performance.now() - start) / 1000);
  if (!answer.ok) throw new Error(answer.error);
  theirs.push(bare());
}
process.stdout.write(JSON.stringify({ ours, theirs, kernels: JSON.parse(handle('{"op": "trace"}', bytes)).trace.kernels }));
