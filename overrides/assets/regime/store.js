// Attempts, unlocked answers and drafts, kept in localStorage under one namespaced key with a
// schema version. Storage that throws, is full, or holds bad JSON never breaks the page:
// progress then lives in memory, and `problem` says so in one line.
//
// Several tabs share the key. Every change is a read-modify-write of the one item it changes (the
// stored text is read again, that item changed, the rest written back as it was, entries this
// version cannot read included), and the `storage` event brings another tab's changes in, emitted
// as a remote "change", so each tab shows the other's work.
//
// What a Start over or an import removed is kept in the same document (``undo``, one record per action:
// "reset:a3", "reset-all", "import"), so its Undo outlives a reload and is seen by every tab. Undo puts
// back only what is still missing: it never writes over anything saved since.
const KEY = "regime-drill";
const SCHEMA = 1;
const ID = /^[a-z0-9-]{1,20}$/;
const BLOCKED = "This browser blocks storage: your attempts last until you close the tab.";
const CANT_SAVE = "Progress can't be saved in this browser (storage full or blocked); it lasts until you close the tab.";

const UNDO_KEY = /^(reset:[a-z0-9-]{1,20}|reset-all|import)$/;
const NEWER = "This progress was saved by a newer version of the site: it is shown here and left untouched."
  + " Reload the page to get that version; what you change before then lasts until you close the tab.";

function empty() {
  return { schema: SCHEMA, items: {}, drafts: {} };
}

