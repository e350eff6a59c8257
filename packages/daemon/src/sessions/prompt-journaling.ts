// The prompt journal's part in a session's life (prompts/): a client's prompt is journaled (fsynced) before the
// 202, closed when the agent has answered it (its turn ran) or when it was refused after journaling, and a load
// from disk closes what a crash left open by the agent's ledger, reporting the never-started ones as
// promptTerminals. The journal is compacted as it goes, so it holds what is open plus a bounded report tail.
import type { LedgerEntry } from "@qwen-daemon/core";
import { promptNotSaved, sessionOwnedElsewhere } from "../errors/domain-errors.js";
import type { Clock } from "../events/clock.js";
import type { SessionStore } from "../persisted/session-store.js";
import {
  closingsAtLoad,
  compactedPromptJournal,
  neverStartedTerminals,
  openPrompts,
  startedPromptIds,
} from "../prompts/prompt-fates.js";
import type { PromptJournal } from "../prompts/prompt-journal.js";
import type { PromptJournalEntry } from "../prompts/prompt-record.js";
import { fencedOwner } from "./fenced-write.js";

/** Closed prompts are compacted away once this many have been settled on a live session. */
export const COMPACT_AFTER_SETTLED = 32;

/** What the journaling needs from the daemon: the journal, the clock and the log. */
export type JournalingDeps = { promptJournal: PromptJournal; clock: Clock; log: (line: string) => void };

const iso = (deps: JournalingDeps) => new Date(deps.clock.now()).toISOString();

/** One live session's prompts in the journal: accepted, then settled or withdrawn, compacted as it goes. */
export class SessionPromptJournal {
  readonly #deps: JournalingDeps;
  readonly #sessionId: string;
  readonly #cwd: string;
  /** Prompts closed as settled since the journal was last compacted. */
  #settledSinceCompaction = 0;

  constructor(deps: JournalingDeps, sessionId: string, cwd: string) {
    this.#deps = deps;
    this.#sessionId = sessionId;
    this.#cwd = cwd;
  }

  /** Journals an accepted prompt, durably; throws 500 `prompt_journal_failed` when it cannot (nothing queued). */
  async accepted(prompt: {
    promptId: string;
    text: string;
    originatorClientId: string | undefined;
  }): Promise<void> {
    const entry: PromptJournalEntry = {
      v: 1,
      type: "accepted",
      sessionId: this.#sessionId,
      promptId: prompt.promptId,
      text: prompt.text,
      queuedAt: iso(this.#deps),
      ...(prompt.originatorClientId !== undefined ? { originatorClientId: prompt.originatorClientId } : {}),
    };
    try {
      await this.#deps.promptJournal.append(this.#cwd, entry, { durable: true });
    } catch (error) {
      this.#deps.log(
        `qwen serve: prompt ${prompt.promptId} on ${this.#sessionId} refused: journal write failed: ${String(error)}`,
      );
      const owner = fencedOwner(error);
      if (owner !== undefined) throw sessionOwnedElsewhere(this.#sessionId, owner);
      throw promptNotSaved(this.#sessionId, (error as NodeJS.ErrnoException | undefined)?.code);
    }
  }

  /**
   * Closes a journaled prompt: `settled` once the agent answered it, `withdrawn` when it was refused after being
   * journaled. Never throws: an unclosed prompt costs at most a report on a later load (logged here).
   */
  async closed(promptId: string, type: "settled" | "withdrawn"): Promise<void> {
    const { promptJournal, log } = this.#deps;
    const entry: PromptJournalEntry = {
      v: 1,
      type,
      sessionId: this.#sessionId,
      promptId,
      at: iso(this.#deps),
    };
    try {
      await promptJournal.append(this.#cwd, entry);
      if (type !== "settled") return;
      this.#settledSinceCompaction += 1;
      if (this.#settledSinceCompaction < COMPACT_AFTER_SETTLED) return;
      this.#settledSinceCompaction = 0;
      await promptJournal.rewrite(this.#cwd, this.#sessionId, compactedPromptJournal);
    } catch (error) {
      log(
        `qwen serve: prompt journal of ${this.#sessionId}: recording ${type} ${promptId} failed: ${String(error)}`,
      );
    }
  }
}

/**
 * On a load from disk (the session is not live here, so nothing of it is queued): closes the prompts a crash
 * left open (startedPromptIds tells which the agent started; `neverSaved`: the agent had no record of the
 * session at all, so none), compacts the journal, and returns the never-started ones as terminals. Never
 * throws (logged): a journal that cannot be read costs the client this report, not the load.
 */
export async function closeOpenPromptsAtLoad(
  deps: JournalingDeps & { store: SessionStore },
  cwd: string,
  sessionId: string,
  ledger: readonly LedgerEntry[],
  neverSaved: boolean,
): Promise<ReturnType<typeof neverStartedTerminals>> {
  const { promptJournal, log } = deps;
  try {
    const { entries, corruptLines } = await promptJournal.read(cwd, sessionId);
    if (corruptLines > 0)
      log(`qwen serve: prompt journal of ${sessionId}: ${corruptLines} corrupt line(s) skipped`);
    if (openPrompts(entries).length === 0) return neverStartedTerminals(entries);
    // Read whole only now, after a crash: an open prompt's user message may be far back in a long turn.
    const started = neverSaved
      ? new Set<string>()
      : startedPromptIds({ records: await deps.store.readRecords(cwd, sessionId), ledger });
    const closings = closingsAtLoad(entries, started, iso(deps));
    for (const closing of closings) await promptJournal.append(cwd, closing);
    const all = [...entries, ...closings];
    if (closings.length > 0) await promptJournal.rewrite(cwd, sessionId, compactedPromptJournal);
    return neverStartedTerminals(all);
  } catch (error) {
    log(`qwen serve: prompt journal of ${sessionId} could not be read on load: ${String(error)}`);
    return [];
  }
}

/** The never-started prompts a live session's journal already reports (a load attaching to it). */
export async function reportedNeverStarted(
  deps: JournalingDeps,
  cwd: string,
  sessionId: string,
): Promise<ReturnType<typeof neverStartedTerminals>> {
  try {
    return neverStartedTerminals((await deps.promptJournal.read(cwd, sessionId)).entries);
  } catch (error) {
    deps.log(`qwen serve: prompt journal of ${sessionId} could not be read: ${String(error)}`);
    return [];
  }
}
