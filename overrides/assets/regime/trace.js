// "Your trace": a profiler trace read by regime_core in this page's worker. The file is read here and its
// bytes handed to the worker beside the request; it is never sent anywhere. This renders what the core answers.
import { dropZone, echoGuess, h, on, readingAsked, svgNode, verdictNodes } from "./dom.js";
import { copy } from "./links.js";
import { bindStatus, python } from "./runtime.js";

/** Read a file with progress (the bar fills while the browser reads it). */
function readFile(file, progress) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable) progress.value = event.loaded / event.total;
    };
    reader.onload = () => resolve(new Uint8Array(reader.result));
    reader.onerror = () => reject(new Error("the browser could not read this file"));
    reader.readAsArrayBuffer(file);
  });
}

/** An op's name with a line-break opportunity after each "::" and "_": aten::cudnn_ | convolution, never mid-word. */
function breakable(name) {
  return name.split(/(?<=::|_)/).flatMap((part, at) => (at ? [h("wbr"), part] : [part]));
}

/** The ops table, under the core's own column heads (a trace's ops, or Nsight Compute's kernels). */
function opsTable(ops, head) {
  if (!ops.length || !head) return null;
  // Numbered as on the roofline picture below, whose points carry the same numbers.
  // Each cell carries its column's name: on a phone a row reads as a small card of labelled lines (regime.css).
  const cell = (column, ...content) => h("td", { "data-label": head[column] }, ...content);
  const rows = ops.slice(0, 10).map((op, at) => h("tr", {},
    cell(0, `${at + 1}. `, h("code", {}, breakable(op.name)), op.shape_text ? h("span", { class: "regime-trace__shape" }, op.shape_text) : null),
    cell(1, String(op.calls)), cell(2, op.time_text), cell(3, op.intensity_text),
    cell(4, op.achieved_text), cell(5, op.regime_text)));
  return h("div", { class: "regime-trace__ops" },
    h("table", {}, h("thead", {}, h("tr", {}, head.map((name) => h("th", {}, name)))), h("tbody", {}, rows)));
}

/** The top ops on the card's roofline (the core's SVG), or the core's line saying why there is none. */
function opsRoofline(answer) {
  const picture = answer.roofline ? svgNode(answer.roofline) : null;
  const caption = h("figcaption", {}, answer.roofline_caption);
  return picture ? h("figure", { class: "regime-figure regime-trace__roofline" }, picture, caption)
    : h("p", { class: "regime-trace__roofline-none" }, answer.roofline_caption);
}

/** "Copy as review comment": the verdict and the trace's numbers, linking to how a trace is read (the reference
 *  page; this page would open on an empty form), never to the trace itself. */
function reviewLine(review) {
  const status = h("p", { class: "regime-links__status", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "md-button", "data-action": "copy-review" }, "Copy as review comment");
  const url = new URL("../reference/traces/", document.baseURI);
  button.addEventListener("click", () => copy(review.replace("{url}", url.href), status, "the review comment",
    `Copy this: ${review.replace("{url}", url.href)}`));
  return h("div", { class: "regime-trace__review" }, button, status);
}

export function mount(element) {
  const form = element.querySelector("form");
  const input = form.elements.file;
  const card = form.elements.gpu; // the card it ran on, where the trace names none the catalogue holds
  const dtype = form.elements.dtype; // the math's dtype, where the trace's types do not say the roof
  let last = null; // the file read last: read again when the card is chosen
  const progress = element.querySelector(".regime-trace__progress");
  const result = element.querySelector(".regime-trace__result");
  const maxBytes = Number(element.dataset.maxBytes) || 0;
  let turn = 0; // a newer file wins: an older answer arriving late is dropped

  const say = (text, state) => {
    result.dataset.state = state;
    result.replaceChildren(h("p", {}, text));
  };

  const render = (answer, guess) => {
    const verdict = answer.verdict;
    const theirs = h("div", { class: "regime-trace__theirs" }, h("p", {}, h("strong", {}, "The trace's reading")),
      ...verdictNodes(verdict));
    const yours = h("div", { class: "regime-trace__yours" }, h("p", {}, h("strong", {}, "Your reading")),
      h("p", { "data-role": "guess" }, guess || "(none written)"));
    const strip = svgNode(answer.svg);
    const legend = h("p", { class: "regime-trace__legend" }, answer.legend.map((key) =>
      h("span", {}, h("span", { class: `regime-trace__key regime-trace__key--${key.kind}`, "aria-hidden": "true" }), key.text)));
    result.dataset.state = "done";
    result.dataset.regime = verdict.regime || "undecided";
    result.replaceChildren(
      h("div", { class: "regime-trace__compare" }, yours, theirs),
      h("p", { class: "regime-trace__caption" }, answer.caption),
      ...(strip ? [strip, legend] : []),
      h("ul", { class: "regime-trace__facts" }, answer.text.split("\n").filter((line) => !line.startsWith("  ")
        && !/^top (ops|kernels) /.test(line)).map((line) => h("li", {}, line))),
      ...[opsTable(answer.ops || [], answer.ops_head)].filter(Boolean),
      opsRoofline(answer),
      reviewLine(answer.review),
    );
  };

  const read = async (file) => {
    const mine = ++turn;
    if (!file) return;
    last = file;
    if (maxBytes && file.size > maxBytes) {
      say(`This file is ${(file.size / 2 ** 20).toFixed(0)} MB; the page reads up to ${(maxBytes / 2 ** 20).toFixed(0)} MB.`
        + " The command line reads larger ones: regime trace FILE.", "error");
      return;
    }
    const guess = form.elements.guess.value.trim();
    progress.hidden = false;
    progress.value = 0;
    say("Reading the file…", "pending");
    try {
      const bytes = await readFile(file, progress);
      if (mine !== turn) return;
      say("Python is reading the trace…", "pending");
      const answer = await python.call("trace", readingAsked(form), bytes);
      if (mine !== turn) return;
      if (!answer.ok) say(answer.error, "error");
      else render(answer, guess);
    } catch (error) {
      if (mine === turn) say(`The trace could not be read: ${error.message}`, "error");
    } finally {
      if (mine === turn) progress.hidden = true;
    }
  };

  const teardowns = [
    dropZone(element, ([file]) => file && read(file)),
    bindStatus(element.querySelector(".regime-status")),
    on(input, "change", () => read(input.files[0])),
    on(card, "change", () => last && read(last)),
    on(dtype, "change", () => last && read(last)),
    on(form, "submit", (event) => event.preventDefault()), // Enter in the reading line reads nothing
    // A reading typed after the file was read is the learner's too: shown beside the trace's as it is typed.
    echoGuess(form.elements.guess, result),
  ];
  python.startSoon();
  return () => teardowns.forEach((teardown) => teardown());
}
