// The stretch: any kernel on any card. regime_core places it and classifies it.
import { clearErrors, fillForm, h, on, readForm, svgNode, verdictNodes } from "./dom.js";
import { liveCall } from "./live.js";
import { bindStatus, python } from "./runtime.js";

// Links copied before the card's fields were named as the request's hardware object (bridge
// protocol 4) carry ?gpu=…&peak_flops=…&bandwidth=…: they still open, each old name read as the
// field that replaced it. New links are written with the new names.
const OLD_LINK_NAMES = { gpu: "hardware.id", peak_flops: "hardware.peak_flops", bandwidth: "hardware.bandwidth" };
// The card's two figures: the core fills them in for a catalogue card; typed, they make the card custom.
const CARD_FIGURES = ["hardware.peak_flops", "hardware.bandwidth"];

export function mount(element) {
  const form = element.querySelector("form");
  const card = form.elements["hardware.id"];
  const result = element.querySelector(".regime-stretch__result");

  const syncFields = () => {
    const kind = form.elements["work.kernel"].value;
    for (const field of form.querySelectorAll("[data-kinds]")) {
      const shown = field.dataset.kinds.split(" ").includes(kind);
      field.hidden = !shown;
      for (const control of field.querySelectorAll("input, select")) control.disabled = !shown;
    }
  };

  const render = (answer) => {
    if (answer.unusable) {
      result.replaceChildren(h("p", {}, answer.unusable));
      return;
    }
    const p = answer.placement;
    const picture = svgNode(answer.svg);
    result.replaceChildren(
      h("p", {}, p.summary),
      ...verdictNodes(answer.verdict),
      // The core's arithmetic, as the command line prints it (what the work model assumed included).
      h("details", { class: "regime-stretch__arithmetic" }, h("summary", {}, "Arithmetic"),
        h("ul", {}, ...p.arithmetic.map((line) => h("li", {}, line)))),
      ...(picture ? [picture] : []),
    );
  };

  const defaults = readForm(form);
  const defaultResult = [...result.childNodes];
  const linkLine = element.querySelector(".regime-stretch__link");

  // The whole input lives in the page's URL: ?hardware.id=…&work.kernel=…#stretch. Only names the form
  // has are read; values go into inputs as text, and the core checks them like anything typed.
  const shareUrl = () => {
    const url = new URL(window.location.href);
    url.search = "";
    for (const control of form.elements) {
      if (!control.name || control.disabled) continue;
      // A catalogue card's peaks come with its id: written into the link, they would read as overrides.
      if (card.value !== "custom" && CARD_FIGURES.includes(control.name)) continue;
      const value = control.type === "checkbox" ? (control.checked ? "true" : "") : control.value.trim();
      if (value) url.searchParams.set(control.name, value);
    }
    url.hash = "stretch";
    return url.href;
  };
  const applyLink = () => {
    const params = new URL(window.location.href).searchParams;
    for (const [old, name] of Object.entries(OLD_LINK_NAMES)) {
      if (params.has(old) && !params.has(name)) params.set(name, params.get(old));
    }
    let used = false;
    for (const control of form.elements) {
      if (!control.name || !params.has(control.name)) continue;
      const value = params.get(control.name).slice(0, 500);
      if (control.type === "checkbox") control.checked = value === "true";
      else control.value = value;
      used = true;
    }
    return used;
  };

  // Until the core answers for the kernel in the form, the result says so: it never shows the
  // verdict of another kernel (the page's static default) as if it were this one's.
  const pending = (text) => {
    result.dataset.state = "pending";
    result.replaceChildren(h("p", {}, text));
  };
  const live = liveCall({
    form,
    request: (context) => {
      syncFields();
      context.shown = [...result.childNodes];
      if (context.fromLink) pending("Working out the kernel from this link…");
      else if (python.state !== "ready") pending("Working out this kernel…");
      return { op: "kernel", payload: readForm(form) };
    },
    render: (answer, { fromLink }) => {
      delete result.dataset.state;
      if (answer.placement && card.value !== "custom") {
        form.elements["hardware.peak_flops"].value = answer.placement.peak_text;
        form.elements["hardware.bandwidth"].value = answer.placement.bandwidth_text;
      }
      render(answer);
      // A shared link lands on its verdict, unless the reader has scrolled away while Python started.
      if (!fromLink || !readerMoved) {
        result.focus({ preventScroll: true }); // focus alone would centre a tall result under the header
        result.scrollIntoView({ block: "start" });
      }
    },
    fail: (answer, marked, { fromLink }) => {
      delete result.dataset.state;
      if (fromLink) {
        fillForm(form, defaults);
        clearErrors(form); // the defaults are not what the error was about
        syncFields();
        linkLine.textContent = `This link's settings could not be used (${answer.error}); showing the defaults.`;
        document.documentElement.classList.remove("regime-stretch-link");
        result.replaceChildren(...defaultResult);
        return;
      }
      // The previous verdict belongs to other numbers: take it away with the error.
      result.replaceChildren(h("p", {}, marked ? "Fix the field marked above to see this kernel's verdict." : answer.error));
    },
    unavailable: ({ fromLink, shown }) => {
      // The status line says why Python is unavailable.
      if (fromLink) pending("This link's kernel is in the form above; its verdict needs Python, which could not start.");
      else {
        delete result.dataset.state;
        result.replaceChildren(...shown);
      }
    },
  });
  const classify = (event) => {
    event.preventDefault();
    live.now({ fromLink: false });
  };

  const copyText = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      linkLine.textContent = `Copied: ${text}`;
    } catch {
      linkLine.textContent = `Copy this: ${text}`;
    }
  };
  const copyLink = () => copyText(shareUrl());
  // The comment is the core's, for the kernel now in the form; its link reproduces that kernel.
  const copyReview = async () => {
    let answer;
    try {
      answer = await python.call("kernel", (syncFields(), readForm(form)));
    } catch {
      return; // the status line says why Python is unavailable
    }
    if (!answer.ok) {
      linkLine.textContent = `No review comment yet: ${answer.error}`;
      return;
    }
    await copyText(answer.review.replace("{url}", shareUrl()));
  };

  const fromLink = applyLink();
  // Whether the reader has scrolled or typed since the page opened (the page's own scroll to #stretch is not them).
  let readerMoved = false;
  const moved = () => {
    readerMoved = true;
  };
  // main.html marks a page opened from a stretch link; without one (or after instant navigation
  // away and back) the static default result is what the form shows.
  if (!fromLink) document.documentElement.classList.remove("regime-stretch-link");
  syncFields();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", classify),
    on(element.querySelector('[data-action="copy-stretch-link"]'), "click", copyLink),
    on(element.querySelector('[data-action="copy-stretch-review"]'), "click", copyReview),
    on(form, "change", syncFields),
    on(form, "input", (event) => {
      if (event.target.name === "hardware.peak_flops" || event.target.name === "hardware.bandwidth") card.value = "custom";
      syncFields();
      linkLine.textContent = ""; // a copied link names the kernel as it was
    }),
    on(form, "change", (event) => {
      linkLine.textContent = "";
      // Another card: the old card's figures would be read as this one's overrides.
      if (event.target === card && card.value !== "custom") for (const name of CARD_FIGURES) form.elements[name].value = "";
      // The verdict on screen is another kernel's now: it goes until Classify asks for this one's.
      if (result.dataset.state !== "pending") {
        result.dataset.state = "stale";
        result.replaceChildren(h("p", {}, "The kernel changed: press Classify for its verdict."));
      }
    }),
    on(form, "focusin", () => python.startSoon()),
    ...["wheel", "touchmove", "keydown", "pointerdown"].map((type) => on(window, type, moved, { passive: true })),
    live.stop,
  ];
  if (fromLink) live.now({ fromLink: true });
  return () => offs.forEach((off) => off());
}
