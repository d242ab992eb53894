// "Copy link" and "Copy as review comment" for one permalink (data-anchor, data-title).
import { on } from "./dom.js";

function permalink(anchor) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = anchor;
  return url.href;
}

function reviewComment(anchor, title) {
  const name = /^a\d$/.test(anchor) ? `${anchor.toUpperCase()} — ${title}` : title;
  return `This looks like [Regime drill ${name}](${permalink(anchor)}): read the regime before writing the kernel.`;
}

async function copy(text, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `Copied: ${text}`;
  } catch {
    status.textContent = `Copy this: ${text}`;
  }
}

export function mount(element) {
  const { anchor, title } = element.dataset;
  const status = element.querySelector(".regime-links__status");
  const offs = [
    on(element.querySelector('[data-action="copy-link"]'), "click", () => copy(permalink(anchor), status)),
    on(element.querySelector('[data-action="copy-review"]'), "click", () => copy(reviewComment(anchor, title), status)),
  ];
  return () => offs.forEach((off) => off());
}
