// Sessions as the agent leaves them in storage, for tests of what the daemon reads back: transcripts written
// through core's SessionTranscript (the agent's own writer) and prompt ledgers through PromptLedger, into a
// SessionStorage in memory, at times the test names. The daemon reads them with its real store
// (coreSessionStore), so a fixture can hold only what the agent could have written: a session is listed
// because its transcript exists, its createdAt and displayName are what the listing derives from it.
import {
  type LedgerEntry,
  type MemorySessionStorage,
  memorySessionStorage,
  type Part,
  PromptLedger,
  SessionTranscript,
} from "@qwen-daemon/core";

/** One transcript record, as the agent's writer takes it (`uuid`: the message id the agent chose). */
export type TranscriptStep =
  | { user: Part[]; uuid?: string; promptId?: string }
  | { model: Part[]; uuid?: string; toolStarts?: "recorded" }
  | { toolResult: Part[] }
  | { system: string; data?: Record<string, unknown> };

export interface StoredTranscript {
  sessionId: string;
  cwd: string;
  steps: readonly TranscriptStep[];
  /** The first record's time; each next record is a second later. Default 2025-01-01T00:00:00Z. */
  createdAt?: string;
  /** When the storage says the transcript was last written. Default: the last record's time. */
  updatedAt?: string;
}

const DEFAULT_CREATED_AT = "2025-01-01T00:00:00.000Z";

/** A memory storage whose writes are stamped with the times the fixtures name (the real time otherwise). */
export class StoredSessions {
  readonly storage: MemorySessionStorage;
  #writingAt: Date | undefined;

  constructor() {
    this.storage = memorySessionStorage({ now: () => this.#writingAt ?? new Date() });
  }

  /** Writes a session's transcript record by record, as the agent does. */
  async transcript({ sessionId, cwd, steps, createdAt, updatedAt }: StoredTranscript): Promise<this> {
    const start = Date.parse(createdAt ?? DEFAULT_CREATED_AT);
    let n = 0;
    const recordTime = () => new Date(start + 1000 * n);
    const transcript = await SessionTranscript.open({
      storage: this.storage,
      cwd,
      sessionId,
      now: recordTime,
    });
    try {
      for (; n < steps.length; n += 1) {
        const last = n === steps.length - 1;
        this.#writingAt = last && updatedAt !== undefined ? new Date(updatedAt) : recordTime();
        await writeStep(transcript, steps[n] as TranscriptStep);
      }
    } finally {
      this.#writingAt = undefined;
      await transcript.close();
    }
    return this;
  }

  /** Writes a session's prompt ledger entry by entry through PromptLedger, as the agent does. */
  async ledger(cwd: string, sessionId: string, entries: readonly LedgerEntry[]): Promise<this> {
    let at = "";
    const ledger = PromptLedger.forSession(
      { storage: this.storage, cwd, sessionId },
      { now: () => new Date(at) },
    );
    try {
      for (const { promptId, state, timestamp, ...details } of entries) {
        at = timestamp;
        if (state === "in_flight") await ledger.begin(promptId);
        else await ledger.finish(promptId, state, details);
      }
    } finally {
      await ledger.close();
    }
    return this;
  }
}

function writeStep(transcript: SessionTranscript, step: TranscriptStep): Promise<unknown> {
  if ("user" in step)
    return transcript.appendUser(
      { role: "user", parts: step.user },
      { uuid: step.uuid, promptId: step.promptId },
    );
  if ("model" in step)
    return transcript.appendAssistant(
      { role: "model", parts: step.model },
      { uuid: step.uuid, toolStarts: step.toolStarts },
    );
  if ("toolResult" in step) return transcript.appendToolResult({ role: "user", parts: step.toolResult });
  return transcript.appendSystem(step.system, step.data);
}
