// The grade of the saved attempts, computed once per change of the store and shared by every
// widget that shows it (the acceptance panel, each item's feedback).
import { python } from "./runtime.js";
import { store } from "./store.js";

let cached = { version: -1, promise: null };

export function gradeSaved() {
  if (cached.version !== store.version) {
    const items = Object.fromEntries(Object.entries(store.state.items).map(([id, entry]) => [id, entry.attempt]));
    // Items the store could not take apart are named, so the criteria say "kept", not "not attempted".
    cached = { version: store.version, promise: python.call("grade", { items, kept: store.unreadable }) };
  }
  return cached.promise;
}
