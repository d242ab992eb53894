// Attempts and unlocked answers, kept in localStorage under one namespaced key with a
// schema version. Storage that throws, is full, or holds bad JSON never breaks the page:
// progress then lives in memory, and `problem` says so in one line.
const KEY = "regime-drill";
const SCHEMA = 1;

function empty() {
  return { schema: SCHEMA, items: {} };
}

function validItems(items) {
  const out = {};
  if (!items || typeof items !== "object") return out;
  for (const [id, entry] of Object.entries(items)) {
    if (/^[a-z0-9-]{1,20}$/.test(id) && entry && typeof entry === "object" && entry.attempt
        && typeof entry.attempt === "object") {
      out[id] = { attempt: entry.attempt, unlocked: entry.unlocked === true, at: String(entry.at || "") };
    }
  }
  return out;
}

class DrillStore extends EventTarget {
  constructor() {
    super();
    this.problem = "";
    this.version = 0; // bumped on every change, so derived results know when they are stale
    this.state = this.load();
  }

  storage() {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  }

  load() {
    const storage = this.storage();
    if (!storage) {
      this.problem = "This browser blocks storage: your attempts last until you close the tab.";
      return empty();
    }
    let raw = null;
    try {
      raw = storage.getItem(KEY);
    } catch {
      this.problem = "This browser blocks storage: your attempts last until you close the tab.";
      return empty();
    }
    if (raw === null) return empty();
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch {
      this.keepCopy(storage, `${KEY}:unreadable`, raw);
      this.problem = "Saved progress could not be read; a copy was kept and the drill starts fresh.";
      return empty();
    }
    if (!parsed || typeof parsed !== "object") return empty();
    if (parsed.schema !== SCHEMA) {
      // An older (or newer) layout: keep the original aside, carry over what still fits.
      this.keepCopy(storage, `${KEY}:schema-${String(parsed.schema).slice(0, 10)}`, raw);
    }
    return { schema: SCHEMA, items: validItems(parsed.items) };
  }

  keepCopy(storage, key, raw) {
    try {
      if (storage.getItem(key) === null) storage.setItem(key, raw);
    } catch {
      /* a copy is a courtesy; without room for it, go on */
    }
  }

  save() {
    const storage = this.storage();
    try {
      if (!storage) throw new Error("no storage");
      storage.setItem(KEY, JSON.stringify(this.state));
      if (this.problem.startsWith("Progress can't be saved")) this.problem = "";
    } catch {
      this.problem = "Progress can't be saved in this browser (storage full or blocked); it lasts until you close the tab.";
    }
  }

  get(item) {
    return this.state.items[item] || null;
  }

  submit(item, attempt) {
    this.state.items[item] = { attempt, unlocked: true, at: new Date().toISOString() };
    this.save();
    this.emit(item);
  }

  reset(item) {
    delete this.state.items[item];
    this.save();
    this.emit(item);
  }

  /** Replace every item with imported attempts, each unlocked. */
  replaceAll(attempts) {
    const at = new Date().toISOString();
    this.state = empty();
    for (const [item, attempt] of Object.entries(attempts)) this.state.items[item] = { attempt, unlocked: true, at };
    this.save();
    this.emit("*");
  }

  resetAll() {
    this.state = empty();
    this.save();
    this.emit("*");
  }

  emit(item) {
    this.version += 1;
    this.dispatchEvent(new CustomEvent("change", { detail: { item } }));
  }
}

export const store = new DrillStore();
