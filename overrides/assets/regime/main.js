// Entry module: mounts each widget of the current page from Material's document$, and
// tears the previous page's widgets down on instant navigation.
import * as acceptance from "./acceptance.js";
import * as attempt from "./attempt.js";
import * as casebookFilter from "./casebook-filter.js";
import * as drillReset from "./drill-reset.js";
import * as incidentExplorer from "./incident-explorer.js";
import * as links from "./links.js";
import * as mentor from "./mentor.js";
import * as practice from "./practice.js";
import * as ridgeTable from "./ridge-table.js";
import * as stretch from "./stretch.js";
import * as trace from "./trace.js";
import * as traceDiff from "./trace-diff.js";
import * as traceRanks from "./trace-ranks.js";
import { python } from "./runtime.js";

// The forms show only with JavaScript (regime.css); main.html's head sets this too, before paint.
document.documentElement.classList.add("regime-js");

const COMPONENTS = { acceptance, attempt, "casebook-filter": casebookFilter, links, mentor, practice, "ridge-table": ridgeTable, "incident-explorer": incidentExplorer, stretch, "drill-reset": drillReset, trace, "trace-diff": traceDiff, "trace-ranks": traceRanks };
const live = new Map(); // element -> teardown
let mountedRoot = null;
let mountedPath = null; // the address mountedRoot was mounted at: instant navigation swaps the page first

function teardownAll() {
  for (const teardown of live.values()) {
    try {
      teardown();
    } catch (error) {
      console.warn("regime: teardown failed", error);
    }
  }
  live.clear();
}

/**
 * Mounting opens the answers the learner has unlocked, which pushes everything below them down:
 * a link to #a6 would then show A5's answer. Scroll to the link's target again once they are open
 * (not on a reload or a back/forward visit, where the browser restores where the reader was).
 */
function landOnAnchor(firstPage) {
  let id = "";
  try {
    id = decodeURIComponent(window.location.hash.slice(1));
  } catch {
    return; // a malformed address (#%E0%A4%A) names no element: stay where the browser put the reader
  }
  if (!id) return;
  if (firstPage) {
    const [entry] = performance.getEntriesByType("navigation");
    if (entry && entry.type !== "navigate") return;
  }
  const target = document.getElementById(id);
  if (target) target.scrollIntoView({ block: "start" }); // regime.css keeps it below the header
}

function mountPage() {
  const root = document.querySelector("article") || document.body;
  if (root === mountedRoot) return; // the same page, reported twice
  const firstPage = mountedRoot === null;
  teardownAll();
  mountedRoot = root;
  mountedPath = window.location.pathname;
  for (const element of root.querySelectorAll("[data-regime-widget]")) {
    const component = COMPONENTS[element.dataset.regimeWidget];
    if (!component) continue;
    try {
      live.set(element, component.mount(element));
    } catch (error) {
      console.warn("regime: a widget failed to mount", error);
    }
  }
  if (live.size) landOnAnchor(firstPage);
}

// Read-only hooks for the browser tests and the benchmark: live widgets, and the runtime.
window.regimeWidgets = Object.freeze({
  live: () => live.size,
  // Whether the page on show is the one mounted (after instant navigation has swapped it and mounted it).
  settled: () => mountedRoot === (document.querySelector("article") || document.body) && mountedPath === window.location.pathname,
  python: Object.freeze({
    state: () => python.state,
    readyAt: () => python.readyAt,
    timings: () => python.timings,
    call: (op, payload, bytes) => python.call(op, payload, bytes),
  }),
});

if (window.document$ && typeof window.document$.subscribe === "function") {
  let emitted = false;
  window.document$.subscribe({
    next: () => {
      emitted = true;
      mountPage();
    },
    complete: () => {
      if (!emitted) mountPage();
    },
  });
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountPage, { once: true });
} else {
  mountPage();
}
