// Practice: one generated incident at a time, graded like Part A, with a tally kept in this browser.
// regime_core writes the incident and grades the attempt; this widget renders and forwards.
import { clearErrors, clearFieldError, download, enterChecks, h, on, readForm, showError, verdictNodes } from "./dom.js";
import { hintLadder } from "./hints.js";
import { bindLearnerName } from "./learner.js";
import { copy } from "./links.js";
import { bindStatus, python } from "./runtime.js";

const KEY = "regime-practice";
const MAX_SEED = 2 ** 53 - 1;
const MARKS = { true: "✓", false: "✗", null: "?" };
// The tally's row order; each row's name is the core's (stored with it). A regime the core adds later still
// gets its row, after these.
const TALLY_ORDER = ["compute", "memory", "overhead", "communication", "undecided"];

function emptyRecord() {
  return { tally: {}, confusion: {}, traps: {}, missed: {}, graded: [] };
}

const count = (value) => (Number.isInteger(value) && value >= 0 ? value : 0);
const isObject = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The entries of `value` (an object) that `read` can read, each as `read` gives it; the rest dropped. */
function readable(value, read) {
  const out = {};
  if (!isObject(value)) return out;
  for (const [key, entry] of Object.entries(value)) {
    const kept = read(entry);
    if (kept !== null && key.length <= 200) out[key] = kept;
  }
  return out;
}

/** A stored record read defensively: what is readable is kept, a damaged part starts empty. */
function normalise(saved) {
  if (!isObject(saved)) return emptyRecord();
  return {
    tally: readable(saved.tally, (row) => (isObject(row)
      ? { tried: count(row.tried), right: Math.min(count(row.right), count(row.tried)), name: String(row.name || "") } : null)),
    confusion: readable(saved.confusion, (n) => (count(n) ? count(n) : null)),
    traps: readable(saved.traps, (t) => (isObject(t) ? { met: count(t.met), caught: Math.min(count(t.caught), count(t.met)) } : null)),
    missed: readable(saved.missed, (n) => (Number.isInteger(n) ? count(n) : null)),
    graded: Array.isArray(saved.graded) ? saved.graded.filter((id) => typeof id === "string").slice(-500) : [],
  };
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The learner's record as stored now (an empty one where storage is refused), and whether it may be
 * written back: text that is not a record is first copied aside, and left as it is when it cannot be.
 */
function load() {
  let raw = null;
  try {
    raw = storage().getItem(KEY);
  } catch {
    return { rec: emptyRecord(), writable: false };
  }
  if (raw === null) return { rec: emptyRecord(), writable: true };
  let saved = null;
  try {
    saved = JSON.parse(raw);
  } catch {
    saved = null;
  }
  if (isObject(saved)) return { rec: normalise(saved), writable: true };
  try {
    if (storage().getItem(`${KEY}:unreadable`) === null) storage().setItem(`${KEY}:unreadable`, raw);
    return { rec: emptyRecord(), writable: true };
  } catch {
    return { rec: emptyRecord(), writable: false };
  }
}

function save(record) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(record));
  } catch {
    /* storage refused: the tally lives until the page closes */
  }
}

/** Count one graded incident (the first submission of each counts; later ones only show feedback). */
function record(rec, answer) {
  if (rec.graded.includes(answer.id)) return;
  rec.graded = [...rec.graded.slice(-499), answer.id];
  const right = answer.grade.checks.regime.passed === true;
  const row = (rec.tally[answer.regime] = rec.tally[answer.regime] || { tried: 0, right: 0, name: answer.regime_name });
  row.tried += 1;
  if (right) row.right += 1;
  if (!right) {
    const key = `${answer.regime_name} → ${answer.answered_name}`;
    rec.confusion[key] = (rec.confusion[key] || 0) + 1;
  }
  if (answer.trap) {
    const trap = (rec.traps[answer.trap_name] = rec.traps[answer.trap_name] || { met: 0, caught: 0 });
    trap.met += 1;
    if (answer.grade.passed === false) trap.caught += 1; // a line the grader could not read catches no one
  }
  const misses = rec.missed[answer.family] || 0;
  rec.missed[answer.family] = right ? Math.max(0, misses - 1) : misses + 1;
}

