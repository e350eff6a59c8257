// Sessions this browser saw waiting for a person, kept in localStorage. After a daemon restart the listing
// knows nothing about a session that is only on disk (until the daemon says `pendingOnDisk`), so the list
// can still say "was waiting for you": the mark holds while nothing was written to the session after we saw
// it waiting, and goes once the session is seen live and not waiting.
import type { KeyValueStorage } from "../net/client-ids.js";
import type { SessionSummary } from "./session-list.js";

const KEY = "qwen-serve.waiting";
const MAX = 100;
/** Clock skew between the daemon's timestamps and ours that still counts as "nothing since". */
const SLACK_MS = 2000;

export class WaitingMemory {
  constructor(
    readonly storage: KeyValueStorage | undefined,
    readonly now: () => number,
  ) {}

  /** Notes what a listing or the open session says: waiting now, or seen live and not waiting. */
  observe(sessionId: string, waiting: boolean): void {
    const all = this.#read();
    if (waiting) {
      delete all[sessionId];
      all[sessionId] = this.now();
    } else if (sessionId in all) {
      delete all[sessionId];
    } else return;
    this.#write(all);
  }

  /** Updates from a listing's live entries (the ones whose state the daemon knows). */
  observeListing(sessions: readonly SessionSummary[]): void {
    for (const s of sessions) {
      if (s.live === true)
        this.observe(s.sessionId, !!(s.isWaitingForUserQuestion || s.isWaitingForPermission));
    }
  }

  /** True for a session on disk only, seen waiting, with nothing written to it after. */
  wasWaiting(s: SessionSummary): boolean {
    if (s.live === true) return false;
    const seenAt = this.#read()[s.sessionId];
    if (seenAt === undefined) return false;
    const updated = s.updatedAt ? Date.parse(s.updatedAt) : Number.NaN;
    return Number.isNaN(updated) || updated <= seenAt + SLACK_MS;
  }

  #read(): Record<string, number> {
    try {
      const parsed = JSON.parse(this.storage?.getItem(KEY) ?? "{}");
      if (!parsed || typeof parsed !== "object") return {};
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "number")) as Record<
        string,
        number
      >;
    } catch {
      return {};
    }
  }

  #write(all: Record<string, number>): void {
    try {
      this.storage?.setItem(KEY, JSON.stringify(Object.fromEntries(Object.entries(all).slice(-MAX))));
    } catch (error) {
      console.warn("qwen web: could not remember a waiting session", error);
    }
  }
}
