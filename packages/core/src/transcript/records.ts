// JSONL transcript records (docs/protocol.md "On disk"). One schema per record type.
import { z } from "zod";
import { Content } from "../content.js";

const Base = z.object({
  uuid: z.string(),
  parentUuid: z.string().nullable(),
  sessionId: z.string(),
  timestamp: z.string(),
  cwd: z.string(),
  version: z.string(),
});

export const UserRecord = Base.extend({
  type: z.literal("user"),
  message: Content,
  /** The daemon prompt this user message belongs to, when known. */
  promptId: z.string().optional(),
});
export type UserRecord = z.infer<typeof UserRecord>;

/**
 * The provider's token counts for the request that produced a reply, under the names qwen-code's transcripts
 * use (Gemini's usage metadata): prompt, reply and total tokens.
 */
export const UsageMetadata = z.object({
  promptTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});
export type UsageMetadata = z.infer<typeof UsageMetadata>;

export const AssistantRecord = Base.extend({
  type: z.literal("assistant"),
  message: Content,
  model: z.string().optional(),
  usageMetadata: UsageMetadata.optional(),
  /**
   * "recorded": every tool of this reply that can need an approval gets a `tool_started` record before it runs
   * (`--restore-pending-approvals`). Without it a missing start record proves nothing (an older writer, the
   * switch off), so none of the reply's calls may be asked again.
   */
  toolStarts: z.literal("recorded").optional(),
});
export type AssistantRecord = z.infer<typeof AssistantRecord>;

export const ToolCallResult = z.object({
  callId: z.string(),
  status: z.enum(["success", "error", "cancelled"]),
  resultDisplay: z.string().optional(),
});
export type ToolCallResult = z.infer<typeof ToolCallResult>;

export const ToolResultRecord = Base.extend({
  type: z.literal("tool_result"),
  message: Content,
  toolCallResult: ToolCallResult.optional(),
});
export type ToolResultRecord = z.infer<typeof ToolResultRecord>;

export const SystemRecord = Base.extend({
  type: z.literal("system"),
  /** e.g. "turn_result", "session_created" */
  subtype: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type SystemRecord = z.infer<typeof SystemRecord>;

/**
 * The first record of a session, written (and fsynced) when it is created, before any prompt: the file then
 * exists, so another process can find, list, load and resume the session. Its `timestamp` is the creation
 * time and its `cwd` the workspace; like every system record it is not part of the model history.
 */
export const SESSION_CREATED_SUBTYPE = "session_created";

/** The system record that closes every turn (turn-loop.ts): after it, nothing of that turn was cut short. */
export const TURN_RESULT_SUBTYPE = "turn_result";

/**
 * The write-ahead record of a tool that can need an approval (edit, exec, MCP): written and fsynced right
 * before the tool starts, after its approval (or the approval mode) let it run. A system record, so readers that
 * do not know it skip it as bookkeeping and the model history is unchanged. On load it decides the fate of a
 * call a crash left without a result: with it the call may have run and is never run again; without it the
 * call certainly did not run and may be asked again (history/pending-approval-restore.ts).
 */
export const TOOL_STARTED_SUBTYPE = "tool_started";

/** How the call came to run: a person approved it, an "always allow" of this session, or the approval mode. */
export const ToolStartApproval = z.enum(["user", "session_rule", "approval_mode"]);
export type ToolStartApproval = z.infer<typeof ToolStartApproval>;

export const ToolStartedData = z.object({
  callId: z.string().min(1),
  name: z.string(),
  approval: ToolStartApproval,
});
export type ToolStartedData = z.infer<typeof ToolStartedData>;

export const ToolStartedRecord = SystemRecord.extend({
  subtype: z.literal(TOOL_STARTED_SUBTYPE),
  data: ToolStartedData,
});
export type ToolStartedRecord = z.infer<typeof ToolStartedRecord>;

export const TranscriptRecord = z.discriminatedUnion("type", [
  UserRecord,
  AssistantRecord,
  ToolResultRecord,
  SystemRecord,
]);
export type TranscriptRecord = z.infer<typeof TranscriptRecord>;

/** Prompt ledger line: `in_flight` first, then exactly one terminal state. */
export const LedgerEntry = z.object({
  promptId: z.string(),
  state: z.enum(["in_flight", "completed", "cancelled", "interrupted", "failed"]),
  timestamp: z.string(),
  /** e.g. "daemon_lost", "restored" */
  code: z.string().optional(),
  /** When a restore took over: the promptId of the restore prompt. */
  restoredBy: z.string().optional(),
  stopReason: z.string().optional(),
  message: z.string().optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;