function tallyNodes(rec) {
  const keys = [...TALLY_ORDER.filter((key) => rec.tally[key]),
    ...Object.keys(rec.tally).filter((key) => !TALLY_ORDER.includes(key))];
  const rows = keys.map((key) => h("tr", { "data-regime": key },
    h("td", {}, rec.tally[key].name || key), h("td", {}, rec.tally[key].right), h("td", {}, rec.tally[key].tried)));
  if (!rows.length) return [h("p", {}, "Nothing graded yet.")];
  const head = h("tr", {}, h("th", { scope: "col" }, "Regime"), h("th", { scope: "col" }, "Read right"), h("th", { scope: "col" }, "Tried"));
  return [h("table", {}, h("thead", {}, head), h("tbody", {}, rows))];
}

function wrongNodes(rec) {
  const mixed = Object.entries(rec.confusion).sort((a, b) => b[1] - a[1]);
  const traps = Object.entries(rec.traps).filter(([, t]) => t.caught).sort((a, b) => b[1].caught - a[1].caught);
  if (!rec.graded.length) return [h("p", {}, "Nothing graded yet.")];
  if (!mixed.length && !traps.length) return [h("p", {}, "Nothing yet: every incident so far was read right.")];
  const nodes = [];
  if (mixed.length) {
    nodes.push(h("p", {}, "The regime it was → what you wrote:"));
    nodes.push(h("ul", { class: "regime-practice__confusion" }, mixed.map(([key, n]) => h("li", {}, `${key}: ${n}×`))));
  }
  if (traps.length) {
    nodes.push(h("p", {}, "Traps that caught you:"));
    nodes.push(h("ul", { class: "regime-practice__traps" },
      traps.map(([name, t]) => h("li", {}, `${name}: ${t.caught} of ${t.met}`))));
  }
  return nodes;
}

function checkNodes(checks) {
  return h("ul", { class: "regime-practice__checks" }, Object.values(checks).map((check) =>
    h("li", { "data-passed": String(check.passed) }, `${check.label}: ${MARKS[check.passed]} ${check.why}`)));
}

/** The graded attempt, the worked answer, and what to do next (another incident, or share this one). */
function resultNodes(answer, actions) {
  return [
    h("p", { class: "regime-practice__verdict" }, answer.grade.summary),
    checkNodes(answer.grade.checks),
    h("h3", {}, "The worked answer"),
    h("div", { class: "regime-practice__worked" }, verdictNodes(answer.verdict)),
    actions,
  ];
}

// The address parameter a review comment's link carries.
const REVIEW_PARAM = "review";

function randomSeed() {
  return Math.floor(Math.random() * 1_000_000);
}

