// Change an incident's numbers once its answer is open; regime_core re-derives the verdict,
// its evidence, the floor and the picture, live.
import { clearErrors, fillForm, h, on, readForm, showError, svgNode, verdictNodes } from "./dom.js";
import { bindStatus, python } from "./runtime.js";
import { store } from "./store.js";

export function mount(element) {
  const item = element.dataset.item;
  const form = element.querySelector("form");
  const result = element.querySelector(".regime-explore__result");
  const drillNumbers = readForm(form);
  let timer = 0;
  let generation = 0;

  const update = async () => {
    const mine = ++generation;
    clearErrors(form);
    let answer;
    try {
      answer = await python.call("explore", { item, form: readForm(form) });
    } catch {
      return; // the status line says why
    }
    if (mine !== generation) return;
    if (!answer.ok) {
      // The previous verdict belongs to other numbers: take it away with the error.
      const note = showError(form, answer.field, answer.error) ? "Fix the field marked above to see the verdict." : answer.error;
      result.replaceChildren(h("p", {}, note));
      return;
    }
    const picture = svgNode(answer.svg);
    result.replaceChildren(...verdictNodes(answer.verdict), ...(picture ? [picture] : []));
  };
  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(update, 250);
  };
  const sync = () => {
    const open = Boolean(store.get(item)?.unlocked);
    element.hidden = !open;
    if (!open) {
      fillForm(form, drillNumbers);
      result.replaceChildren();
    }
  };

  sync();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", (event) => {
      event.preventDefault();
      update();
    }),
    on(form, "input", soon),
    on(form, "change", soon),
    on(element.querySelector('[data-action="reset-numbers"]'), "click", () => {
      fillForm(form, drillNumbers);
      update();
    }),
    on(store, "change", (event) => {
      if (event.detail.item === item || event.detail.item === "*") sync();
    }),
    () => window.clearTimeout(timer),
  ];
  return () => offs.forEach((off) => off());
}
