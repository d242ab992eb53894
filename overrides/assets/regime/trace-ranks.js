// "Every rank": one trace (or digest) per rank, each read in this page's worker in turn and kept as its digest
// (kilobytes; the page never holds two traces at once), then the core's merge of the digests: the job's verdict,
// the stragglers, the per-rank table and the picture. Nothing is sent anywhere; every word and number is the core's.
import { h, on, readingAsked, scrollTable, svgNode } from "./dom.js";
import { copy } from "./links.js";
import { bindStatus, python } from "./runtime.js";

export function mount(element) {
  const form = element.querySelector("form");
  const input = form.elements.ranks;
  const card = form.elements.gpu; // the card every rank ran on, where the traces name none the catalogue holds
  const progress = element.querySelector(".regime-trace-ranks__progress");
  const result = element.querySelector(".regime-trace-ranks__result");
  const maxBytes = Number(element.dataset.maxBytes) || 0;
  const maxRanks = Number(element.dataset.maxRanks) || 0;
  let turn = 0; // a newer choice of files wins: readings of an older one still coming are dropped

  const say = (text, state) => {
    result.dataset.state = state;
    result.replaceChildren(h("p", {}, text));
  };

  const render = (answer) => {
    const status = h("p", { class: "regime-links__status", role: "status", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "md-button", "data-action": "copy-ranks" },
      "Copy as review comment");
    button.addEventListener("click", () => copy(answer.markdown, status, "the ranks' reading, as Markdown",
      `Copy this: ${answer.markdown}`));
    const picture = svgNode(answer.svg);
    result.dataset.state = "done";
    result.dataset.verdict = answer.result.job.verdict;
    result.replaceChildren(
      h("p", { class: "regime-trace-ranks__verdict" }, h("strong", {}, answer.text)),
      ...answer.notes.map((note) => h("p", { class: "regime-trace-ranks__note" }, note)),
      scrollTable("regime-trace-ranks__rows", "Each rank", answer.head, answer.rows),
      ...(answer.shown ? [h("p", { class: "regime-trace-ranks__note" }, answer.shown)] : []),
      ...(picture ? [h("figure", { class: "regime-figure regime-trace-ranks__picture" }, picture,
        h("figcaption", {}, picture.querySelector("title")?.textContent || ""))] : []),
      ...answer.result.refused.map((r) => h("p", { class: "regime-trace-ranks__refused" }, `Not read: ${r.file}: ${r.reason}`)),
      h("div", { class: "regime-trace__review" }, button, status),
    );
  };

  const read = async (files) => {
    const mine = ++turn;
    if (!files.length) return;
    if (maxRanks && files.length > maxRanks) {
      say(`These are ${files.length} files; the page merges up to ${maxRanks} ranks. The command line takes any`
        + " number: regime ranks run/.", "error");
      return;
    }
    const digests = [];
    const refused = [];
    progress.hidden = false;
    try {
      for (const [at, file] of files.entries()) {
        progress.value = at / files.length;
        say(`Python is reading rank file ${at + 1} of ${files.length}: ${file.name}…`, "pending");
        if (maxBytes && file.size > maxBytes) {
          refused.push({ file: file.name, reason: `${(file.size / 2 ** 20).toFixed(0)} MB; the page reads up to`
            + ` ${(maxBytes / 2 ** 20).toFixed(0)} MB a file (the command line reads larger ones)` });
          continue;
        }
        const answer = await python.call("rank_digest", readingAsked(form),
          new Uint8Array(await file.arrayBuffer()));
        if (mine !== turn) return;
        if (answer.ok) digests.push({ file: file.name, digest: answer.digest });
        else refused.push({ file: file.name, reason: answer.error });
      }
      say("Python is merging the ranks…", "pending");
      const merged = await python.call("ranks", { digests, refused });
      if (mine !== turn) return;
      if (!merged.ok) say(merged.error, "error");
      else render(merged);
    } catch (error) {
      if (mine === turn) say(`The ranks could not be read: ${error.message}`, "error");
    } finally {
      if (mine === turn) progress.hidden = true;
    }
  };

  // In name order, as the command line reads a folder: rank0, rank1, … (numbers compared as numbers).
  const byName = (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true });
  const teardowns = [
    bindStatus(element.querySelector(".regime-status")),
    on(input, "change", () => read([...input.files].sort(byName))),
    on(card, "change", () => read([...input.files].sort(byName))), // every rank read again on the card chosen
    on(form, "submit", (event) => event.preventDefault()),
  ];
  python.startSoon();
  return () => {
    turn += 1;
    teardowns.forEach((teardown) => teardown());
  };
}
