// The acceptance panel: regime_core grades the saved attempts against the drill's five
// criteria; the learner takes the write-up away as Markdown or JSON, or brings one back.
import { download, h, on, withItemLinks } from "./dom.js";
import { gradeSaved } from "./grading.js";
import { bindLearnerName } from "./learner.js";
import { bindStatus, python } from "./runtime.js";
import { store } from "./store.js";

/** "1 answered item", "3 answered items". */
function answered(count) {
  return `${count} answered item${count === 1 ? "" : "s"}`;
}

/** The attempt file of the saved items, without Python (parts as `regime grade` reads them). */
function rawAttempt(items) {
  const attempts = Object.fromEntries(Object.entries(items).map(([id, entry]) => [id, entry.attempt]));
  const { "part-b": partB, "part-c": partC, ...partA } = attempts;
  return { part_a: partA, part_b: partB || {}, part_c: (partC && partC.paragraph) || "" };
}

const MARKS = {
  true: { text: "✓", label: "passed" },
  false: { text: "✗", label: "not yet" },
  null: { text: "?", label: "could not tell" },
};
const VERDICTS = {
  true: "Passing write-up.",
  false: "Not passing yet: see the criteria above.",
  null: "Nothing fails, but the grader could not tell everything: compare with the worked answers.",
};