function isObject(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

/** True when any text in an attempt says something: a file of empty objects answers nothing. */
export function hasContent(value) {
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number" || value === true) return true;
  if (value && typeof value === "object") return Object.values(value).some(hasContent);
  return false;
}

function validItems(items) {
  const out = {};
  if (!isObject(items)) return out;
  for (const [id, entry] of Object.entries(items)) {
    if (ID.test(id) && isObject(entry) && isObject(entry.attempt)) {
      out[id] = { attempt: entry.attempt, unlocked: entry.unlocked === true && hasContent(entry.attempt), at: String(entry.at || "") };
    }
  }
  return out;
}

/** Stored entries this version cannot even take apart (a bad id, an entry that is not an object). */
function unreadableIds(items) {
  return isObject(items) ? Object.keys(items).filter((id) => !validItems({ [id]: items[id] })[id]).map((id) => id.slice(0, 30)) : [];
}

function validDrafts(drafts) {
  const out = {};
  if (!isObject(drafts)) return out;
  for (const [id, entry] of Object.entries(drafts)) {
    if (ID.test(id) && isObject(entry) && isObject(entry.attempt)) out[id] = { attempt: entry.attempt, at: String(entry.at || "") };
  }
  return out;
}

function validUndo(undo) {
  const out = {};
  if (!isObject(undo)) return out;
  for (const [key, record] of Object.entries(undo)) {
    if (!UNDO_KEY.test(key) || !isObject(record) || !isObject(record.removed)) continue;
    out[key] = {
      removed: { items: isObject(record.removed.items) ? record.removed.items : {},
        drafts: isObject(record.removed.drafts) ? record.removed.drafts : {} },
      imported: Array.isArray(record.imported) ? record.imported.filter((id) => typeof id === "string") : [],
      at: String(record.at || ""),
    };
  }
  return out;
}

class DrillStore extends EventTarget {
  constructor() {
    super();
    this.problem = "";
    this.version = 0; // bumped on every change, so derived results know when they are stale
    // The whole document while storage is refused, full, or holds text that could not be copied aside
    // (which is then never overwritten).
    this.memory = null;
    this.state = this.view(this.read(true));
    window.addEventListener("storage", (event) => this.follow(event));
  }

  /** Another tab changed the key: take the stored document as it is and emit each item that changed. */
  follow(event) {
    if (this.memory || event.storageArea !== this.storage() || (event.key !== KEY && event.key !== null)) return;
    const before = this.state.items;
    const unreadable = String(this.unreadable);
    this.state = this.view(this.read(false));
    const ids = new Set([...Object.keys(before), ...Object.keys(this.state.items)]);
    const changed = [...ids].filter((id) => JSON.stringify(before[id]) !== JSON.stringify(this.state.items[id]));
    if (unreadable !== String(this.unreadable)) changed.push("*");
    for (const id of changed) this.emit(id, true);
  }

  storage() {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  }

  /** The stored document as it is now (parsed, not validated: entries this version cannot read stay). */
  read(first) {
    if (this.memory) return this.memory;
    const storage = this.storage();
    let raw = null;
    try {
      if (!storage) throw new Error("no storage");
      raw = storage.getItem(KEY);
    } catch {
      this.problem = BLOCKED;
      this.memory = empty();
      return this.memory;
    }
    if (raw === null) return empty();
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = null;
    }
    if (!isObject(parsed)) {
      if (this.keepCopy(storage, `${KEY}:unreadable`, raw)) {
        if (first) this.problem = "Saved progress could not be read; a copy was kept and the drill starts fresh.";
        return empty();
      }
      this.problem = "Saved progress could not be read and no copy of it could be kept, so it is left as it was; new attempts last until you close the tab.";
      this.memory = empty();
      return this.memory;
    }
    if (typeof parsed.schema === "number" && parsed.schema > SCHEMA) {
      // A newer version's layout: shown as far as it fits, never written (the newer page reads it whole).
      this.problem = NEWER;
      this.memory = { schema: SCHEMA, items: validItems(parsed.items), drafts: validDrafts(parsed.drafts) };
      return this.memory;
    }
    if (parsed.schema !== SCHEMA) {
      // An older layout (or one without a number): keep the original aside, carry over what still fits.
      if (!this.keepCopy(storage, `${KEY}:schema-${String(parsed.schema).slice(0, 10)}`, raw)) {
          this.problem = "Progress saved by another version could not be copied aside, so it is left as it was; new attempts last until you close the tab.";
        this.memory = { schema: SCHEMA, items: validItems(parsed.items), drafts: {} };
        return this.memory;
      }
      return { schema: SCHEMA, items: isObject(parsed.items) ? parsed.items : {}, drafts: {} };
    }
    return { ...parsed, items: isObject(parsed.items) ? parsed.items : {}, drafts: isObject(parsed.drafts) ? parsed.drafts : {} };
  }

  view(doc) {
    this.unreadable = unreadableIds(doc.items);
    return { schema: SCHEMA, items: validItems(doc.items), drafts: validDrafts(doc.drafts), undo: validUndo(doc.undo) };
  }

  /** True when the copy is there (made now or before). */
  keepCopy(storage, key, raw) {
    try {
      if (storage.getItem(key) === null) storage.setItem(key, raw);
      return storage.getItem(key) !== null;
    } catch {
      return false;
    }
  }

  /** Read what is stored now, let `change` alter it (items, drafts, undo records), write it back, and show it. */
  update(change) {
    const doc = this.read(false);
    const items = { ...doc.items };
    const drafts = { ...doc.drafts };
    const undo = validUndo(doc.undo);
    change(items, drafts, undo);
    const next = { ...doc, schema: SCHEMA, items, drafts, undo };
    if (!Object.keys(undo).length) delete next.undo; // a document without undo reads as it was before
    if (this.memory) {
      this.memory = next;
    } else {
      try {
        this.storage().setItem(KEY, JSON.stringify(next));
        if (this.problem === CANT_SAVE) this.problem = "";
      } catch {
        this.problem = CANT_SAVE;
        this.memory = next; // from now on this tab keeps its own copy in memory
      }
    }
    this.state = this.view(next);
  }

  get(item) {
    return this.state.items[item] || null;
  }

  draft(item) {
    return this.state.drafts[item] || null;
  }

  /** Keep what is typed, submitted or not (restored on reload); no change event, nothing to redraw. */
  saveDraft(item, attempt) {
    this.update((items, drafts) => {
      if (hasContent(attempt)) drafts[item] = { attempt, at: new Date().toISOString() };
      else delete drafts[item];
    });
  }

  submit(item, attempt) {
    this.update((items, drafts, undo) => {
      items[item] = { attempt, unlocked: true, at: new Date().toISOString() };
      delete drafts[item];
      delete undo[`reset:${item}`]; // a new attempt: the cleared one cannot come back over it
    });
    this.emit(item);
  }

  /** Clear one item; returns what was removed (its raw entry and draft). Undo with undo(`reset:${item}`). */
  reset(item) {
    const removed = { items: {}, drafts: {} };
    this.update((items, drafts, undo) => {
      if (item in items) removed.items[item] = items[item];
      if (item in drafts) removed.drafts[item] = drafts[item];
      delete items[item];
      delete drafts[item];
      if (Object.keys(removed.items).length || Object.keys(removed.drafts).length) {
        undo[`reset:${item}`] = { removed, at: new Date().toISOString() };
      }
    });
    this.emit(item);
    return removed;
  }

  /** The undo record of an action ("reset:a3", "reset-all", "import") as stored now, or null. */
  pendingUndo(key) {
    return this.state.undo[key] || null;
  }

  /** Forget an undo record (the learner has moved on); no change event. */
  dropUndo(key) {
    if (!this.pendingUndo(key)) return;
    this.update((items, drafts, undo) => {
      delete undo[key];
    });
  }

  /** Take back the action ``key`` names, as stored now (from this tab or another, before a reload or
   * after); returns the ids put back, or null when there is nothing to undo. */
  undo(key) {
    const record = validUndo(this.read(false).undo)[key];
    if (!record) return null;
    this.update((items, drafts, undo) => {
      delete undo[key];
      if (key === "import") {
        for (const id of record.imported) if (items[id] && items[id].at === record.at) delete items[id];
      }
    });
    return this.restore(record.removed);
  }

  /**
   * Replace every item with imported attempts, each unlocked. Undo with undo("import"): each imported item
   * not changed since goes, then what the import replaced comes back.
   */
  replaceAll(attempts) {
    const at = new Date().toISOString();
    this.update((items, drafts, undo) => {
      const removed = { items: { ...items }, drafts: { ...drafts } };
      for (const id of Object.keys(items)) delete items[id];
      for (const id of Object.keys(drafts)) delete drafts[id];
      for (const [item, attempt] of Object.entries(attempts)) items[item] = { attempt, unlocked: true, at };
      for (const key of Object.keys(undo)) delete undo[key]; // what they would put back is replaced too
      undo.import = { removed, imported: Object.keys(attempts), at };
    });
    this.emit("*");
  }

  /** Clear every item as stored now; returns exactly what was removed (the raw entries). Undo with
   * undo("reset-all"). */
  resetAll() {
    let removed = {};
    this.update((items, drafts, undo) => {
      removed = { items: { ...items }, drafts: { ...drafts } };
      for (const id of Object.keys(items)) delete items[id];
      for (const id of Object.keys(drafts)) delete drafts[id];
      for (const key of Object.keys(undo)) delete undo[key];
      undo["reset-all"] = { removed, at: new Date().toISOString() };
    });
    this.emit("*");
    return removed;
  }

  /** Put back what was removed, where nothing has been saved since (another tab's later work stays). */
  restore(removed) {
    const back = [];
    this.update((items, drafts) => {
      for (const [id, entry] of Object.entries(removed.items || {})) {
        if (!(id in items)) {
          items[id] = entry;
          back.push(id);
        }
      }
      for (const [id, entry] of Object.entries(removed.drafts || {})) {
        if (!(id in drafts) && (!(id in items) || back.includes(id))) drafts[id] = entry;
      }
    });
    this.emit("*");
    return back;
  }

  emit(item, remote = false) {
    this.version += 1;
    this.dispatchEvent(new CustomEvent("change", { detail: { item, remote } }));
  }
}

export const store = new DrillStore();
