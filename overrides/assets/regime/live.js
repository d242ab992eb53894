// The live widgets' one loop: wait for the typing to pause, send the form to the core, render what
// comes back. A newer request supersedes an older answer; a refused one is shown at its field.
import { clearErrors, showError } from "./dom.js";
import { python } from "./runtime.js";

/**
 * Call the core for a form, now or once the typing pauses.
 *
 * Each call clears the form's field errors, then asks `request(context)` what to send. An answer that
 * arrives after a newer call was sent is dropped. A refused answer (`ok: false`) is shown at the field
 * it names before `fail` runs.
 *
 * @param {object} options
 * @param {HTMLFormElement} options.form - the form whose field errors the calls clear and show
 * @param {(context: object) => {op: string, payload: object}} options.request - what to send; runs
 *   when the call is sent, so it may also mark the widget as waiting (context is the call's own)
 * @param {(answer: object, context: object) => void} options.render - an answer with `ok: true`
 * @param {(answer: object, marked: boolean, context: object) => void} options.fail - a refused answer;
 *   `marked` says whether its error is now shown at a field of the form
 * @param {(context: object) => void} [options.unavailable] - Python could not answer (runtime.js's
 *   status line says why); not called for a superseded call
 * @param {number} [options.delay] - how long `soon` waits for the typing to pause, in ms
 * @returns {{now: (context?: object) => Promise<void>, soon: () => void, stop: () => void}}
 */
export function liveCall({ form, request, render, fail, unavailable = () => {}, delay = 200 }) {
  let generation = 0;
  let timer = 0;

  const now = async (context = {}) => {
    window.clearTimeout(timer);
    const mine = ++generation;
    clearErrors(form);
    const { op, payload } = request(context);
    let answer;
    try {
      answer = await python.call(op, payload);
    } catch {
      if (mine === generation) unavailable(context);
      return;
    }
    if (mine !== generation) return; // a newer request has been sent since
    if (answer.ok) render(answer, context);
    else fail(answer, showError(form, answer.field, answer.error), context);
  };

  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => now(), delay);
  };

  const stop = () => {
    window.clearTimeout(timer);
    generation += 1; // an answer still on its way belongs to a widget that is gone
  };

  return { now, soon, stop };
}
