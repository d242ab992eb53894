// The hint ladder of a form (a drill item, a practice incident): each press asks the core for the next
// rung (a nudge, the deciding symptom, the arithmetic); the rungs shown stay on screen, the last at the bottom.
// The ladder always reads from rung 1: where a ✗ line already gave the first rungs, the first press shows
// them again above the next one, so that "Hint 2 of 3" never stands without the hint 1 it follows.
import { h } from "./dom.js";
import { python } from "./runtime.js";

/**
 * @param {HTMLButtonElement} button - the Hint button (hidden until a line is not passed)
 * @param {HTMLElement} line - where the rungs show
 * @param {(rung: number) => Promise<object>} ask - the core's answer for one rung ({ok, hint, rung, rungs})
 * @param {(text: string) => void} say - the form's status line
 */
export function hintLadder(button, line, ask, say) {
  const label = button.textContent;
  let shown = 0;
  const clear = () => {
    button.hidden = true;
    button.disabled = false;
    button.textContent = label;
    line.hidden = true;
    line.replaceChildren();
    shown = 0;
  };
  /** Offer Hint while any of the core's ``checks`` is not passed; a ✗ line that already gave rung ``told``
   * starts the ladder after it. */
  const offer = (checks, told = 0) => {
    const open = Object.values(checks || {}).some((check) => check.passed !== true);
    if (told > shown) shown = told;
    button.hidden = !open;
    if (!open) line.hidden = true;
  };
  const next = async () => {
    button.disabled = true;
    if (python.state !== "ready") say("Starting Python for the hint…");
    const fresh = !line.querySelector(".regime-hint__rung");
    const target = shown + 1;
    const results = [];
    try {
      for (let rung = fresh ? 1 : target; rung <= target; rung += 1) results.push(await ask(rung));
    } catch {
      button.disabled = false;
      say("Hints need Python, which could not start.");
      return;
    }
    say("");
    const failed = results.find((result) => !result.ok);
    if (failed) {
      button.disabled = false;
      line.textContent = failed.error;
      line.hidden = false;
      return;
    }
    if (fresh) line.replaceChildren(); // an old error line goes
    for (const result of results) {
      line.append(h("span", { class: "regime-hint__rung" }, `Hint ${result.rung} of ${result.rungs}: ${result.hint}`));
    }
    const top = results[results.length - 1];
    shown = top.rung;
    line.hidden = false;
    const last = top.rung >= top.rungs;
    button.textContent = last ? "No more hints" : "Another hint";
    button.disabled = last;
  };
  return { clear, offer, next };
}