export function mount(element) {
  const controls = element.querySelector(".regime-practice__controls");
  const form = element.querySelector(".regime-practice__attempt");
  const statement = element.querySelector(".regime-practice__statement");
  const idLine = element.querySelector(".regime-practice__id");
  const note = element.querySelector(".regime-practice__note");
  const result = element.querySelector(".regime-practice__result");
  const tally = element.querySelector(".regime-practice__tally");
  const wrong = element.querySelector(".regime-practice__wrong");
  const linkLine = element.querySelector(".regime-practice__link");
  const forget = element.querySelector(".regime-practice__forget");
  let rec = load().rec;
  let current = null;
  let alive = true; // an answer that arrives after instant navigation left the page must not touch the new one
  let fromReview = new URL(window.location.href).searchParams.get(REVIEW_PARAM) === "1";
  const path = window.location.pathname;

  const renderRecord = () => {
    tally.replaceChildren(...tallyNodes(rec));
    wrong.replaceChildren(...wrongNodes(rec));
  };

  const address = () => new URL(window.location.href).href;
  // A review comment's link says it came from a review: whoever opens it (a reviewer, not the learner) may see
  // the worked answer at one deliberate click, and nothing of it counts in their tally.
  const reviewAddress = () => {
    const url = new URL(window.location.href);
    url.searchParams.set(REVIEW_PARAM, "1");
    return url.href;
  };

  const submitButton = form.querySelector('button[type="submit"]');
  const checkButton = form.querySelector('[data-action="check"]');
  // Once the answer is shown, the attempt is done: Submit and Check wait for the next incident.
  const answered = (done) => {
    submitButton.disabled = done;
    checkButton.disabled = done;
  };
  // Hints climb the incident's ladder while the lines are checked; the worked answer ends them.
  const ladder = hintLadder(form.querySelector('[data-action="hint"]'), form.querySelector(".regime-hint"),
    (rung) => python.call("practice_hint", { seed: current.seed, level: current.level, rung }),
    () => {}); // while Python loads or fails, the page's status line says so


  const show = (incident, sharedVersion, notice = "", fresh = false) => {
    current = incident;
    answered(false);
    ladder.clear();
    statement.replaceChildren(h("p", {}, incident.statement));
    idLine.textContent = `Incident ${incident.id}`;
    form.reset();
    clearErrors(form);
    result.replaceChildren();
    linkLine.textContent = "";
    controls.elements.level.value = String(incident.level);
    const url = new URL(window.location.href);
    url.search = "";
    url.searchParams.set("seed", incident.seed);
    url.searchParams.set("level", incident.level);
    url.searchParams.set("v", incident.version);
    // A new incident drawn here is a new history entry, so Back returns to the one before; an incident opened
    // from the address (a shared link, a reload, Back itself) keeps its entry.
    if (fresh && new URL(window.location.href).searchParams.has("seed")) window.history.pushState(null, "", url.href);
    else window.history.replaceState(window.history.state, "", url.href);
    const stale = sharedVersion && sharedVersion !== String(incident.version);
    const said = stale
      ? `This address was made by version ${sharedVersion} of the generator; this site writes version ${incident.version}, so this may not be the incident that was shared.`
      : notice;
    note.hidden = !said;
    note.textContent = said;
    if (fromReview) offerAnswer(incident);
  };

  // Opened from a review comment: the answer behind a click, shown without an attempt and never counted.
  const offerAnswer = (incident) => {
    const button = h("button", { type: "button", class: "md-button", "data-action": "show-answer" },
      "Show the worked answer");
    result.replaceChildren(h("p", { class: "regime-practice__review-note" },
      "You opened this incident from a review comment. Try it first, or see its worked answer now: an answer "
      + "seen this way is not counted in your tally. ", button));
    button.addEventListener("click", async () => {
      button.disabled = true;
      let answer;
      try {
        answer = await python.call("practice_grade", { seed: incident.seed, level: incident.level, lines: {} });
      } catch {
        button.disabled = false;
        return; // the status line says why
      }
      if (!alive || current !== incident) return;
      if (!answer.ok) {
        result.replaceChildren(h("p", {}, answer.error));
        return;
      }
      fromReview = false;
      answered(true);
      ladder.clear();
      result.replaceChildren(h("p", { class: "regime-practice__verdict" }, "Not counted in your tally."),
        h("h3", {}, "The worked answer"), h("div", { class: "regime-practice__worked" }, verdictNodes(answer.verdict)),
        actionsFor(answer));
    }, { once: true });
  };

  const open = async (request, sharedVersion, notice = "", fresh = false) => {
    let answer;
    try {
      answer = await python.call("practice", request);
    } catch {
      return; // the status line says why
    }
    if (!alive) return;
    if (!answer.ok) {
      statement.replaceChildren(h("p", {}, `This incident cannot be opened: ${answer.error}`));
      return;
    }
    show(answer, sharedVersion, notice, fresh);
  };

  const next = (event, notice = "") => {
    if (event) event.preventDefault();
    fromReview = false; // a new incident is the learner's own
    const level = controls.elements.level.value;
    const missed = Object.entries(rec.missed).filter(([, n]) => n > 0).map(([family]) => family).slice(0, 20);
    open({ seed: randomSeed(), level, ...(missed.length && Math.random() < 0.5 ? { missed } : {}) }, undefined, notice,
      Boolean(event));
  };

  /** The four lines sent to ``op`` for the current incident; null (a field marked, or the status line
   *  saying why) when there is no answer to show. */
  const send = async (op) => {
    if (!current || submitButton.disabled) return null;
    clearErrors(form);
    let answer;
    try {
      answer = await python.call(op, { seed: current.seed, level: current.level, lines: readForm(form) });
    } catch {
      return null; // the status line says why
    }
    if (!alive) return null;
    if (!answer.ok) {
      if (!showError(form, answer.field, answer.error)) result.replaceChildren(h("p", {}, answer.error));
      return null;
    }
    return answer;
  };

  // The lines checked without the answer: nothing counted, nothing of the verdict shown.
  const check = async () => {
    const answer = await send("practice_check");
    if (!answer) return;
    result.replaceChildren(h("p", { class: "regime-practice__verdict" }, answer.summary), checkNodes(answer.checks));
    ladder.offer(answer.checks, answer.hint_rung);
  };

  const actionsFor = (answer) => {
    const status = h("span", { class: "regime-links__status", role: "status", "aria-live": "polite" });
    const nextButton = h("button", { type: "button", class: "md-button md-button--primary" }, "Next incident");
    nextButton.addEventListener("click", () => next());
    const copyButton = h("button", { type: "button", class: "md-button" }, "Copy as review comment");
    copyButton.addEventListener("click", () => copy(answer.review.replace("{url}", reviewAddress()), status,
      `the review comment for incident ${answer.id}`, "The browser refused the clipboard; copy this incident's address instead."));
    return h("div", { class: "regime-actions regime-practice__after" }, nextButton, " ", copyButton, " ", status);
  };

  const submit = async (event) => {
    event.preventDefault();
    const answer = await send("practice_grade");
    if (!answer) return;
    fromReview = false;
    // Read what is stored now (another tab may have counted since), count this one, write it back.
    const stored = load();
    if (stored.writable) {
      rec = stored.rec;
      record(rec, answer);
      save(rec);
    } else {
      record(rec, answer);
    }
    result.replaceChildren(...resultNodes(answer, actionsFor(answer)));
    forget.replaceChildren(); // an Undo of a forgotten tally would now drop this incident: withdrawn
    answered(true);
    ladder.clear();
    renderRecord();
  };

  const copyLink = () => copy(address(), linkLine);

  // Forgetting the tally asks first, and can be undone until the next incident is graded (as the drill's
  // Start over can).
  const reset = () => {
    const yes = h("button", { type: "button", class: "md-button md-button--primary", "data-action": "confirm-forget" },
      "Forget it");
    const no = h("button", { type: "button", class: "md-button", "data-action": "keep-tally" }, "Keep it");
    forget.replaceChildren("Forget every incident in your tally? ", yes, " ", no);
    yes.addEventListener("click", () => {
      const before = rec;
      rec = emptyRecord();
      save(rec);
      renderRecord();
      const undo = h("button", { type: "button", class: "md-button", "data-action": "undo-forget" }, "Undo");
      undo.addEventListener("click", () => {
        rec = before;
        save(rec);
        renderRecord();
        forget.textContent = "Your tally is back.";
      }, { once: true });
      forget.replaceChildren("Tally forgotten. ", undo);
    }, { once: true });
    no.addEventListener("click", () => { forget.textContent = "Kept your tally."; }, { once: true });
  };

  // The record for a mentor's class report (regime_core.grading.practice_record reads it): the tally as stored,
  // and the learner's name where they gave one.
  const learner = element.querySelector('input[name="learner"]');
  const downloadRecord = () => {
    const name = learner.value.trim();
    const file = { format: "regime-practice-record", version: 1, ...(name ? { learner: name } : {}),
      tally: rec.tally, missed: rec.missed, traps: rec.traps, graded: rec.graded.length };
    download("regime-practice.json", "application/json", `${JSON.stringify(file, null, 2)}\n`);
  };

  const offs = [
    bindLearnerName(learner),
    on(element.querySelector('[data-action="download-record"]'), "click", downloadRecord),
    bindStatus(element.querySelector(".regime-status")),
    on(controls, "submit", next),
    on(controls.elements.level, "change", next),
    on(form, "submit", submit),
    on(form, "keydown", enterChecks(() => check())),
    on(form, "input", (event) => clearFieldError(event.target)),
    on(checkButton, "click", check),
    on(form.querySelector('[data-action="hint"]'), "click", () => current && ladder.next()),
    on(element.querySelector('[data-action="copy-link"]'), "click", copyLink),
    on(element.querySelector('[data-action="reset"]'), "click", reset),
    // Back and Forward between incidents drawn here: show the one the address names (another page is Material's).
    on(window, "popstate", () => {
      const params = new URL(window.location.href).searchParams;
      const seed = Number(params.get("seed"));
      if (window.location.pathname !== path || !params.get("seed") || !Number.isInteger(seed)) return;
      if (current && seed === current.seed && params.get("level") === String(current.level)) return;
      open({ seed, level: params.get("level") || "1" }, params.get("v"));
    }),
    // Another tab graded or reset: show its record.
    on(window, "storage", (event) => {
      if (event.key !== KEY && event.key !== null) return;
      rec = load().rec;
      renderRecord();
    }),
  ];
  renderRecord();

  const params = new URL(window.location.href).searchParams;
  const seed = Number(params.get("seed"));
  if (params.has("seed") && Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED && params.get("seed").trim()) {
    open({ seed, level: params.get("level") || "1" }, params.get("v"));
  } else if (params.has("seed")) {
    // A link whose seed cannot be read says so, rather than silently showing another incident.
    next(null, `This address's seed (“${params.get("seed").slice(0, 40)}”) is not a whole number from 0 to ${MAX_SEED}: here is a new incident instead.`);
  } else {
    next();
  }
  return () => {
    alive = false;
    offs.forEach((off) => off());
  };
}
