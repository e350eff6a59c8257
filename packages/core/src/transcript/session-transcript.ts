// One session's transcript: fills the common record fields, chains records by uuid/parentUuid, and decides
// which records must be fsynced. User messages, assistant messages (a question's functionCall must be on disk
// before the question is shown, docs/restore.md "The guarantees") and tool results are durable; system
// records are bookkeeping and may be lost in a crash.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Content } from "../content.js";
import type { Usage } from "../model/provider.js";
import { assertValidSessionId } from "../storage/session-id.js";
import {
  type SessionLocation,
  type SessionLog,
  SessionLogNotFoundError,
} from "../storage/session-storage.js";
import { transcriptLog } from "./reader.js";
import {
  AssistantRecord,
  SystemRecord,
  type ToolCallResult,
  ToolResultRecord,
  type TranscriptRecord,
  type UsageMetadata,
  UserRecord,
} from "./records.js";

export interface SessionTranscriptOptions extends SessionLocation {
  /** Written in every record: the version of the program writing it. */
  version?: string;
  now?: () => Date;
  newUuid?: () => string;
}

/** Used when the caller does not say which program version writes the transcript. */
export const UNKNOWN_TRANSCRIPT_VERSION = "unknown";

export class SessionTranscript {
  readonly sessionId: string;
  readonly cwd: string;
  readonly version: string;
  private readonly log: SessionLog<TranscriptRecord>;
  private readonly now: () => Date;
  private readonly newUuid: () => string;
  private lastUuid: string | null;

  private constructor(
    options: SessionTranscriptOptions,
    log: SessionLog<TranscriptRecord>,
    lastUuid: string | null,
  ) {
    this.sessionId = options.sessionId;
    this.cwd = options.cwd;
    this.version = options.version ?? UNKNOWN_TRANSCRIPT_VERSION;
    this.now = options.now ?? (() => new Date());
    this.newUuid = options.newUuid ?? randomUUID;
    this.log = log;
    this.lastUuid = lastUuid;
  }

  /**
   * Opens (without creating: the file appears with the first record) the transcript of a session. An existing
   * transcript is continued: the first new record's parentUuid is the uuid of its last valid record.
   */
  static async open(options: SessionTranscriptOptions): Promise<SessionTranscript> {
    assertValidSessionId(options.sessionId);
    const log = transcriptLog(options);
    let lastUuid: string | null = null;
    try {
      lastUuid = (await log.readTail(1)).items.at(-1)?.uuid ?? null;
    } catch (error) {
      if (!(error instanceof SessionLogNotFoundError)) throw error;
    }
    return new SessionTranscript(options, log, lastUuid);
  }

  /** Whether the session has a transcript. */
  static async exists(location: SessionLocation): Promise<boolean> {
    return transcriptLog(location).exists();
  }

  /** Where the transcript is stored (a file path for JSONL storage). */
  get path(): string {
    return this.log.where;
  }

  /** The uuid the next record will name as its parent (null before the first record). */
  get lastRecordUuid(): string | null {
    return this.lastUuid;
  }

  /** `uuid`: the record's own, when the prompt's message id was chosen before it was written. */
  appendUser(message: Content, options: { promptId?: string; uuid?: string } = {}): Promise<UserRecord> {
    const record = {
      ...this.base(options.uuid),
      type: "user" as const,
      message,
      ...(options.promptId === undefined ? {} : { promptId: options.promptId }),
    };
    return this.write(UserRecord, record, "user", true);
  }

  /**
   * `uuid`: the record's own, when the caller named the reply before it was written (its message id);
   * `usage`: the provider's token counts, written as `usageMetadata`.
   */
  appendAssistant(
    message: Content,
    options: { model?: string; toolStarts?: "recorded"; uuid?: string; usage?: Usage } = {},
  ): Promise<AssistantRecord> {
    const record = {
      ...this.base(options.uuid),
      type: "assistant" as const,
      message,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.usage === undefined ? {} : { usageMetadata: usageMetadataOf(options.usage) }),
      ...(options.toolStarts === undefined ? {} : { toolStarts: options.toolStarts }),
    };
    return this.write(AssistantRecord, record, "model", true);
  }

  appendToolResult(message: Content, toolCallResult?: ToolCallResult): Promise<ToolResultRecord> {
    const record = {
      ...this.base(),
      type: "tool_result" as const,
      message,
      ...(toolCallResult === undefined ? {} : { toolCallResult }),
    };
    return this.write(ToolResultRecord, record, "user", true);
  }

  /** Bookkeeping, not fsynced unless `durable` (a record other processes must be able to rely on). */
  appendSystem(
    subtype: string,
    data?: Record<string, unknown>,
    options: { durable?: boolean } = {},
  ): Promise<SystemRecord> {
    const record = {
      ...this.base(),
      type: "system" as const,
      subtype,
      ...(data === undefined ? {} : { data }),
    };
    return this.write(SystemRecord, record, undefined, options.durable === true);
  }

  /** Waits for pending appends and closes the file. Idempotent. */
  close(): Promise<void> {
    return this.log.close();
  }

  private base(uuid?: string) {
    return {
      uuid: uuid ?? this.newUuid(),
      parentUuid: this.lastUuid,
      sessionId: this.sessionId,
      timestamp: this.now().toISOString(),
      cwd: this.cwd,
      version: this.version,
    };
  }

  /**
   * Validates against the record's own schema (what the reader will accept) before anything is written, so
   * the file never holds a record the reader would skip. The object written is the caller's, unknown keys
   * included: validation does not rewrite content.
   */
  private async write<T extends TranscriptRecord>(
    schema: z.ZodType,
    record: T,
    role: Content["role"] | undefined,
    durable: boolean,
  ): Promise<T> {
    const checked = schema.safeParse(record);
    if (!checked.success) {
      throw new Error(`Invalid ${record.type} transcript record`, { cause: checked.error });
    }
    if (role !== undefined && "message" in record && record.message.role !== role) {
      throw new Error(`A ${record.type} record holds a "${role}" message, got "${record.message.role}"`);
    }
    // Chained at call time, so concurrent appends chain in the same order the writer writes them.
    this.lastUuid = record.uuid;
    try {
      await this.log.append(record, { durable });
    } catch (error) {
      // Not on disk: the next record must not name it as parent (unless another was chained on it already).
      if (this.lastUuid === record.uuid) this.lastUuid = record.parentUuid;
      throw error;
    }
    return record;
  }
}

function usageMetadataOf(usage: Usage): UsageMetadata {
  return {
    ...(usage.promptTokens === undefined ? {} : { promptTokenCount: usage.promptTokens }),
    ...(usage.completionTokens === undefined ? {} : { candidatesTokenCount: usage.completionTokens }),
    ...(usage.totalTokens === undefined ? {} : { totalTokenCount: usage.totalTokens }),
  };
}
