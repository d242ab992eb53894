// "Before and after": two traces read in this page's worker, one at a time, each into its reading (the bytes are
// dropped once read), then the core's diff of the two readings: the verdict on the change, what moved, and the
// pull-request comment. Nothing is sent anywhere; every word and number is the core's.
import { echoGuess, h, on, readingAsked, scrollTable, svgNode } from "./dom.js";
import { copy } from "./links.js";
import { bindStatus, python } from "./runtime.js";

export function mount(element) {
  const form = element.querySelector("form");
  const result = element.querySelector(".regime-trace-diff__result");
  const maxBytes = Number(element.dataset.maxBytes) || 0;
  const card = form.elements.gpu; // the card both ran on, where the traces name none the catalogue holds
  const dtype = form.elements.dtype; // the math's dtype, where the traces' types do not say the roof
  const readings = { before: null, after: null };
  const pictures = { before: null, after: null }; // each trace's strip, as the one-trace reader draws it

  const say = (text, state) => {
    result.dataset.state = state;
    result.replaceChildren(h("p", {}, text));
  };

  const render = (answer) => {
    const status = h("p", { class: "regime-links__status", role: "status", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "md-button", "data-action": "copy-diff" },
      "Copy as review comment");
    button.addEventListener("click", () => copy(answer.markdown, status, "the comparison, as Markdown",
      `Copy this: ${answer.markdown}`));
    result.dataset.state = "done";
    result.dataset.verdict = answer.verdict;
    const guess = form.elements.guess.value.trim();
    // One time scale for both strips: the longer window spans the width, the shorter its share of it.
    const longest = Math.max(readings.before.trace.window, readings.after.trace.window);
    const strip = (side) => {
      const picture = pictures[side] && svgNode(pictures[side].svg);
      if (!picture) return null;
      picture.style.width = `${(100 * readings[side].trace.window) / longest}%`;
      return h("figure", { class: "regime-figure regime-trace-diff__strip" }, picture,
        h("figcaption", {}, `${side === "before" ? "Before" : "After"}: ${pictures[side].caption}`));
    };
    result.replaceChildren(
      h("div", { class: "regime-trace__compare" },
        h("div", { class: "regime-trace__yours" }, h("p", {}, h("strong", {}, "What you expected")),
          h("p", { "data-role": "guess" }, guess || "(none written)")),
        h("div", { class: "regime-trace__theirs" }, h("p", {}, h("strong", {}, "What the traces say")),
          h("p", { class: "regime-trace-diff__verdict" }, answer.headline))),
      scrollTable("regime-trace-diff__rows", "What moved", answer.head, answer.rows),
      h("p", { class: "regime-trace-diff__text" }, answer.text),
      ...(answer.op_rows.length
        ? [scrollTable("regime-trace-diff__rows", "The ops that moved most", answer.op_head, answer.op_rows)] : []),
      ...["before", "after"].map(strip).filter(Boolean),
      h("div", { class: "regime-trace__review" }, button, status),
    );
  };

  // Each side's newest file wins for that side (an older one still being read is dropped), and the comparison
  // shown is the newest of the two readings: picking both files at once loses neither.
  const turns = { before: 0, after: 0, compare: 0 };

  const compare = async () => {
    const mine = ++turns.compare;
    const diff = await python.call("trace_diff", { before: readings.before, after: readings.after });
    if (mine !== turns.compare) return;
    if (!diff.ok) say(diff.error, "error");
    else render(diff);
  };

  const read = async (side, file) => {
    const mine = ++turns[side];
    readings[side] = null;
    if (!file) return;
    if (maxBytes && file.size > maxBytes) {
      say(`The ${side} trace is ${(file.size / 2 ** 20).toFixed(0)} MB; the page reads up to`
        + ` ${(maxBytes / 2 ** 20).toFixed(0)} MB. The command line reads larger ones: regime diff BEFORE AFTER.`, "error");
      return;
    }
    say(`Python is reading the ${side} trace…`, "pending");
    try {
      const answer = await python.call("trace", readingAsked(form), new Uint8Array(await file.arrayBuffer()));
      if (mine !== turns[side]) return;
      if (!answer.ok) {
        say(`The ${side} trace: ${answer.error}`, "error");
        return;
      }
      readings[side] = { ...answer.verdict, trace: answer.trace };
      pictures[side] = { svg: answer.svg, caption: answer.caption };
      const other = side === "before" ? "after" : "before";
      if (readings[other]) await compare();
      else if (!form.elements[other].files.length) say(`The ${side} trace is read; now give the ${other} one.`, "waiting");
    } catch (error) {
      if (mine === turns[side]) say(`The ${side} trace could not be read: ${error.message}`, "error");
    }
  };

  const teardowns = [
    bindStatus(element.querySelector(".regime-status")),
    on(form.elements.before, "change", () => read("before", form.elements.before.files[0])),
    on(form.elements.after, "change", () => read("after", form.elements.after.files[0])),
    ...[card, dtype].map((menu) => on(menu, "change", () => ["before", "after"].forEach((side) => {
      const [file] = form.elements[side].files;
      if (file) read(side, file); // both read again on the card or dtype chosen
    }))),
    on(form, "submit", (event) => event.preventDefault()), // Enter in the prediction line reads nothing
    // A prediction typed after the traces were read is shown beside what they say, as it is typed.
    echoGuess(form.elements.guess, result),
  ];
  python.startSoon();
  return () => {
    Object.keys(turns).forEach((key) => { turns[key] += 1; }); // readings still coming are dropped
    teardowns.forEach((teardown) => teardown());
  };
}
