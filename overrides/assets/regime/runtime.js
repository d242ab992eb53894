// The one Python runtime of a page load: a worker started lazily and reused across
// Material's instant navigation (this module stays loaded while pages change).

// The worker's URL names the runtime manifest (the page's head has it). Resolved once, on the page
// this module first loads with: instant navigation changes the location, not this module.
const workerMeta = document.querySelector('meta[name="regime-worker"]');
const WORKER_URL = workerMeta ? new URL(workerMeta.content, document.baseURI) : new URL("./worker.js", import.meta.url);

// A worker that never says it runs (its script requested and never answered) or goes quiet while it
// starts fails here, as a failed start with Retry. The worker's own watchdog ends a stalled download
// after stall_s seconds of silence (a query parameter of its URL) and a start that hangs after 120 s.
const STALL_S = Number(WORKER_URL.searchParams.get("stall_s")) || 20;
const QUIET_S = 120 + 2 * STALL_S;

/** The worker the head of a page with widgets already started, once; null when there is none. */
function adoptEarlyWorker() {
  const script = document.getElementById("regime-python-start");
  const adopt = script && script.regimeAdopt;
  if (typeof adopt !== "function") return null;
  script.regimeAdopt = null;
  return adopt();
}

class PythonRuntime extends EventTarget {
  constructor() {
    super();
    this.state = "idle";
    this.reason = "";
    this.retryable = false;
    this.progress = null; // {loaded, total} bytes while Python downloads
    this.pending = new Map();
    this.nextId = 1;
    this.worker = null;
  }

  setState(state, reason = "") {
    this.state = state;
    this.reason = reason;
    this.dispatchEvent(new Event("change"));
  }

  /** After a failed start that the network caused: a fresh worker, a fresh download. */
  retry() {
    if (this.state !== "failed") return;
    this.worker = null;
    this.retryable = false;
    this.progress = null;
    this.state = "idle";
    this.start();
  }

  start() {
    if (this.state !== "idle") return;
    this.setState("loading");
    const early = adoptEarlyWorker();
    this.startedAt = early ? early.startedAt : performance.now();
    this.startedBy = early ? "head" : "page";
    try {
      this.worker = early ? early.worker : new Worker(WORKER_URL, { type: "module" });
    } catch (error) {
      this.fail(`the worker could not start (${error && error.name ? error.name : "blocked"})`);
      return;
    }
    const onMessage = (event) => this.receive(event.data);
    const onError = (event) => {
      event.preventDefault();
      this.fail("the worker could not load");
    };
    this.heard = false;
    this.watch();
    this.worker.addEventListener("message", onMessage);
    this.worker.addEventListener("error", onError);
    for (const event of early ? early.events : []) (event.type === "error" ? onError : onMessage)(event);
  }

  /** (Re)arm the page's deadline: the worker's first word within STALL_S, then never QUIET_S of silence. */
  watch() {
    window.clearTimeout(this.deadline);
    if (this.state !== "loading") return;
    const seconds = this.heard ? QUIET_S : STALL_S;
    this.deadline = window.setTimeout(() => this.fail(this.heard
      ? `it said nothing for ${seconds} s`
      : `the worker did not load within ${seconds} s (the connection may have dropped)`, true), seconds * 1000);
  }

  fail(reason, retryable = false) {
    window.clearTimeout(this.deadline);
    if (this.state === "failed") return;
    this.retryable = retryable;
    this.setState("failed", reason);
    for (const { reject } of this.pending.values()) reject(new Error(reason));
    this.pending.clear();
    if (this.worker) this.worker.terminate();
  }

  receive(message) {
    if (this.state === "loading") {
      this.heard = true;
      this.watch();
    }
    if (message.type === "ready") {
      window.clearTimeout(this.deadline);
      this.readyAt = performance.now();
      this.timings = { started: this.startedAt, startedBy: this.startedBy, ...message.timings };
      this.setState("ready");
    } else if (message.type === "progress") {
      if (this.state !== "loading") return;
      this.progress = { loaded: message.loaded, total: message.total };
      this.dispatchEvent(new Event("change"));
    } else if (message.type === "failed") {
      this.fail(message.reason, Boolean(message.retry));
    } else if (this.pending.has(message.id)) {
      const { resolve, reject } = this.pending.get(message.id);
      this.pending.delete(message.id);
      try {
        resolve(JSON.parse(message.response));
      } catch {
        reject(new Error("Python sent an unreadable answer"));
      }
      if (message.fatal) this.restart();
    }
  }

  /** The worker's interpreter died (a fatal error): end it and start a fresh one, which restores from the
   * memory snapshot in well under a second. Requests still waiting get the same one-line failure. */
  restart() {
    if (this.state !== "ready") return;
    this.restarts = (this.restarts || 0) + 1;
    if (this.restarts > 3) {
      this.fail("it stopped again after three restarts; reload the page");
      return;
    }
    for (const { resolve } of this.pending.values()) {
      resolve({ ok: false, field: "", error: "Python was restarted; try again" });
    }
    this.pending.clear();
    this.worker.terminate();
    this.worker = null;
    this.state = "idle";
    this.start();
  }

  /** Send one request to regime_core.bridge.api.handle; resolves to its JSON response. A file's bytes
   * (a Uint8Array) go beside the request, their buffer moved to the worker rather than copied. */
  call(op, payload = {}, bytes = null) {
    this.start();
    if (this.state === "failed") return Promise.reject(new Error(this.reason));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request = JSON.stringify({ ...payload, op });
      if (bytes) this.worker.postMessage({ id, request, bytes: bytes.buffer }, [bytes.buffer]);
      else this.worker.postMessage({ id, request });
    });
  }

  /**
   * Start right after the next paint: the worker loads Python off the main thread, so reading
   * and first paint never wait for it, and pages without Python widgets never start it.
   */
  startSoon() {
    if (this.state !== "idle" || this.soonQueued) return;
    this.soonQueued = true;
    window.requestAnimationFrame(() => window.setTimeout(() => this.start(), 0));
  }
}

export const python = new PythonRuntime();

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** What the status line says while Python loads: the download's progress, then "Starting…". */
function loadingText(progress) {
  if (!progress || !progress.total) return "Starting Python in your browser…";
  if (progress.loaded < progress.total) {
    return `Downloading Python: ${megabytes(progress.loaded)} of ${megabytes(progress.total)} MB`;
  }
  return "Starting Python…";
}

/** Keep a status line in sync with the runtime (with a Retry button after a network failure); returns a teardown. */
export function bindStatus(element) {
  if (!element) return () => {};
  const render = () => {
    const messages = {
      idle: "",
      loading: loadingText(python.progress),
      ready: "",
      failed: `Python could not start: ${python.reason}. The page still works, and answers still open.`,
    };
    element.textContent = messages[python.state];
    element.dataset.state = python.state;
    // The progress changes several times a second: a screen reader hears the line once it settles.
    element.setAttribute("aria-busy", String(python.state === "loading"));
    if (python.state === "failed" && python.retryable) {
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "md-button regime-status__retry";
      retry.textContent = "Retry";
      retry.addEventListener("click", () => python.retry());
      element.append(" ", retry);
    }
  };
  render();
  python.addEventListener("change", render);
  return () => python.removeEventListener("change", render);
}
