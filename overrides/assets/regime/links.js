// "Copy link" and "Copy as review comment" for one permalink (data-anchor, data-title). The comment's
// text is the core's, written at build time (data-review, base64, with {url} for the address); it links
// to data-case (an incident's casebook page) where there is one, else to this permalink.
import { decodePayload, on } from "./dom.js";
import { store } from "./store.js";

function permalink(anchor) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = anchor;
  return url.href;
}

/**
 * Copy ``text``, saying so in ``status``. ``shown`` is what the status may show of it: the text itself for a
 * link, a short name for a review comment, whose verdict must not appear before the learner has tried.
 * Where the clipboard is refused, ``fallback`` says where the text can be had instead.
 */
export async function copy(text, status, shown = text, fallback = `Copy this: ${text}`) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `Copied: ${shown}`;
  } catch {
    status.textContent = fallback;
  }
}

export function mount(element) {
  const { anchor, review, case: casePath } = element.dataset;
  const status = element.querySelector(".regime-links__status");
  const link = () => (casePath ? new URL(casePath, document.baseURI).href : permalink(anchor));
  const offs = [on(element.querySelector('[data-action="copy-link"]'), "click", () => copy(permalink(anchor), status))];
  const reviewButton = element.querySelector('[data-action="copy-review"]');
  const shown = element.querySelector(".regime-links__comment");
  if (shown && review) {
    // Where the verdict is already on the page (a casebook page), the comment is shown as the Markdown it is.
    shown.querySelector("code").textContent = decodePayload(review).replace("{url}", link());
    shown.hidden = false;
  }
  if (reviewButton && review) {
    // The comment holds the verdict: until the learner has opened this item's answer, the question is copied
    // instead (the incident and its link); either is only named here, so nothing of the answer shows early.
    const label = element.dataset.label
      || (anchor.startsWith("part-") ? `Part ${anchor.slice(5).toUpperCase()}` : anchor.toUpperCase());
    const { question } = element.dataset;
    offs.push(on(reviewButton, "click", () => {
      const open = !question || Boolean(store.get(anchor)?.unlocked);
      const text = decodePayload(open ? review : question).replace("{url}", link());
      const name = open ? `the review comment for ${label}`
        : `the question for ${label} and its link; the comment with the answer opens once you submit yours`;
      return copy(text, status, name, `The browser refused the clipboard; the comment is on ${link()}`);
    }));
  }
  return () => offs.forEach((off) => off());
}
