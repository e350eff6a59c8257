// The prompt ledger (<sessionId>.ledger.jsonl): each daemon prompt gets `in_flight` when it starts and one
// terminal entry when it ends. A prompt whose last entry is still `in_flight` was cut off by a crash; on
// restart it is closed as `interrupted` (code "daemon_lost", or with `restoredBy` when a restore prompt took
// over), so no prompt stays in flight forever (docs/restore.md "The guarantees").
import {
  type SessionLocation,
  type SessionLog,
  SessionLogNotFoundError,
} from "../storage/session-storage.js";
import { LedgerEntry } from "./records.js";

export type LedgerState = LedgerEntry["state"];
export type LedgerTerminalState = Exclude<LedgerState, "in_flight">;
export type LedgerEntryDetails = Pick<LedgerEntry, "code" | "restoredBy" | "stopReason" | "message">;

export const DAEMON_LOST = "daemon_lost";

export interface PromptLedgerOptions {
  now?: () => Date;
}

export class PromptLedger {
  private readonly log: SessionLog<LedgerEntry>;
  private readonly now: () => Date;

  constructor(log: SessionLog<LedgerEntry>, options: PromptLedgerOptions = {}) {
    this.log = log;
    this.now = options.now ?? (() => new Date());
  }

  /** The ledger of a session, in its storage (the session id is validated first). */
  static forSession(location: SessionLocation, options: PromptLedgerOptions = {}): PromptLedger {
    return new PromptLedger(location.storage.log(location, "ledger", decodeLedgerEntry), options);
  }

  /** Where the ledger is stored (a file path for JSONL storage). */
  get path(): string {
    return this.log.where;
  }

  /** Records that a prompt started; durable, so a crash during the prompt is detectable afterwards. */
  begin(promptId: string): Promise<LedgerEntry> {
    return this.write({ promptId, state: "in_flight", timestamp: this.now().toISOString() });
  }

  /** Records a prompt's terminal state; durable, so a finished prompt is never reported as interrupted. */
  finish(
    promptId: string,
    state: LedgerTerminalState,
    details: LedgerEntryDetails = {},
  ): Promise<LedgerEntry> {
    return this.write({ promptId, state, timestamp: this.now().toISOString(), ...definedOnly(details) });
  }

  /** Every valid entry in file order; no ledger file means no entries. Torn and corrupt lines are skipped. */
  async read(): Promise<LedgerEntry[]> {
    try {
      return (await this.log.read()).items;
    } catch (error) {
      if (error instanceof SessionLogNotFoundError) return [];
      throw error;
    }
  }

  /** Prompt ids whose last entry is `in_flight`, in the order they began. */
  async openPrompts(): Promise<string[]> {
    return openPromptIds(await this.read());
  }

  /**
   * Writes `interrupted` for every open prompt. With `restoredBy` (the restore prompt that took over) that
   * prompt itself is left alone: it is the one now running. Not atomic with concurrent `begin` calls: run it
   * before the session accepts prompts.
   */
  async closeInterrupted(code: string = DAEMON_LOST, restoredBy?: string): Promise<LedgerEntry[]> {
    const open = (await this.openPrompts()).filter((id) => id !== restoredBy);
    const written: LedgerEntry[] = [];
    for (const promptId of open) {
      written.push(await this.finish(promptId, "interrupted", { code, restoredBy }));
    }
    return written;
  }

  close(): Promise<void> {
    return this.log.close();
  }

  private async write(entry: LedgerEntry): Promise<LedgerEntry> {
    const checked = LedgerEntry.safeParse(entry);
    if (!checked.success || entry.promptId === "") {
      throw new Error("Invalid prompt ledger entry", { cause: checked.error });
    }
    await this.log.append(entry, { durable: true });
    return entry;
  }
}

/** Pure: the prompt ids whose last state in `entries` is `in_flight`, in order of first appearance. */
export function openPromptIds(entries: readonly LedgerEntry[]): string[] {
  const last = new Map<string, LedgerState>();
  for (const entry of entries) last.set(entry.promptId, entry.state);
  return [...last].filter(([, state]) => state === "in_flight").map(([id]) => id);
}

export function decodeLedgerEntry(value: unknown): LedgerEntry | undefined {
  return LedgerEntry.safeParse(value).success ? (value as LedgerEntry) : undefined;
}

function definedOnly(details: LedgerEntryDetails): LedgerEntryDetails {
  return Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
}
