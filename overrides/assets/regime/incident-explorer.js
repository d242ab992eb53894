// Change an incident's numbers once its answer is open; regime_core re-derives the verdict,
// its evidence, the floor and the picture, live.
import { fillForm, h, on, readForm, svgNode, verdictNodes } from "./dom.js";
import { liveCall } from "./live.js";
import { bindStatus } from "./runtime.js";
import { store } from "./store.js";

export function mount(element) {
  const item = element.dataset.item;
  const form = element.querySelector("form");
  const result = element.querySelector(".regime-explore__result");
  const drillNumbers = readForm(form);

  const live = liveCall({
    form,
    request: () => ({ op: "explore", payload: { item, form: readForm(form) } }),
    render: (answer) => {
      const picture = svgNode(answer.svg);
      result.replaceChildren(...verdictNodes(answer.verdict), ...(picture ? [picture] : []));
    },
    fail: (answer, marked) => {
      // The previous verdict belongs to other numbers: take it away with the error.
      result.replaceChildren(h("p", {}, marked ? "Fix the field marked above to see the verdict." : answer.error));
    },
    delay: 250,
  });
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
      live.now();
    }),
    on(form, "input", live.soon),
    on(form, "change", live.soon),
    on(element.querySelector('[data-action="reset-numbers"]'), "click", () => {
      fillForm(form, drillNumbers);
      live.now();
    }),
    on(store, "change", (event) => {
      if (event.detail.item === item || event.detail.item === "*") sync();
    }),
    live.stop,
  ];
  return () => offs.forEach((off) => off());
}
