/* Material's search worker, its index built when the reader first searches rather than on every page
   load (Material builds it lazily only for a site opened from a file). Building the index of the whole
   site was half the CPU of loading the lesson page (0.57 -> 0.28 CPU-s in Chromium; BENCHMARKS.md), for
   readers who never search.

   Material's page sends the index (SETUP) as it loads and sends no query until the worker says READY.
   This worker says READY at once and keeps the index; at the first query that is not blank it loads
   Material's own worker (named by ?worker=, beside this file: Material finds its language files from
   there), hands it the index, and, once it has built it, the query. From then on Material's worker
   answers everything itself. */
"use strict";

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;  /* Material's SearchMessageType */
const material = new URL(new URL(self.location.href).searchParams.get("worker"), self.location.href).href;
let index = null;    /* the SETUP message, until Material's worker has it */
let pending = null;  /* the query that loaded Material's worker, until that worker has built the index */
let loaded = false;

const post = self.postMessage.bind(self);
/* Material's worker calls postMessage: its READY after the index is ours to take (the page had one). */
self.postMessage = (message) => {
  if (pending !== null && message && message.type === READY) {
    const query = pending;
    pending = null;
    self.dispatchEvent(new MessageEvent("message", { data: query }));
    return;
  }
  post(message);
};

self.addEventListener("message", (event) => {
  const message = event.data;
  if (loaded || !message) return;  /* Material's worker answers from now on */
  if (message.type === SETUP) {
    index = message;
    post({ type: READY });
  } else if (message.type === QUERY && !String(message.data).trim()) {
    post({ type: RESULT, data: { items: [] } });  /* nothing typed yet: nothing to find */
  } else if (message.type === QUERY && index !== null) {
    loaded = true;
    pending = message;
    importScripts(material);  /* it listens from now on; a listener added now misses this event */
    const setup = index;
    index = null;
    self.dispatchEvent(new MessageEvent("message", { data: setup }));
  }
});
