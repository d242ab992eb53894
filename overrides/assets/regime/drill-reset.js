// "Start the whole drill over": hides every answer again.
import { on } from "./dom.js";
import { store } from "./store.js";

export function mount(element) {
  const status = element.querySelector('[role="status"]');
  return on(element.querySelector('[data-action="reset-all"]'), "click", () => {
    store.resetAll();
    status.textContent = "The drill starts over: every answer is hidden again.";
  });
}
