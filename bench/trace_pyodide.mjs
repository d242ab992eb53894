// Times one side of bench/trace_page_bench.py under Pyodide (the npm build the site ships), once, in this
// fresh process: the trace op (what the page's worker runs on a dropped file, the core imported first, as
// the page's snapshot has it) or Pyodide's own json.loads of the same file, unzipped. A fresh interpreter
// per timing: one side's leftover heap must not slow the other (in one interpreter, json.loads run after
// the op took twice as long as on its own). Prints one JSON line: {"seconds": ..., "kernels": ...}.
// Usage: node bench/trace_pyodide.mjs SRC_DIR TRACE.json.gz op|loads
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [srcDir, tracePath, side] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/regime-src");
pyodide.mountNodeFS("/regime-src", srcDir);
pyodide.runPython("import sys; sys.path.insert(0, '/regime-src')");
const bytes = new Uint8Array(readFileSync(tracePath));
if (side === "op") {
  const handle = pyodide.pyimport("regime_core.bridge.api").handle;
  pyodide.runPython("from regime_core.resources import warm_up; warm_up()");
  const start = performance.now();
  const answer = JSON.parse(handle('{"op": "trace"}', bytes));
  const seconds = (performance.now() - start) / 1000;
  if (!answer.ok) throw new Error(answer.error);
  process.stdout.write(JSON.stringify({ seconds, kernels: answer.trace.kernels }));
} else {
  pyodide.globals.set("trace_bytes", bytes);
  const seconds = pyodide.runPython(`
import gzip, json, time
data = trace_bytes.to_bytes()  # the same one copy the op makes
start = time.perf_counter()
json.loads(gzip.decompress(data))
time.perf_counter() - start`);
  process.stdout.write(JSON.stringify({ seconds }));
}
