// The drill's progress line ("3 of 10 right; look again at A4"), ✓ / ✗ / ? in the table of contents, "Start the whole
// drill over" with an Undo that puts back exactly what was cleared, and a fold for each open
// answer (a page with every answer open runs to some 20,000 px).
import { h, itemAnchor, on } from "./dom.js";
import { gradeSaved } from "./grading.js";
import { store } from "./store.js";

/** The parts of the drill on this page that take an attempt: [{id, name}] in page order. */
function drillItems() {
  return [...document.querySelectorAll('.regime-incident[data-item], [data-regime-widget="attempt"][data-item]')]
    .map((element) => element.dataset.item)
    .filter((id, index, ids) => ids.indexOf(id) === index)
    .map((id) => ({ id, name: /^a\d+$/.test(id) ? id.toUpperCase() : id.replace(/^part-(\w)$/, (_, p) => `Part ${p.toUpperCase()}`) }));
}

function names(items) {
  return items.map((item) => item.name).join(", ");
}

/** Give each open answer a "Fold" button before it; folded, it shows its first line (the regime). */
function syncFolds(root) {
  for (const answer of root.querySelectorAll(".regime-answer[data-regime-answer]")) {
    const before = answer.previousElementSibling;
    let toggle = before && before.classList.contains("regime-fold") ? before : null;
    if (answer.hidden) {
      if (toggle) toggle.remove();
      delete answer.dataset.folded;
      continue;
    }
    if (toggle) continue;
    answer.id = answer.id || `regime-answer-${answer.dataset.regimeAnswer}`;
    toggle = h("button", { type: "button", class: "regime-fold", "aria-controls": answer.id, "aria-expanded": "true" },
      "Fold this answer");
    toggle.addEventListener("click", () => setFolded(answer, toggle, answer.dataset.folded === undefined));
    answer.before(toggle);
  }
}

function setFolded(answer, toggle, folded) {
  if (folded) answer.dataset.folded = "";
  else delete answer.dataset.folded;
  toggle.setAttribute("aria-expanded", String(!folded));
  toggle.textContent = folded ? "Unfold this answer" : "Fold this answer";
}

function foldAll(root, folded) {
  for (const toggle of root.querySelectorAll(".regime-fold")) {
    const answer = toggle.nextElementSibling;
    if (answer) setFolded(answer, toggle, folded);
  }
}

function removeFolds(root) {
  for (const toggle of root.querySelectorAll(".regime-fold")) toggle.remove();
  for (const answer of root.querySelectorAll(".regime-answer[data-folded]")) delete answer.dataset.folded;
}

