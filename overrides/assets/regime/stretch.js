// The stretch: any kernel on any card. regime_core places it and classifies it.
import { clearErrors, h, on, readForm, showError } from "./dom.js";
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
    const p = answer.placement;
    const v = answer.verdict;
    const lines = [
      h("p", {}, h("strong", {}, "Regime: "), v.regime_name),
      h("p", {}, `${p.kernel} on ${p.hardware}: intensity ${p.intensity_text}, ridge ${p.ridge_text}, `
        + `${p.factor_text} ${p.side} the ridge; floor ${p.floor_text}.`),
      h("ul", {}, v.evidence.map((line) => h("li", {}, line))),
    ];
    if (v.regime) lines.push(h("p", {}, h("strong", {}, "Lever that helps: "), v.lever));
    for (const anomaly of v.anomalies) lines.push(h("p", {}, h("strong", {}, "Anomaly: "), anomaly));
    if (v.needs) lines.push(h("p", {}, h("strong", {}, "To decide: "), v.needs));
    result.replaceChildren(...lines);
  };

  const classify = async (event) => {
    event.preventDefault();
    clearErrors(form);
    const values = readForm(form);
    let answer;
    try {
      answer = await python.call("kernel", values);
    } catch {
      return; // the status line says why
    }
    if (!answer.ok) {
      if (!showError(form, answer.field, answer.error)) result.replaceChildren(h("p", {}, answer.error));
      return;
    }
    if (form.elements.gpu.value !== "custom") {
      form.elements.peak_flops.value = answer.placement.peak_text;
      form.elements.bandwidth.value = answer.placement.bandwidth_text;
    }
    render(answer);
    result.focus();
  };

  syncFields();
  const offs = [
    bindStatus(element.querySelector(".regime-status")),
    on(form, "submit", classify),
    on(form, "change", syncFields),
    on(form, "input", (event) => {
      if (event.target.name === "peak_flops" || event.target.name === "bandwidth") form.elements.gpu.value = "custom";
      syncFields();
    }),
    on(form, "focusin", () => python.startWhenIdle()),
  ];
  return () => offs.forEach((off) => off());
}
