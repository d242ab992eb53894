// An attempt form (Part A incident, Part B or Part C) and the answer it unlocks.
// Options come from data attributes: data-item (the stable id), data-validate (an
// optional regime_core.bridge.api op that checks the attempt first).
// "Check without the answer" grades the lines as typed, saving nothing and opening nothing; when a
// line is not passed or could not be read, "Hint" asks the core where to look for this item.
import { clearErrors, clearFieldError, decodePayload, enterChecks, fillForm, h, on, readForm, showError } from "./dom.js";
import { gradeSaved } from "./grading.js";
import { hintLadder } from "./hints.js";
import { python } from "./runtime.js";
import { hasContent, store } from "./store.js";

const PASSED = { true: "true", false: "false", null: "unknown" };

const DRAFT_MS = 400; // what is typed is kept this long after the last keystroke (and on leaving)
export const SET_ASIDE = "Saved by another version: kept, not graded.";

const REQUIRED = {
  regime: "Choose a regime: one of those above.",
  paragraph: "Write your paragraph first.",
};

export function mount(element) {
  const item = element.dataset.item;
  const form = element.querySelector("form.regime-attempt");
  const answer = element.querySelector(".regime-answer");
  const feedback = element.querySelector(".regime-feedback");
  const validateOp = element.dataset.validate;

  const reveal = (focus) => {
    if (answer.hidden) {
      answer.innerHTML = decodePayload(answer.dataset.payload);
      answer.hidden = false;
    }
    if (focus) {
      // Focus alone would centre a tall answer, its first lines under the sticky header: start
      // the view at the feedback line (and the learner's own marks), just below the header.
      answer.focus({ preventScroll: true });
      feedback.scrollIntoView({ block: "start" });
    }
  };
  const conceal = () => {
    answer.hidden = true;
    answer.replaceChildren();
  };
  const say = (text) => {
    feedback.textContent = [text, store.problem].filter(Boolean).join(" ");
  };
  const gradeList = h("ul", { class: "regime-item-grade", "aria-live": "polite" });
  feedback.after(gradeList);
  const hintButton = form.querySelector('[data-action="hint"]');
  const ladder = hintLadder(hintButton, form.querySelector(".regime-hint"),
    (rung) => python.call("hint", { item, rung }), (text) => say(text));
  // Show the core's lines for this item; offer a hint when any line is not passed or could not be told.
  const showLines = (result) => {
    if (result.ok && result.set_aside && result.set_aside[item]) {
      gradeList.replaceChildren(h("li", { "data-passed": "unknown", class: "regime-item-grade__aside" }, SET_ASIDE));
      ladder.clear();
      return;
    }
    const lines = result.ok ? result.feedback[item] || [] : [result.error];
    const graded = result.ok ? result.grade.items[item.replace("-", "_")] : null;
    // Each line is one check, in the core's order: its state travels as data-passed, for the eye (CSS).
    const checks = graded ? Object.values(graded.checks) : [];
    const state = (i) => (checks.length === lines.length ? { "data-passed": PASSED[String(checks[i].passed)] } : {});
    gradeList.replaceChildren(...lines.map((line, i) => h("li", state(i), line)));
    // A ✗ line that already gives the ladder's first rung (a wrong regime) starts Hint above it.
    ladder.offer(graded && graded.checks, graded ? graded.hint_rung : 0);
  };
  const showGrade = async () => {
    let result;
    try {
      result = await gradeSaved();
    } catch {
      return; // without Python there is no grading; the answer is open all the same
    }
    showLines(result);
  };

  // What is typed is kept as a draft (debounced), submitted or not, and comes back on reload.
  let draftTimer = 0;
  const cancelDraft = () => {
    window.clearTimeout(draftTimer);
    draftTimer = 0;
  };
  const keepDraft = () => {
    cancelDraft();
    store.saveDraft(item, readForm(form));
  };
  const typing = (event) => {
    clearFieldError(event.target);
    cancelDraft();
    draftTimer = window.setTimeout(keepDraft, DRAFT_MS);
  };
  const keys = enterChecks(() => check());
  const flushDraft = () => {
    if (draftTimer) keepDraft();
  };

  const sync = () => {
    const saved = store.get(item);
    const draft = store.draft(item);
    cancelDraft();
    clearErrors(form);
    if (saved) {
      fillForm(form, saved.attempt);
      if (saved.unlocked) reveal(false);
      else conceal();
      showGrade();
    } else {
      form.reset();
      conceal();
      gradeList.replaceChildren();
      ladder.clear();
    }
    if (draft) fillForm(form, draft.attempt);
    say("");
    offerUndo();
  };

  // The attempt as typed, or null (and the missing field marked) when a required field is empty.
  const typed = () => {
    clearErrors(form);
    const attempt = readForm(form);
    const missing = Object.keys(REQUIRED).filter((name) => form.elements[name] !== undefined
      && !String(attempt[name] || "").trim());
    for (const name of missing) showError(form, name, REQUIRED[name]);
    if (missing.length) {
      say("Your attempt needs the field marked above.");
      return null;
    }
    if (!hasContent(attempt)) {
      say("Write something first: an empty attempt opens nothing.");
      return null;
    }
    return attempt;
  };

  const check = async () => {
    const attempt = typed();
    if (!attempt) return;
    say("Checking your lines…");
    let result;
    let unread = false;
    try {
      // A field the grader cannot read is marked, and graded "could not tell": it never holds back the rest.
      if (validateOp) unread = markUnread(await python.call(validateOp, attempt));
      result = await python.call("grade", { items: { [item]: attempt } });
    } catch {
      say("Checking needs Python, which could not start; Submit still opens the answer.");
      return;
    }
    if (result.ok && !result.feedback[item]) {
      say("Write something to check first.");
      return;
    }
    showLines(result);
    say(unread ? "Checked: the grader could not read the field marked above, so it could not tell for it; the rest is below."
      : hintButton.hidden ? "Every line passes. Submit to see the worked answer."
        : "Checked without opening the answer: change a line and check again, ask for a hint, or submit.");
  };

  // A validation answer's field marked with what was expected; true when one was.
  const markUnread = (valid) => {
    if (valid.ok) return false;
    if (!showError(form, valid.field, valid.error)) say(valid.error);
    return true;
  };

  const submit = async (event) => {
    event.preventDefault();
    const attempt = typed();
    if (!attempt) return;
    let valid = null;
    if (validateOp) {
      // Kept before it is checked: leaving while Python loads loses nothing.
      keepDraft();
      say("Checking your numbers…");
      try {
        valid = await python.call(validateOp, attempt);
      } catch {
        // Python is unavailable: the attempt is kept as typed and the answer still opens.
      }
    }
    cancelDraft();
    store.submit(item, attempt);
    reveal(true);
    // Marked once the saved attempt is shown again (saving redraws the form from the store).
    const unread = valid !== null && markUnread(valid);
    say(unread ? "Attempt saved. The grader could not read the field marked above: it is graded “could not tell”."
      : "Attempt saved. Check your work below.");
    showGrade();
  };

  // The Undo of this item's Start over comes from the stored record, so it is still there after a reload.
  const offerUndo = () => {
    if (!store.pendingUndo(`reset:${item}`) || store.get(item)) return;
    const undo = h("button", { type: "button", class: "md-button regime-feedback__undo", "data-action": "undo-reset" },
      "Undo");
    undo.addEventListener("click", () => {
      store.undo(`reset:${item}`);
      say("Put back as it was.");
    }, { once: true });
    say("Cleared. The answer is hidden again.");
    feedback.append(" ", undo);
  };

  const reset = () => {
    cancelDraft();
    const removed = store.reset(item);
    if (!Object.keys(removed.items).length && !Object.keys(removed.drafts).length) {
      say("Nothing to clear here yet.");
      return;
    }
    offerUndo();
  };

  sync();
  const offs = [
    on(form, "submit", submit),
    on(form, "keydown", keys),
    on(form, "input", typing),
    on(form, "change", typing),
    on(window, "pagehide", flushDraft),
    on(form.querySelector('[data-action="reset"]'), "click", reset),
    on(form.querySelector('[data-action="check"]'), "click", check),
    on(hintButton, "click", ladder.next),
    on(form, "focusin", () => validateOp && python.startSoon()),
    on(store, "change", (event) => {
      if (event.detail.item === "*" || event.detail.item === item) sync();
    }),
  ];
  return () => {
    flushDraft();
    offs.forEach((off) => off());
    gradeList.remove();
  };
}
