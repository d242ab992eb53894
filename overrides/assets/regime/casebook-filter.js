// The casebook index's filter: the rows whose case or source holds every word typed, and a count. Which
// readings show is CSS's business (a checkbox), so it works without JavaScript.

/** Each row's words to match: the case's title and its source, not the readings (they may be hidden). */
function rowText(row) {
  const cells = row.cells;
  return `${cells[0].textContent} ${cells[cells.length - 1].textContent}`.toLowerCase();
}

export function mount(element) {
  const input = element.querySelector(".regime-casebook__filter");
  const count = element.querySelector(".regime-casebook__count");
  const rows = [...element.querySelectorAll("tbody tr")].map((row) => ({ row, text: rowText(row) }));
  const initial = count.textContent;
  const apply = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const { row, text } of rows) {
      const match = words.every((word) => text.includes(word));
      if (row.hidden === match) row.hidden = !match;
      if (match) shown += 1;
    }
    count.textContent = !words.length ? initial
      : shown ? `${shown} of ${rows.length} cases match “${input.value.trim()}”.`
        : `No case matches “${input.value.trim()}”: try a card (H100), a model or a source.`;
  };
  input.addEventListener("input", apply);
  apply(); // a value the browser kept across a back/forward visit
  return () => {
    input.removeEventListener("input", apply);
    for (const { row } of rows) row.hidden = false;
    count.textContent = initial;
  };
}