export function mount(element) {
  const count = element.querySelector(".regime-progress__count");
  const status = element.querySelector('[role="status"]');
  const items = drillItems();

  // Each item's mark, as the grade has it: right (✓), to look at again (✗), could not tell (?), or
  // attempted (before the grade comes, or without Python); nothing when not attempted.
  const MARK_TITLES = { right: "right", wrong: "look at it again", unsure: "the grader could not tell",
    attempted: "attempted" };
  const markTableOfContents = (marks) => {
    for (const item of items) {
      for (const link of document.querySelectorAll(`.md-sidebar--secondary a.md-nav__link[href$="#${item.id}"]`)) {
        const mark = marks.get(item.id);
        if (mark) {
          link.dataset.regimeMark = mark;
          link.title = `${item.name}: ${MARK_TITLES[mark]}`;
        } else {
          delete link.dataset.regimeMark;
          link.removeAttribute("title");
        }
      }
    }
  };

  const itemLinks = (list) => list.flatMap((item, i) => [...(i ? [", "] : []), h("a", { href: itemAnchor(item.name) }, item.name)]);

  const show = (marks) => {
    const of = (mark) => items.filter((item) => marks.get(item.id) === mark);
    const attempted = items.filter((item) => marks.has(item.id));
    if (count) {
      if (!attempted.length) count.replaceChildren(`0 of ${items.length} attempted.`);
      else if (of("attempted").length) {
        count.replaceChildren(`${attempted.length} of ${items.length} attempted: `, ...itemLinks(attempted), ".");
      } else {
        const right = of("right");
        const nodes = [`${right.length} of ${items.length} right`, ...(right.length ? [": ", ...itemLinks(right)] : [])];
        if (of("wrong").length) nodes.push("; look again at ", ...itemLinks(of("wrong")));
        if (of("unsure").length) nodes.push("; the grader could not tell ", ...itemLinks(of("unsure")));
        const untried = items.length - attempted.length;
        if (untried) nodes.push(`; ${untried} not attempted yet`);
        count.replaceChildren(...nodes, ".");
      }
    }
    markTableOfContents(marks);
  };

  let generation = 0;
  const render = async () => {
    const mine = ++generation;
    const saved = items.filter((item) => store.get(item.id)?.unlocked);
    show(new Map(saved.map((item) => [item.id, "attempted"])));
    if (!saved.length) return;
    let result;
    try {
      result = await gradeSaved();
    } catch {
      return; // without Python, "attempted" is all that can be said
    }
    if (mine !== generation || !result.ok) return;
    const state = { true: "right", false: "wrong", null: "unsure" };
    const marks = new Map();
    for (const item of saved) {
      const graded = result.grade.items[item.id.replace("-", "_")];
      if (result.set_aside && result.set_aside[item.id]) marks.set(item.id, "attempted");
      else if (graded && graded.attempted) marks.set(item.id, state[String(graded.passed)]);
    }
    show(marks);
  };

  const say = (text, ...extra) => status.replaceChildren(text, ...extra);

  // The Undo of the last Start over, from the stored record: it outlives a reload and shows in every tab.
  const offerUndo = (text) => {
    const button = h("button", { type: "button", class: "md-button regime-progress__undo", "data-action": "undo-reset" }, "Undo");
    button.addEventListener("click", () => {
      const back = new Set(store.undo("reset-all") || []);
      const restored = items.filter((item) => back.has(item.id));
      say(`Restored ${restored.length} ${restored.length === 1 ? "attempt" : "attempts"}${restored.length ? `: ${names(restored)}` : ""}.`);
    }, { once: true });
    say(text, " ", button);
  };
  const clearedText = (removed) => {
    const cleared = items.filter((item) => item.id in removed.items);
    return `Cleared ${cleared.length} ${cleared.length === 1 ? "attempt" : "attempts"}${cleared.length ? ` (${names(cleared)})` : ""}; every answer is hidden again.`;
  };

  // Start over asks first (in the page, not a dialog), then clears what is stored now: another tab's
  // work included, as the question says. Undo puts back only what it removed, never over anything saved since.
  const startOver = () => {
    const saved = items.filter((item) => store.get(item.id));
    if (!Object.keys(store.read(false).items).length) {
      say("Nothing to clear: no attempt is saved yet.");
      return;
    }
    const yes = h("button", { type: "button", class: "md-button md-button--primary", "data-action": "confirm-reset" },
      saved.length === 1 ? "Clear it" : `Clear all ${saved.length}`);
    const no = h("button", { type: "button", class: "md-button", "data-action": "cancel-reset" },
      saved.length === 1 ? "Keep it" : "Keep them");
    yes.addEventListener("click", () => offerUndo(clearedText(store.resetAll())), { once: true });
    no.addEventListener("click", () => say("Nothing was cleared."), { once: true });
    say(`Clear your ${saved.length} saved ${saved.length === 1 ? "attempt" : "attempts"} (${names(saved)}), in every`
      + " tab of this site, and hide every answer again? ", yes, " ", no);
  };
  const pending = store.pendingUndo("reset-all");
  if (pending) offerUndo(clearedText(pending.removed));
  else if (store.problem) say(store.problem); // storage that cannot keep progress: said at the top of the drill

  // Answers open and close as attempts are saved, imported or cleared: follow their hidden flag.
  const root = element.closest("article") || document.body;
  // Fold and Unfold show only while some answer is open: with none, they would do nothing.
  const foldButtons = [...element.querySelectorAll('[data-action="fold-all"], [data-action="unfold-all"]')];
  const sync = () => {
    syncFolds(root);
    const open = Boolean(root.querySelector(".regime-answer[data-regime-answer]:not([hidden])"));
    // Only a change is written: the observer below sees every write of "hidden", even of the same value.
    for (const button of foldButtons) if (button.hidden === open) button.hidden = !open;
  };
  const watcher = new MutationObserver(sync);
  watcher.observe(root, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
  window.setTimeout(sync, 0); // after the other widgets of the page have mounted

  render();
  const offs = [
    () => watcher.disconnect(),
    () => removeFolds(root),
    on(element.querySelector('[data-action="reset-all"]'), "click", startOver),
    on(element.querySelector('[data-action="fold-all"]'), "click", () => foldAll(root, true)),
    on(element.querySelector('[data-action="unfold-all"]'), "click", () => foldAll(root, false)),
    on(store, "change", (event) => {
      render();
      // Anything saved in the tab that shows the Undo (a new attempt, an import) withdraws it: the learner
      // has started again. Another tab's work does not: Undo never writes over an item saved since.
      const button = status.querySelector('[data-action="undo-reset"]');
      if (button && !event.detail.remote && Object.keys(store.state.items).length) store.dropUndo("reset-all");
      if (button && !store.pendingUndo("reset-all")) button.remove();
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    generation += 1;
    markTableOfContents(new Map());
  };
}