export function mount(element) {
  const maxImportBytes = Number(element.dataset.maxImportBytes) || 1_000_000;
  const list = element.querySelector(".regime-acceptance__criteria");
  const verdict = element.querySelector(".regime-acceptance__verdict");
  const status = element.querySelector(".regime-acceptance__status");
  const fileInput = element.querySelector('input[type="file"]');
  // The learner's name for a mentor's report: kept in this browser, written into the downloaded file only.
  const learner = element.querySelector('input[name="learner"]');
  const unbindName = bindLearnerName(learner);
  let latest = null;
  // Items saved by another version: kept in storage as they are, named here, and left out of the grade.
  const aside = h("p", { class: "regime-acceptance__aside", hidden: true });
  const openLines = h("p", { class: "regime-acceptance__open", hidden: true });
  verdict.after(openLines, aside);
  const showAside = (ids) => {
    aside.hidden = !ids.length;
    aside.textContent = ids.length
      ? `Saved by another version: kept, not graded: ${ids.map((id) => id.toUpperCase()).join(", ")}.`
      : "";
  };
  let latestVersion = -1;
  let timer = 0;
  let generation = 0;

  const say = (text) => {
    status.textContent = text;
  };

  const refresh = async () => {
    const mine = ++generation;
    const version = store.version;
    let result;
    try {
      result = await gradeSaved();
    } catch {
      return; // the status line says why Python is unavailable
    }
    if (mine !== generation) return;
    if (!result.ok) {
      latest = null;
      showAside(store.unreadable);
      verdict.textContent = `The grader could not read a saved attempt: ${result.error}`;
      return;
    }
    latest = result;
    latestVersion = version;
    showAside([...new Set([...store.unreadable, ...Object.keys(result.set_aside || {})])]);
    // Each criterion keeps its own wording; the core's verdict and reason go beside it.
    for (const c of result.grade.criteria) {
      const li = list.querySelector(`li[data-criterion="${c.id}"]`);
      if (!li) continue;
      const mark = MARKS[String(c.passed)];
      li.dataset.passed = String(c.passed);
      const markNode = li.querySelector(".regime-acceptance__mark");
      markNode.textContent = mark.text;
      markNode.setAttribute("aria-label", mark.label);
      li.querySelector(".regime-acceptance__why").replaceChildren(...withItemLinks(c.why));
    }
    verdict.textContent = VERDICTS[String(result.grade.passed)];
    // The criteria can pass with a line still wrong or empty: say which, beside the verdict, with links.
    const open = result.grade.open || [];
    openLines.hidden = !open.length;
    openLines.replaceChildren(...(open.length ? [
      result.grade.passed === true ? "That is by the five criteria; lines still to look at: " : "Lines still to look at: ",
      ...open.flatMap((entry, i) => [
        ...(i ? ["; "] : []),
        h("a", { href: `#${entry.anchor}` }, entry.name),
        ` (${entry.labels.join(", ").toLowerCase()})`,
      ]),
      ".",
    ] : []));
  };

  const soon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 150);
  };

  const withWriteup = async (use) => {
    await refresh();
    if (!latest) {
      say(python.state === "failed" ? "Exporting needs Python, which could not start." : "Nothing to export yet.");
      return;
    }
    await use(latest);
  };

  const actions = {
    "download-md": () => withWriteup((w) => {
      download("regime-write-up.md", "text/markdown", w.markdown);
      say("Downloaded regime-write-up.md.");
    }),
    "copy-md": () => withWriteup(async (w) => {
      try {
        await navigator.clipboard.writeText(w.markdown);
        say("Copied the write-up as Markdown.");
      } catch {
        say("This browser did not allow copying; use Download instead.");
      }
    }),
    // The attempt file never waits for Python: the graded one when the grade is current, else the raw
    // saved items (items set aside included, as they were saved).
    "download-json": () => {
      const graded = latest && latestVersion === store.version ? latest.attempt : null;
      const items = store.state.items;
      if (!graded && !Object.keys(items).length) {
        say("Nothing to export yet.");
        return;
      }
      const name = learner.value.trim();
      const file = { ...(graded || rawAttempt(items)), ...(name ? { learner: name } : {}) };
      download("regime-attempt.json", "application/json", `${JSON.stringify(file, null, 2)}\n`);
      say("Downloaded regime-attempt.json: a mentor can run `regime grade regime-attempt.json`.");
    },
    "import-json": () => fileInput.click(),
  };

  // The Undo of the last import, from the stored record: it outlives a reload and shows in every tab.
  const offerUndo = (text) => {
    const undo = h("button", { type: "button", class: "md-button", "data-action": "undo-import" }, "Undo");
    undo.addEventListener("click", () => {
      const back = store.undo("import") || [];
      say(`Import undone: ${back.length ? `your ${back.length} saved ${back.length === 1 ? "attempt is" : "attempts are"} back` : "nothing of yours to put back"}.`);
    }, { once: true });
    status.replaceChildren(text, undo);
  };

  const importFile = async () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    if (file.size > maxImportBytes) {
      say(`${file.name}: expected an attempt file of at most ${maxImportBytes.toLocaleString("en")} bytes;`
        + " nothing was changed.");
      return;
    }
    let result;
    try {
      result = await python.call("import_attempt", { text: await file.text() });
    } catch (error) {
      say(`Importing needs Python, which could not start; nothing was changed.`);
      return;
    }
    if (!result.ok) {
      say(`${file.name}: ${result.error}. Nothing was changed.`);
      return;
    }
    const mine = Object.keys(store.state.items);
    const replace = () => {
      store.replaceAll(result.items);
      offerUndo(`Imported ${file.name}: ${answered(Object.keys(result.items).length)}. `);
    };
    if (!mine.length) {
      replace();
      return;
    }
    // Saved work is never replaced without asking, and an import can be undone.
    const yes = h("button", { type: "button", class: "md-button md-button--primary", "data-action": "confirm-import" },
      `Replace my ${mine.length}`);
    const no = h("button", { type: "button", class: "md-button", "data-action": "cancel-import" }, "Keep mine");
    yes.addEventListener("click", replace, { once: true });
    no.addEventListener("click", () => say(`Kept your saved attempts; ${file.name} was not imported.`), { once: true });
    status.replaceChildren(`${file.name} holds ${answered(Object.keys(result.items).length)}; importing it replaces`
      + ` your ${mine.length} saved ${mine.length === 1 ? "attempt" : "attempts"}. `, yes, " ", no);
  };

  const offs = [
    unbindName,
    bindStatus(element.querySelector(".regime-status")),
    on(store, "change", (event) => {
      soon();
      // An attempt saved or cleared in the tab that shows the import's Undo: the learner has moved on from it.
      const button = status.querySelector('[data-action="undo-import"]');
      if (button && !event.detail.remote && event.detail.item !== "*") store.dropUndo("import");
      if (button && !store.pendingUndo("import")) button.remove();
    }),
    on(fileInput, "change", importFile),
    () => window.clearTimeout(timer),
    () => aside.remove(),
  ];
  for (const [action, run] of Object.entries(actions)) {
    const button = element.querySelector(`[data-action="${action}"]`);
    if (button) offs.push(on(button, "click", run));
  }
  showAside(store.unreadable);
  if (store.pendingUndo("import")) offerUndo("Your last import can be undone. ");
  if (Object.keys(store.state.items).length) refresh();
  else python.startSoon();
  return () => offs.forEach((off) => off());
}
