// Mentor: a class's files read one at a time in this page's worker, each into its small entry, and the entries
// merged into the report `regime grade` prints. The page holds the entries, the report and one file's text at a
// time; nothing is sent anywhere. regime_core writes every word; this renders the view it answers.
import { download, dropZone, h, on, scrollTable } from "./dom.js";
import { bindStatus, python } from "./runtime.js";

function section(part) {
  return h("section", { class: "regime-mentor__item" }, h("h3", {}, part.title),
    ...(part.lead ? [h("p", {}, part.lead)] : []),
    ...(part.points.length ? [h("ul", {}, part.points.map((point) => h("li", {}, h("strong", {}, point.strong), `: ${point.text}`)))] : []));
}

function reportNodes(answer) {
  const { view } = answer;
  const buttons = h("p", { class: "regime-mentor__downloads" },
    h("button", { type: "button", class: "md-button", "data-action": "download-md" }, "Download as Markdown"),
    h("button", { type: "button", class: "md-button", "data-action": "download-csv" }, "Download as CSV"));
  buttons.addEventListener("click", (event) => {
    const action = event.target.closest("button")?.dataset.action;
    if (action === "download-md") download("class-report.md", "text/markdown", answer.markdown);
    if (action === "download-csv") download("class-report.csv", "text/csv", answer.csv);
  });
  return [
    h("h2", { class: "regime-mentor__title" }, "The class's write-ups"),
    h("p", { class: "regime-mentor__summary" }, view.summary),
    buttons,
    ...(view.learners.rows.length
      ? [scrollTable("regime-mentor__learners", "Learners", view.learners.head, view.learners.rows)] : []),
    ...view.sections.map(section),
    h("p", { class: "regime-mentor__note" }, view.note),
    ...(view.refused.length ? [h("section", { class: "regime-mentor__refused" }, h("h3", {}, "Files not graded"),
      h("ul", {}, view.refused.map((line) => h("li", {}, line))))] : []),
  ];
}

export function mount(element) {
  const form = element.querySelector("form");
  const input = form.elements.files;
  const progress = element.querySelector(".regime-mentor__progress");
  const result = element.querySelector(".regime-mentor__result");
  const maxBytes = Number(element.dataset.maxBytes) || 0;
  let turn = 0; // a newer choice of files wins: an older class still being read stops

  const say = (text, state) => {
    result.dataset.state = state;
    result.replaceChildren(h("p", {}, text));
  };

  const read = async (files) => {
    const mine = ++turn;
    if (!files.length) return;
    progress.hidden = false;
    progress.value = 0;
    const entries = [];
    try {
      for (const [index, file] of files.entries()) {
        say(`Reading file ${index + 1} of ${files.length}: ${file.name}`, "pending");
        // Only a file the grader would read is opened; a larger one is named with its size, unread.
        const text = maxBytes && file.size > maxBytes ? null : await file.text();
        if (mine !== turn) return;
        const answer = await python.call("class_entry", { file: file.name, text, bytes: file.size, index });
        if (mine !== turn) return;
        if (!answer.ok) throw new Error(answer.error);
        entries.push(answer.entry);
        progress.value = (index + 1) / files.length;
      }
      say("Writing the report…", "pending");
      const answer = await python.call("class_report", { entries });
      if (mine !== turn) return;
      if (!answer.ok) throw new Error(answer.error);
      result.dataset.state = "done";
      result.replaceChildren(...reportNodes(answer));
    } catch (error) {
      if (mine === turn) say(`The class could not be read: ${error.message}`, "error");
    } finally {
      if (mine === turn) progress.hidden = true;
    }
  };

  const teardowns = [
    dropZone(element, read),
    bindStatus(element.querySelector(".regime-status")),
    on(input, "change", () => read([...input.files])),
    on(form, "submit", (event) => event.preventDefault()),
  ];
  python.startSoon();
  return () => {
    turn += 1; // a class still being read stops
    teardowns.forEach((teardown) => teardown());
  };
}
