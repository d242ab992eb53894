// The stretch: any kernel on any card. regime_core places it and classifies it.
import { clearErrors, fillForm, h, on, readForm, showError, svgNode, verdictNodes } from "./dom.js";
import { bindStatus, python } from "./runtime.js";

export function mount(element) {
  const form = element.querySelector("form");
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
      ...(picture ? [picture] : []),
    );
  };

  const defaults = readForm(form);
  const linkLine = element.querySelector(".regime-stretch__link");

  // The whole input lives in the page's URL: ?gpu=…&work.kernel=…#stretch. Only names the form
  // has are read; values go into inputs as text, and the core checks them like anything typed.
  const shareUrl = () => {
    const url = new URL(window.location.href);
    url.search = "";
    for (const control of form.elements) {
      if (!control.name || control.disabled) continue;
      const value = control.type === "checkbox" ? (control.checked ? "true" : "") : control.value.trim();
      if (value) url.searchParams.set(control.name, value);
    }
    url.hash = "stretch";
    return url.href;
  };
  const applyLink = () => {
    const params = new URL(window.location.href).searchParams;
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

  const classify = async (event, fromLink = false) => {
    if (event) event.preventDefault();
    clearErrors(form);
    syncFields();
    const values = readForm(form);
    let answer;
    try {
      answer = await python.call("kernel", values);
    } catch {
      return; // the status line says why
    }
    if (!answer.ok && fromLink) {
      fillForm(form, defaults);
      syncFields();
      linkLine.textContent = `This link's settings could not be used (${answer.error}); showing the defaults.`;
      return;
    }
    if (!answer.ok) {
      if (!showError(form, answer.field, answer.error)) result.replaceChildren(h("p", {}, answer.error));
      return;
    }
    if (answer.placement && form.elements.gpu.value !== "custom") {
      form.elements.peak_flops.value = answer.placement.peak_text;
      form.elements.bandwidth.value = answer.placement.bandwidth_text;
    }
    render(answer);
    if (!fromLink) result.focus();
  };

  const copyLink = async () => {
    const url = shareUrl();
    try {
      await navigator.clipboard.writeText(url);
      linkLine.textContent = `Copied: ${url}`;
    } catch {
      linkLine.textContent = `Copy this link: ${url}`;
    }
  };

  const fromLink = applyLink();
  syncFields();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", (event) => classify(event)),
    on(element.querySelector('[data-action="copy-stretch-link"]'), "click", copyLink),
    on(form, "change", syncFields),
    on(form, "input", (event) => {
      if (event.target.name === "peak_flops" || event.target.name === "bandwidth") form.elements.gpu.value = "custom";
      syncFields();
    }),
    on(form, "focusin", () => python.startSoon()),
  ];
  if (fromLink) classify(null, true);
  return () => offs.forEach((off) => off());
}
