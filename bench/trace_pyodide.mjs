// Times one side of bench/trace_page_bench.py under Pyodide (the npm build the site ships), once, in this
// fresh process: the trace op (what the page's worker runs on a dropped file, the core imported first, as
// the page's snapshot has it) or Pyodide's own json.loads of the same file, unzipped. A fresh interpreter
// per timing: one side's leftover heap must not slow the other (in one interpreter, json.loads run after
// the op took twice as long as on its own). Prints one JSON line: {"seconds": ..., "kernels": ...}.
// Usage: node bench/trace_pyodide.mjs SRC_DIR TRACE.json.gz op|loads
//        node bench/trace_pyodide.mjs SRC_DIR BEFORE.json.gz diff|loads2 AFTER.json.gz
//        node bench/trace_pyodide.mjs SRC_DIR RANK0.json.gz ranks|loadsN RANK1.json.gz ...
// (ranks: what the page runs on one trace per rank: rank_digest on each in turn, then ranks on the digests;
// loadsN: json.loads of each, unzipped.)
// (diff: what the page runs to compare two files: the trace op on each, then trace_diff on the two readings;
// loads2: json.loads of both, unzipped).
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [srcDir, tracePath, side, secondPath, ...morePaths] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/regime-src");
pyodide.mountNodeFS("/regime-src", srcDir);
pyodide.runPython("import sys; sys.path.insert(0, '/regime-src')");
const bytes = new Uint8Array(readFileSync(tracePath));
if (side === "ranks") {
  const handle = pyodide.pyimport("regime_core.bridge.api").handle;
  pyodide.runPython("from regime_core.resources import warm_up; warm_up()");
  const files = [tracePath, secondPath, ...morePaths].map((path) => new Uint8Array(readFileSync(path)));
  const start = performance.now();
  const digests = files.map((raw, at) => {
    const answer = JSON.parse(handle('{"op": "rank_digest"}', raw));
    if (!answer.ok) throw new Error(answer.error);
    return { file: `rank${at}`, digest: answer.digest };
  });
  const answer = JSON.parse(handle(JSON.stringify({ op: "ranks", digests, refused: [] })));
  const seconds = (performance.now() - start) / 1000;
  if (!answer.ok) throw new Error(answer.error);
  process.stdout.write(JSON.stringify({ seconds, kernels: files.length, verdict: answer.result.job.verdict }));
} else if (side === "loadsN") {
  const files = [tracePath, secondPath, ...morePaths].map((path) => new Uint8Array(readFileSync(path)));
  pyodide.globals.set("trace_files", files);
  const seconds = pyodide.runPython(`
import gzip, json, time
each = [f.to_bytes() for f in trace_files]
start = time.perf_counter()
for data in each:
    json.loads(gzip.decompress(data))
time.perf_counter() - start`);
  process.stdout.write(JSON.stringify({ seconds }));
} else if (side === "diff") {
  const handle = pyodide.pyimport("regime_core.bridge.api").handle;
  pyodide.runPython("from regime_core.resources import warm_up; warm_up()");
  const second = new Uint8Array(readFileSync(secondPath));
  const start = performance.now();
  const before = JSON.parse(handle('{"op": "trace"}', bytes));
  const after = JSON.parse(handle('{"op": "trace"}', second));
  if (!before.ok || !after.ok) throw new Error(before.error || after.error);
  const reading = (answer) => ({ ...answer.verdict, trace: answer.trace });  // as the page keeps a reading
  const answer = JSON.parse(handle(JSON.stringify({ op: "trace_diff", before: reading(before), after: reading(after) })));
  const seconds = (performance.now() - start) / 1000;
  if (!answer.ok) throw new Error(answer.error);
  process.stdout.write(JSON.stringify({ seconds, kernels: before.trace.kernels + after.trace.kernels,
                                        verdict: answer.verdict }));
} else if (side === "loads2") {
  pyodide.globals.set("trace_bytes", bytes);
  pyodide.globals.set("second_bytes", new Uint8Array(readFileSync(secondPath)));
  const seconds = pyodide.runPython(`
import gzip, json, time
first, second = trace_bytes.to_bytes(), second_bytes.to_bytes()
start = time.perf_counter()
json.loads(gzip.decompress(first))
json.loads(gzip.decompress(second))
time.perf_counter() - start`);
  process.stdout.write(JSON.stringify({ seconds }));
} else if (side === "op") {
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
