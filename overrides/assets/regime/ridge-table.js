// The ridge explorer: pick a card or type a peak and a bandwidth; regime_core computes the
// ridge, and, once Part B is unlocked, places the three kernels with their floors.
import { h, on, readForm } from "./dom.js";
import { liveCall } from "./live.js";
import { bindStatus, python } from "./runtime.js";
import { store } from "./store.js";

export function mount(element) {
  const form = element.querySelector("form");
  const card = form.elements["hardware.id"];
  const peak = form.elements["hardware.peak_flops"];
  const bandwidth = form.elements["hardware.bandwidth"];
  const ridgeLine = element.querySelector(".regime-explorer__ridge");
  const rows = element.querySelector(".regime-explorer__rows");
  const lockedNote = rows.querySelector(".regime-explorer__locked");
  const unlockedBy = element.dataset.unlockedBy;

  const renderRows = (result) => {
    // The core names the columns and writes every cell (ridge_table's "columns" and rows' "cells").
    const head = h("thead", {}, h("tr", {}, result.columns.map((t) => h("th", {}, t))));
    const body = h("tbody", {}, result.rows.map((row) => h("tr", {}, row.cells.map((cell) => h("td", {}, cell)))));
    rows.replaceChildren(h("table", { class: "regime-explorer__table" }, head, body));
  };

  const live = liveCall({
    form,
    request: (context) => {
      context.unlocked = Boolean(store.get(unlockedBy)?.unlocked);
      return { op: context.unlocked ? "ridge_table" : "ridge", payload: readForm(form) };
    },
    render: (result, { unlocked }) => {
      if (card.value !== "custom") {
        // Show the figures the card brings; typing over them switches to a custom card.
        peak.value = result.peak_text;
        bandwidth.value = result.bandwidth_text;
      }
      ridgeLine.textContent = result.ridge_line;
      if (unlocked) renderRows(result);
      else rows.replaceChildren(lockedNote);
    },
    fail: (result, marked, { unlocked }) => {
      // The previous ridge belongs to other numbers: take it away with the error.
      ridgeLine.textContent = marked ? "Fix the field marked above to see the ridge." : result.error;
      if (unlocked) rows.replaceChildren();
    },
    delay: 200,
  });

  python.startSoon();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", (event) => {
      event.preventDefault();
      live.now();
    }),
    on(form, "input", (event) => {
      if (event.target === peak || event.target === bandwidth) card.value = "custom";
      live.soon();
    }),
    on(form, "change", live.soon),
    on(store, "change", (event) => {
      if (event.detail.item === unlockedBy || event.detail.item === "*") live.soon();
    }),
    live.stop,
  ];
  if (store.get(unlockedBy)?.unlocked) live.now();
  return () => offs.forEach((off) => off());
}
