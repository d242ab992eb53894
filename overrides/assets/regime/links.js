// "Copy link" and "Copy as review comment" for one permalink (data-anchor, data-title). The comment's
// text is the core's, written at build time (data-review, base64, with {url} for the address); it links
// to data-case (an incident's casebook page) where there is one, else to this permalink.
import { decodePayload, on } from "./dom.js";

function permalink(anchor) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = anchor;
  return url.href;
}

/** Copy ``text``, saying so in ``status``; where the clipboard is refused, the text is shown to copy by hand. */
export async function copy(text, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `Copied: ${text}`;
  } catch {
    status.textContent = `Copy this: ${text}`;
  }
}

export function mount(element) {
  const { anchor, review, case: casePath } = element.dataset;
  const status = element.querySelector(".regime-links__status");
  const link = () => (casePath ? new URL(casePath, document.baseURI).href : permalink(anchor));
  const offs = [on(element.querySelector('[data-action="copy-link"]'), "click", () => copy(permalink(anchor), status))];
  const reviewButton = element.querySelector('[data-action="copy-review"]');
  if (reviewButton && review) {
    offs.push(on(reviewButton, "click", () => copy(decodePayload(review).replace("{url}", link()), status)));
  }
  return () => offs.forEach((off) => off());
}
