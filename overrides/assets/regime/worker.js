// Web Worker that runs regime_core in Pyodide, so the page never waits for Python.
// Protocol: {id, request, bytes?} in (request is JSON text; bytes an ArrayBuffer sent beside it), {id, response} out ({id, response, fatal: true}
// when the interpreter died on it); {type: "progress", loaded,
// total} while it downloads; {type: "alive"} as it starts; {type: "ready"} or {type: "failed", reason, retry} once, after start-up. Every file comes from this site's origin.
// The page names the runtime manifest in this worker's query; runtime.json is the same, for a worker
// started without it.
const manifestUrl = new URL("./runtime.json", import.meta.url);

async function runtimeManifest() {
  if (["pyodide", "wheel", "pyodide_version", "stdlib"].every((key) => query.has(key))) return Object.fromEntries(query);
  return (await fetchOk(manifestUrl, "runtime.json")).json();
}

async function fetchOk(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw networkError(`${what} could not be fetched`);
  }
  if (!response.ok) {
    const error = new Error(`${what} returned HTTP ${response.status}`);
    error.retry = response.status >= 500;
    throw error;
  }
  return response;
}

/** An error worth a Retry: the network, not the site, failed. */
function networkError(message) {
  const error = new Error(message);
  error.retry = true;
  return error;
}

// The files loadPyodide fetches: the manifest lists them (plugin.py writes the list once, beside the
// copy that serves them), and the standard library comes from where the manifest says (the site serves
// a trimmed one). loadPyodide never settles when one of them fails to load, so they are checked first
// (HEAD requests: no bodies), and a watchdog covers anything else.
async function checkFiles(indexURL, stdLibURL, files) {
  const names = files ? files.split(",") : [];
  const urls = [...names.map((name) => new URL(name, indexURL)), new URL(stdLibURL)];
  await Promise.all(urls.map(async (url) => {
    const name = url.pathname.split("/").pop();
    let response;
    try {
      response = await fetch(url, { method: "HEAD" });
    } catch {
      throw networkError(`${name} could not be fetched`);
    }
    if (response.status === 404 || response.status === 410) throw new Error(`${name} is missing (HTTP ${response.status})`);
  }));
}

async function checkWebAssembly() {
  const emptyModule = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
  try {
    await WebAssembly.compile(emptyModule);
  } catch (error) {
    const why = error && error.name === "EvalError" || /Content Security Policy|CSP/i.test(String(error))
      ? "the page's Content-Security-Policy blocks WebAssembly ('wasm-unsafe-eval' is missing)"
      : "this browser cannot compile WebAssembly";
    throw new Error(why);
  }
}

// Downloads are watched, not timed: a slow link that keeps delivering is never cut off. Start-up
// fails only when a download has received nothing for STALL_S seconds, or, once nothing is being
// downloaded, when Python has not started within START_S seconds of the last byte (a busy CPU).
// Every GET of the worker's fetch() (the wasm, the standard library, the lock file, the wheel) is
// counted, and the page shows the count ({type: "progress", loaded, total} in bytes, decompressed).
const query = new URL(import.meta.url).searchParams;
const STALL_S = Number(query.get("stall_s")) || 20;
const START_S = 120;
const PROGRESS_EVERY_MS = 250;
const download = { loaded: 0, total: Number(query.get("bytes")) || 0, open: 0, lastActivity: performance.now(), sent: 0 };

function reportProgress(force = false) {
  const now = performance.now();
  if (!force && now - download.sent < PROGRESS_EVERY_MS) return;
  download.sent = now;
  postMessage({ type: "progress", loaded: download.loaded, total: Math.max(download.total, download.loaded) });
}

function active() {
  download.lastActivity = performance.now();
}

/** Count a response's bytes on a clone as they arrive; the caller gets the response itself (with its
 * URL, so the browser's compiled-wasm cache still applies to it). */
function counted(response) {
  if (!response.body) {
    download.open -= 1;
    return response;
  }
  const reader = response.clone().body.getReader();
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        active();
        if (done) break;
        download.loaded += value.byteLength;
        reportProgress();
      }
    } catch {
      /* the reader of the response itself sees the error */
    } finally {
      download.open -= 1;
      reportProgress(true);
    }
  })();
  return response;
}

const plainFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = async (resource, options) => {
  const method = (options && options.method) || (resource instanceof Request ? resource.method : "GET");
  if (method.toUpperCase() !== "GET") return plainFetch(resource, options);
  download.open += 1;
  active();
  let response;
  try {
    response = await plainFetch(resource, options);
  } catch (error) {
    download.open -= 1;
    active();
    throw error;
  }
  active();
  return counted(response);
};

/** Rejects when the downloads stall, or when Python does not start after they end; quiet once started. */
function watchdog() {
  return new Promise((_, reject) => {
    const timer = setInterval(() => {
      if (download.started) {
        clearInterval(timer);
        return;
      }
      const idle = (performance.now() - download.lastActivity) / 1000;
      if (download.open > 0 && idle > STALL_S) {
        clearInterval(timer);
        reject(networkError(`nothing arrived for ${STALL_S} s (the connection may have dropped)`));
      } else if (download.open <= 0 && idle > START_S) {
        clearInterval(timer);
        reject(new Error(`it did not start within ${START_S} s of its download`));
      }
    }, 1000);
  });
}

// After a first start, the interpreter with the core imported is kept as a memory snapshot in this
// origin's Cache Storage: later visits restore it (a few hundred ms) instead of starting Python
// (seconds), with no extra download. Any failure falls back to the normal start.
const SNAPSHOT_CACHE = "regime-python-snapshot";
// Every data file is read into memory before the snapshot is taken, since a snapshot keeps memory
// and no files; after "ready", because no request needs all of them at once.
const WARM_UP = "from regime_core.resources import warm_up; warm_up()";

async function cachedSnapshot(key) {
  try {
    const response = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null; // no Cache Storage here (an old browser, a sandbox): start the normal way
  }
}

async function storeSnapshot(key, bytes) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const request of await cache.keys()) await cache.delete(request); // one snapshot, the current one
    if (bytes) await cache.put(key, new Response(bytes));
  } catch {
    /* storage full or blocked: next visit starts the normal way */
  }
}

async function restore(loadPyodide, indexURL, stdLibURL, snapshot, key, checksFail, stalled) {
  if (!snapshot) return null;
  try {
    const restoring = loadPyodide({ indexURL, stdLibURL, _loadSnapshot: snapshot });
    restoring.catch(() => {});
    const pyodide = await Promise.race([restoring, checksFail, stalled]);
    const handle = pyodide.pyimport("regime_core.bridge.api").handle;
    if (!JSON.parse(handle('{"op": "gpus"}')).ok) throw new Error("the restored core does not answer");
    timings.source = "snapshot";
    return handle;
  } catch {
    await storeSnapshot(key, null);
    return null;
  }
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  const manifest = await runtimeManifest();
  const indexURL = new URL(manifest.pyodide, manifestUrl).href;
  const stdLibURL = new URL(manifest.stdlib, manifestUrl).href;
  const snapshotKey = new URL(`snapshot/${manifest.pyodide_version}/${manifest.wheel}`, manifestUrl).href;
  // Everything that can overlap does: the wheel download and the checks run beside loadPyodide.
  const checksFail = Promise.all([checkWebAssembly(), checkFiles(indexURL, stdLibURL, manifest.files || "")]).then(() => new Promise(() => {}));
  checksFail.catch(() => {}); // the race below reports it; a rejection before the race is not "unhandled"
  const snapshot = cachedSnapshot(snapshotKey); // looked up while the loader downloads
  const stalled = watchdog();
  stalled.catch(() => {}); // reported by the races below
  // The loader's module counts as a download: one that hangs (sent, never answered) is a stall.
  download.open += 1;
  active();
  const importing = import(`${indexURL}pyodide.mjs`).finally(() => {
    download.open -= 1;
    active();
  });
  importing.catch(() => {}); // reported by the race
  const { loadPyodide } = await Promise.race([importing, checksFail, stalled]);
  const restored = await restore(loadPyodide, indexURL, stdLibURL, await snapshot, snapshotKey, checksFail, stalled);
  if (restored) return restored;
  const wheel = fetchOk(new URL(manifest.wheel, manifestUrl), "the regime_core wheel").then((r) => r.arrayBuffer());
  wheel.catch(() => {}); // reported below, once awaited
  const loading = loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true });
  loading.catch(() => {}); // once a check has failed, loadPyodide's own failure is old news
  const pyodide = await Promise.race([loading, checksFail, stalled]);
  timings.pyodide = performance.now();
  // site, not sysconfig: importing sysconfig costs ~30 ms in Pyodide.
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  timings.wheel = performance.now();
  const handle = pyodide.pyimport("regime_core.bridge.api").handle;
  checkProtocol(pyodide, manifest);
  timings.core = performance.now();
  timings.source = "start";
  // Keep the snapshot once the page has its answer; it costs tens of ms, off the critical path.
  setTimeout(() => {
    try {
      pyodide.runPython(WARM_UP);
      storeSnapshot(snapshotKey, pyodide.makeMemorySnapshot());
    } catch {
      /* a snapshot is an optimisation only */
    }
  }, 0);
  return handle;
}

