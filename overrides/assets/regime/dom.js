// Small DOM helpers. Text is always set as text: nothing a learner types becomes HTML.

/** Create an element with attributes and text or element children. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Listen, and return the matching teardown. */
export function on(target, type, listener, options) {
  target.addEventListener(type, listener, options);
  return () => target.removeEventListener(type, listener, options);
}

/** What a trace widget's menus ask the core to read on: the card (gpu) and the math's dtype, each where chosen. */
export function readingAsked(form) {
  const { gpu, dtype } = form.elements;
  return { ...(gpu?.value && { gpu: gpu.value }), ...(dtype?.value && { dtype: dtype.value }) };
}

/** Show what is typed in ``input`` in the result's [data-role="guess"] line, as it is typed; returns the teardown. */
export function echoGuess(input, result) {
  return on(input, "input", () => {
    const shown = result.querySelector('[data-role="guess"]');
    if (shown) shown.textContent = input.value.trim() || "(none written)";
  });
}

/** Read a form into a nested object: a field named "add.side" becomes {add: {side}}. */
export function readForm(form) {
  const out = {};
  for (const control of form.elements) {
    if (!control.name || control.disabled) continue;
    if (control.type === "radio" && !control.checked) continue;
    const value = control.type === "checkbox" ? control.checked : control.value;
    const path = control.name.split(".");
    let node = out;
    for (const key of path.slice(0, -1)) node = node[key] = node[key] || {};
    node[path[path.length - 1]] = value;
  }
  return out;
}

/** Put saved values back into a form. */
export function fillForm(form, values) {
  for (const control of form.elements) {
    if (!control.name) continue;
    const value = control.name.split(".").reduce((node, key) => (node && typeof node === "object" ? node[key] : undefined), values);
    if (control.type === "radio") control.checked = value === control.value;
    else if (control.type === "checkbox") control.checked = value === true;
    else control.value = value === undefined || value === null || typeof value === "object" ? "" : String(value);
  }
}

/** Show a one-line error at a field (by its data-field name); false when there is no such field. */
export function showError(root, field, message) {
  const wrapper = [...root.querySelectorAll("[data-field]")].find((el) => el.dataset.field === field);
  if (!wrapper) return false;
  const line = wrapper.querySelector(".regime-field__error");
  // The core names the field as files and the command line spell it ("work.m: expected …"); here
  // the field's own label is just above the line, so the line says only what was expected.
  const prefix = `${field}: `;
  const said = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  line.textContent = said.charAt(0).toUpperCase() + said.slice(1);
  line.hidden = false;
  for (const control of wrapper.querySelectorAll("input, select, textarea")) control.setAttribute("aria-invalid", "true");
  return true;
}

const ITEM_NAME = /\b(A[1-8]|Part [BC])\b/g;

/** The anchor of a drill item as a line names it ("A3" → "#a3", "Part B" → "#part-b"). */
export function itemAnchor(name) {
  return `#${name.toLowerCase().replace(" ", "-")}`;
}

/** Text from the core as nodes, each drill item it names ("A3", "Part B") a link to that item. */
export function withItemLinks(text) {
  const nodes = [];
  let last = 0;
  for (const match of String(text).matchAll(ITEM_NAME)) {
    nodes.push(text.slice(last, match.index), h("a", { href: itemAnchor(match[0]) }, match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(String(text).slice(last));
  return nodes.filter((node) => node !== "");
}

/**
 * A keydown handler for an attempt form: Enter in a one-line field, or Ctrl+Enter (⌘+Enter) anywhere,
 * runs ``check`` (the lines checked, the answer left closed) instead of submitting the form, so a stray
 * Enter mid-word spoils nothing. Buttons keep their own Enter; a textarea's Enter is a new line.
 */
export function enterChecks(check) {
  return (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    const oneLine = (event.target instanceof HTMLInputElement
      && !["submit", "button", "reset"].includes(event.target.type)) || event.target instanceof HTMLSelectElement;
    if (!oneLine && !event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    check();
  };
}

/** Clear the error of the field that holds control (once its value changes, the error is stale). */
export function clearFieldError(control) {
  const wrapper = control && control.closest ? control.closest("[data-field]") : null;
  if (!wrapper) return;
  const line = wrapper.querySelector(".regime-field__error");
  if (line && !line.hidden) {
    line.textContent = "";
    line.hidden = true;
  }
  for (const each of wrapper.querySelectorAll("[aria-invalid]")) each.removeAttribute("aria-invalid");
}

/** Clear every field error under root. */
export function clearErrors(root) {
  for (const line of root.querySelectorAll(".regime-field__error")) {
    line.textContent = "";
    line.hidden = true;
  }
  for (const control of root.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
}

/** Decode an answer payload (base64 of UTF-8 HTML built at build time by the site, never by a learner). */
export function decodePayload(payload) {
  const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Parse SVG markup made by regime_core (labels escaped there) into a node; null if it is not SVG. */
export function svgNode(markup) {
  if (typeof markup !== "string" || !markup) return null;
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length) return null;
  for (const script of root.querySelectorAll("script, foreignObject")) script.remove();
  return document.importNode(root, true);
}

/** Render a verdict from regime_core as elements. */
export function verdictNodes(v) {
  // The core writes the lines and their labels (Verdict.lines); this only lays them out.
  return v.lines.map((line) =>
    line.items
      ? h("div", {}, h("p", {}, h("strong", {}, `${line.label}:`)), h("ul", {}, line.items.map((item) => h("li", {}, item))))
      : h("p", {}, h("strong", {}, `${line.label}: `), line.text),
  );
}

/** Save text as a file the browser downloads (made here, from what the page holds; nothing is sent). */
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Make `element` a drop area for files: `receive(files)` gets the dropped files (an array); while files are
 * dragged over it, it carries `regime-trace--over` (the highlight the trace and Mentor pages share). Returns a
 * teardown.
 */
export function dropZone(element, receive) {
  const over = (event) => {
    event.preventDefault();
    element.classList.add("regime-trace--over");
  };
  const left = () => element.classList.remove("regime-trace--over");
  const dropped = (event) => {
    event.preventDefault();
    left();
    receive([...(event.dataTransfer ? event.dataTransfer.files : [])]);
  };
  const offs = [on(element, "dragover", over), on(element, "dragleave", left), on(element, "drop", dropped)];
  return () => offs.forEach((off) => off());
}

/**
 * A table of the core's text: `head` over `rows`, each row's first cell its header; in a frame that scrolls
 * sideways (`regime-scroll-table`, with `className` for the widget's own rules) and that a keyboard can reach.
 * On a phone each cell carries its column's name (`data-label`).
 */
export function scrollTable(className, label, head, rows) {
  return h("div", { class: `regime-scroll-table ${className}`, tabindex: "0", role: "region", "aria-label": label },
    h("table", {}, h("thead", {}, h("tr", {}, head.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, rows.map((row) => h("tr", {}, row.map((text, at) => (at === 0
        ? h("th", { scope: "row" }, text) : h("td", { "data-label": head[at] }, text))))))));
}
