// The ridge explorer: pick a card or type a peak and a bandwidth; regime_core computes the
// ridge, and, once Part B is unlocked, places the three kernels with their floors.
import { clearErrors, h, on, readForm, showError } from "./dom.js";
import { bindStatus, python } from "./runtime.js";
import { store } from "./store.js";

export function mount(element) {
  const form = element.querySelector("form");
  const ridgeLine = element.querySelector(".regime-explorer__ridge");
  const rows = element.querySelector(".regime-explorer__rows");
  const lockedNote = rows.querySelector(".regime-explorer__locked");
  const unlockedBy = element.dataset.unlockedBy;
  let timer = 0;
  let generation = 0;

  const renderRows = (result) => {
    // The core names the columns and writes every cell (ridge_table's "columns" and rows' "cells").
    const head = h("thead", {}, h("tr", {}, result.columns.map((t) => h("th", {}, t))));
    const body = h("tbody", {}, result.rows.map((row) => h("tr", {}, row.cells.map((cell) => h("td", {}, cell)))));
    rows.replaceChildren(h("table", { class: "regime-explorer__table" }, head, body));
  };

  const compute = async () => {
    const mine = ++generation;
    clearErrors(form);
    const unlocked = Boolean(store.get(unlockedBy)?.unlocked);
    let result;
    try {
      result = await python.call(unlocked ? "ridge_table" : "ridge", readForm(form));
    } catch {
      return; // the status line says why Python is unavailable
    }
    if (mine !== generation) return; // a newer input has been sent since
    if (!result.ok) {
      // The previous ridge belongs to other numbers: take it away with the error.
      ridgeLine.textContent = showError(form, result.field, result.error)
        ? "Fix the field marked above to see the ridge." : result.error;
      if (unlocked) rows.replaceChildren();
      return;
    }
    if (form.elements.gpu.value !== "custom") {
      // Show the figures the card brings; typing over them switches to a custom card.
      form.elements.peak_flops.value = result.peak_text;
      form.elements.bandwidth.value = result.bandwidth_text;
    }
    ridgeLine.textContent = result.ridge_line;
    if (unlocked) renderRows(result);
    else rows.replaceChildren(lockedNote);
  };

  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(compute, 200);
  };

  python.startSoon();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", (event) => {
      event.preventDefault();
      compute();
    }),
    on(form, "input", (event) => {
      if (event.target.name === "peak_flops" || event.target.name === "bandwidth") form.elements.gpu.value = "custom";
      soon();
    }),
    on(form, "change", soon),
    on(store, "change", (event) => {
      if (event.detail.item === unlockedBy || event.detail.item === "*") soon();
    }),
    () => window.clearTimeout(timer),
  ];
  if (store.get(unlockedBy)?.unlocked) compute();
  return () => offs.forEach((off) => off());
}