// The page's scripts and the wheel must speak the same bridge (regime_core.bridge.protocol.PROTOCOL, put in the
// manifest at build time): a stale worker beside a new wheel fails here, in one line.
function checkProtocol(pyodide, manifest) {
  const spoken = String(pyodide.pyimport("regime_core.bridge.protocol").PROTOCOL);
  if (manifest.protocol && spoken !== String(manifest.protocol)) {
    throw new Error(`this page expects the Python core's bridge version ${manifest.protocol}, the core speaks ${spoken}: reload the page`);
  }
}

function firstLine(error) {
  const text = String((error && error.message) || error || "unknown error").split("\n")[0];
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

// When a runtime file is missing, Pyodide's loader leaves promises of its own that reject with
// nobody listening. The failure is reported once, through {type: "failed"}; keep the console clean.
addEventListener("unhandledrejection", (event) => event.preventDefault());

// Pyodide also reports a failed start on the console, in several lines, and goes on failing after a
// file check has already said why. The page says it in one line, so console errors are held back
// while Python starts: shown as errors if it starts anyway; if it does not, they and any later ones
// go to console.debug (the detail stays there for whoever debugs; the worker is ended anyway).
function holdConsoleErrors() {
  const held = [];
  const original = console.error;
  console.error = (...args) => held.push(args);
  return (started) => {
    console.error = started ? original : console.debug;
    for (const args of held) console.error(...args);
  };
}

// The page gives a worker that says nothing a deadline of its own (a worker.js that never arrives):
// say at once that this one runs.
postMessage({ type: "alive" });

// Milliseconds since the worker started, per phase: for the benchmark.
const timings = {};
const releaseConsole = holdConsoleErrors();
const ready = boot();
ready.then(
  () => {
    download.started = true;
    releaseConsole(true);
    postMessage({ type: "ready", timings });
  },
  (error) => {
    download.started = true; // failed: nothing more to watch
    releaseConsole(false);
    postMessage({ type: "failed", reason: firstLine(error), retry: Boolean(error && error.retry) });
  },
);

// After a fatal error (Pyodide's own word for it: the WebAssembly stack overflowed, say) the interpreter
// is in an undefined state: nothing more is run in it, and the page is told to start a new worker.
let fatal = false;
const FATAL = "Python stopped on this input and is being restarted; nothing was saved from this request";

addEventListener("message", async (event) => {
  const { id, request, bytes } = event.data;
  try {
    const handle = await ready;
    if (fatal) throw Object.assign(new Error(FATAL), { pyodide_fatal_error: true });
    // A file comes beside its request, as a transferred buffer: Python copies it once, as bytes.
    postMessage({ id, response: bytes ? handle(request, new Uint8Array(bytes)) : handle(request) });
  } catch (error) {
    fatal = fatal || Boolean(error && error.pyodide_fatal_error);
    const response = JSON.stringify({ ok: false, field: "", error: fatal ? FATAL : firstLine(error) });
    postMessage({ id, response, ...(fatal ? { fatal: true } : {}) });
  }
});
