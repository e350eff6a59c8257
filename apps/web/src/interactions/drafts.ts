// What the person had typed or picked, kept per session in the tab's storage so it survives a reconnect, a
// restore (matched by the question's key, not its request id) and a page reload: the message box's text
// and each open question's selection.
import type { KeyValueStorage } from "../net/client-ids.js";
import type { Selection } from "./answers.js";

const KEY = "qwen-serve.drafts";
const MAX_SESSIONS = 20;
const MAX_SELECTIONS = 20;

type SessionDrafts = { composer?: string; selections?: Record<string, Selection[]> };

export class Drafts {
  constructor(readonly storage: KeyValueStorage | undefined) {}

  composer(sessionId: string): string {
    return this.#read()[sessionId]?.composer ?? "";
  }

  setComposer(sessionId: string, text: string): void {
    this.#update(sessionId, (d) => {
      if (text === "") delete d.composer;
      else d.composer = text;
    });
  }

  selection(sessionId: string, key: string): Selection[] | undefined {
    const found = this.#read()[sessionId]?.selections?.[key];
    return Array.isArray(found) ? found.map(cleanSelection) : undefined;
  }

  setSelection(sessionId: string, key: string, selections: Selection[]): void {
    this.#update(sessionId, (d) => {
      const all = d.selections ?? {};
      delete all[key];
      all[key] = selections;
      d.selections = Object.fromEntries(Object.entries(all).slice(-MAX_SELECTIONS));
    });
  }

  clearSelection(sessionId: string, key: string): void {
    this.#update(sessionId, (d) => {
      if (d.selections) delete d.selections[key];
    });
  }

  #read(): Record<string, SessionDrafts> {
    try {
      const parsed = JSON.parse(this.storage?.getItem(KEY) ?? "{}");
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
    } catch {
      // A corrupted entry only costs the drafts it held.
      return {};
    }
  }

  #update(sessionId: string, change: (drafts: SessionDrafts) => void): void {
    const all = this.#read();
    const drafts = all[sessionId] ?? {};
    change(drafts);
    delete all[sessionId];
    const empty = !drafts.composer && Object.keys(drafts.selections ?? {}).length === 0;
    if (!empty) all[sessionId] = drafts;
    const kept = Object.fromEntries(Object.entries(all).slice(-MAX_SESSIONS));
    try {
      this.storage?.setItem(KEY, JSON.stringify(kept));
    } catch (error) {
      // Storage full or disabled: the draft still lives in the page, it just will not outlive a reload.
      console.warn("qwen web: could not keep the draft", error);
    }
  }
}

/**
 * What stays in the message box once `sent` (the box's trimmed text when Send was pressed) was taken: the
 * person may have gone on typing while it was on its way (a slow answer on a loaded machine), and only the
 * sent text leaves. Text written after it stays; a box rewritten meanwhile stays as it is.
 */
export function leftAfterSend(box: string, sent: string): string {
  const now = box.trimStart();
  if (!now.startsWith(sent)) return box;
  const rest = now.slice(sent.length);
  return rest.trim() === "" ? "" : rest.replace(/^\s*\n/, "");
}

function cleanSelection(value: unknown): Selection {
  const v = value as Partial<Selection> | null;
  const picked = Array.isArray(v?.picked) ? v.picked.filter((p): p is string => typeof p === "string") : [];
  const out: Selection = { picked };
  if (typeof v?.other === "string") out.other = v.other;
  if (typeof v?.typed === "string") out.typed = v.typed;
  return out;
}
