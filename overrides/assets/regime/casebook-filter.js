// The casebook index's filter: the rows whose case or source holds every word typed, and a count. Which
// readings show is CSS's business (a checkbox), so it works without JavaScript; once they show, the filter
// reads them too ("memory", "anomaly"), and while they are hidden it never does, so a filter cannot give
// a reading away.

/** A row's words to match: its case and source, and its two readings for when they are shown. */
function rowText(row) {
  const cells = [...row.cells];
  const readings = cells.filter((cell) => cell.classList.contains("regime-casebook__reading"));
  const others = cells.filter((cell) => !readings.includes(cell));
  const words = (list) => list.map((cell) => cell.textContent).join(" ").toLowerCase();
  return { always: words(others), readings: words(readings) };
}

export function mount(element) {
  const input = element.querySelector(".regime-casebook__filter");
  const show = element.querySelector(".regime-casebook__show");
  const count = element.querySelector(".regime-casebook__count");
  const rows = [...element.querySelectorAll("tbody tr")].map((row) => ({ row, text: rowText(row) }));
  const initial = count.textContent;
  const apply = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    const withReadings = show.checked;
    let shown = 0;
    for (const { row, text } of rows) {
      const haystack = withReadings ? `${text.always} ${text.readings}` : text.always;
      const match = words.every((word) => haystack.includes(word));
      if (row.hidden === match) row.hidden = !match;
      if (match) shown += 1;
    }
    count.textContent = !words.length ? initial
      : shown ? `${shown} of ${rows.length} cases match “${input.value.trim()}”.`
        : `No case matches “${input.value.trim()}”: try a card (H100), a model or a source`
          + (withReadings ? ", or a reading (memory)." : ".");
  };
  input.addEventListener("input", apply);
  show.addEventListener("change", apply);
  apply(); // a value the browser kept across a back/forward visit
  return () => {
    input.removeEventListener("input", apply);
    show.removeEventListener("change", apply);
    for (const { row } of rows) row.hidden = false;
    count.textContent = initial;
  };
}
