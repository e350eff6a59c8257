// What the daemon has noticed about the answer journals it read: damaged lines are skipped so one bad line
// never hides the others, and counted here so the damage shows in `/daemon/status` instead of passing silently.
import type { JournalRead } from "./answer-record.js";

/** Sessions remembered with their damage; past this the oldest is forgotten (the log still has it). */
const MAX_SESSIONS = 100;

export type JournalDamage = { corruptLines: number; tornTail: boolean };

export class JournalHealth {
  // Latest read per session (not summed over reads: a journal is read again at every restore).
  readonly #damaged = new Map<string, JournalDamage>();

  /** Records what a read of `sessionId`'s journal found; returns its damage, or undefined when clean. */
  note(sessionId: string, read: JournalRead): JournalDamage | undefined {
    this.#damaged.delete(sessionId);
    if (read.corruptLines === 0 && !read.tornTail) return undefined;
    const damage = { corruptLines: read.corruptLines, tornTail: read.tornTail };
    this.#damaged.set(sessionId, damage);
    if (this.#damaged.size > MAX_SESSIONS) this.#damaged.delete(this.#damaged.keys().next().value as string);
    return damage;
  }

  /** For `/daemon/status`: total corrupt lines and the sessions whose journals have any (or a torn tail). */
  snapshot(): { corruptLines: number; sessions: Array<{ sessionId: string } & JournalDamage> } {
    let corruptLines = 0;
    const sessions: Array<{ sessionId: string } & JournalDamage> = [];
    for (const [sessionId, damage] of this.#damaged) {
      corruptLines += damage.corruptLines;
      sessions.push({ sessionId, ...damage });
    }
    return { corruptLines, sessions };
  }
}
