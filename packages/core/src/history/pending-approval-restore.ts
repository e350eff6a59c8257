// Eligibility of a trailing batch of tool calls that waited for an approval when the process died
// (`--restore-pending-approvals`). Pure: it looks only at the last history entries (the model entry holding
// the batch, and the user entry of results a crash may have left half written after it) and at the
// write-ahead `tool_started` records, so its cost does not depend on the history's length.
//
// The one guarantee it serves: a tool never runs twice, and never runs without an approval someone gave.
// - no start record, from a writer that records starts (the reply's `toolStarts: "recorded"` mark): the call
//   certainly never started, so it may be asked again ("re_ask");
// - a start record: it may have run, so it is never run again; it is closed with a result that says it was
//   started and its outcome is unknown ("closed_as_started").
// Fail-closed like the question scan: a reply without the mark (an older writer, the switch off), a call it
// cannot classify (a read-only tool cut off mid-run, an
// unknown name, a question with bad arguments, a question while the question switch is off, a reused id)
// makes the whole batch ineligible, and the batch then goes through ordinary orphan repair.
import type { Content, FunctionCall, Part } from "../content.js";
import type { PendingOnDiskKind } from "../protocol/sessions.js";
import { parseAskUserQuestionParams } from "../tools/ask-user-question-params.js";
import { TOOL_STARTED_SUBTYPE, ToolStartedData, type TranscriptRecord } from "../transcript/records.js";
import { restoreClassOfToolName } from "./tool-restore-class.js";

/**
 * What waits for a person: a question, or an approval to run a command, edit a file or call an MCP tool (the
 * session list's `pendingOnDisk` kinds, defined once in the wire contract).
 */
export type PendingInteractionKind = PendingOnDiskKind;
export type PendingApprovalKind = Exclude<PendingInteractionKind, "user_question">;

/**
 * The kind of interaction a call of tool `name` needs: the restore class its tool declares (history/tool-restore-class.ts,
 * read off the name since the daemon lists sessions without any tool registry); undefined for tools that need
 * none (read-only ones) and for names no tool here has.
 */
export function pendingInteractionKindOf(name: string): PendingInteractionKind | undefined {
  const restoreClass = restoreClassOfToolName(name);
  return restoreClass === "none" ? undefined : restoreClass;
}

export type PendingCallDecision = "re_ask" | "closed_as_started";

export interface PendingCall {
  /** The call as the model made it (the very object of the history entry). */
  call: FunctionCall & { id: string };
  kind: PendingInteractionKind;
  decision: PendingCallDecision;
}

export interface RestorablePendingApprovals {
  /** The batch's calls that have no result yet, in the model's order. */
  calls: PendingCall[];
  /** Those to ask again (questions included), in the model's order. */
  reAsk: FunctionCall[];
  /** Those that had started: closed with {@link toolStartedResultUnknownText}, never run again. */
  closedAsStarted: FunctionCall[];
  /** Calls of the batch that already have a result (a crash cut the writing of the batch's results short). */
  answeredCallIds: string[];
}

/** What the transcript says about the starts of the batch's tools (see {@link toolStartsFromRecords}). */
export interface BatchToolStarts {
  /** The batch's reply carries the `toolStarts: "recorded"` mark: a missing start record means "never started". */
  recorded: boolean;
  /** Ids of calls with a write-ahead start record. */
  startedCallIds: ReadonlySet<string>;
}

export interface PendingApprovalScanOptions {
  toolStarts: BatchToolStarts;
  /** The question switch is on too: open questions may be re-asked in the same batch. */
  includeQuestions: boolean;
}

/**
 * The restorable approval batch the history ends with, or undefined. `tail` is the end of the history (only its
 * last two entries are read): a model entry with the batch, optionally followed by a user entry of nothing but
 * results of that batch. Every call of the batch with an id and no result must be a question (only when
 * `includeQuestions`, with valid arguments; never "started") or an exec / edit / MCP call; at least one of them
 * must be an approval (a batch of questions only is the question restore's), and the batch must come from a
 * writer that records tool starts. Parts without an id, text and thought parts are ignored, as in the question
 * scan.
 */
export function findRestorablePendingApprovals(
  tail: readonly Content[],
  opts: PendingApprovalScanOptions,
): RestorablePendingApprovals | undefined {
  const batch = openBatchOf(tail);
  if (batch === undefined || !opts.toolStarts.recorded) return undefined;
  const seen = new Set<string>();
  const calls: PendingCall[] = [];
  for (const part of batch.model.parts) {
    const call = part?.functionCall;
    if (!call?.id) continue;
    // A reused id cannot be paired with certainty with a result or a start record.
    if (seen.has(call.id)) return undefined;
    seen.add(call.id);
    if (batch.answered.has(call.id)) continue;
    const kind = pendingInteractionKindOf(call.name);
    if (kind === undefined) return undefined;
    const started = opts.toolStarts.startedCallIds.has(call.id);
    if (kind === "user_question") {
      if (!opts.includeQuestions || started || parseAskUserQuestionParams(call.args) === undefined) {
        return undefined;
      }
    }
    calls.push({
      call: call as PendingCall["call"],
      kind,
      decision: started ? "closed_as_started" : "re_ask",
    });
  }
  // A result for a call the batch does not hold means the entries are not what we think they are.
  for (const id of batch.answered) if (!seen.has(id)) return undefined;
  if (!calls.some((c) => c.kind !== "user_question")) return undefined;
  return {
    calls,
    reAsk: calls.filter((c) => c.decision === "re_ask").map((c) => c.call),
    closedAsStarted: calls.filter((c) => c.decision === "closed_as_started").map((c) => c.call),
    answeredCallIds: [...batch.answered],
  };
}

/** The kinds of what waits for a person in {@link findRestorablePendingApprovals}'s batch, in the model's order. */
export function pendingInteractionKinds(found: RestorablePendingApprovals): PendingInteractionKind[] {
  return found.calls.filter((c) => c.decision === "re_ask").map((c) => c.kind);
}

/**
 * The write-ahead records of the last batch: walks from the end back to the last reply with tool calls (its
 * start records always come after it), so only the tail of a transcript is read, and reads that reply's mark.
 * A start record whose data does not parse could be any call's, so it fails closed: the batch then counts as
 * unrecorded (nothing is asked again). A torn last line never reaches here (the reader drops it), and is right
 * to be missed: the tool only starts once its start record is fsynced.
 */
export function toolStartsFromRecords(records: readonly TranscriptRecord[]): BatchToolStarts {
  const startedCallIds = new Set<string>();
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (!record || record.type === "user") break;
    if (record.type === "assistant" && record.message.parts.some((p) => p?.functionCall)) {
      return { recorded: record.toolStarts === "recorded", startedCallIds };
    }
    if (record.type !== "system" || record.subtype !== TOOL_STARTED_SUBTYPE) continue;
    const data = ToolStartedData.safeParse(record.data);
    if (!data.success) return { recorded: false, startedCallIds };
    startedCallIds.add(data.data.callId);
  }
  return { recorded: false, startedCallIds };
}

/**
 * {@link findRestorablePendingApprovals} straight from transcript records (the tail is enough): for a cold
 * replay and for the session list, before any chat exists.
 */
export function pendingApprovalsFromRecords(
  records: readonly TranscriptRecord[],
  opts: { includeQuestions: boolean },
): RestorablePendingApprovals | undefined {
  return findRestorablePendingApprovals(historyTailFromRecords(records), {
    toolStarts: toolStartsFromRecords(records),
    includeQuestions: opts.includeQuestions,
  });
}

/**
 * The last entries of the history as the transcript records say, before any chat exists (cold replay, the
 * session list): like lastHistoryContentFromRecords, but the model entry and the trailing tool results after it,
 * merged the way historyFromRecords merges them. Reads from the end only.
 */
export function historyTailFromRecords(records: readonly TranscriptRecord[]): Content[] {
  const results: Part[] = [];
  const model: Part[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (!record || record.type === "system" || !record.message || record.message.parts.length === 0) continue;
    if (record.message.role === "user") {
      if (model.length > 0) break;
      if (record.type !== "tool_result") return [record.message];
      results.unshift(...record.message.parts);
      continue;
    }
    model.unshift(...record.message.parts);
  }
  const tail: Content[] = [];
  if (model.length > 0) tail.push({ role: "model", parts: model });
  if (results.length > 0) tail.push({ role: "user", parts: results });
  return tail;
}

/** The result a call gets when it had started before a crash and its outcome is unknown (never run again). */
export function toolStartedResultUnknownText(name: string): string {
  return `Tool "${name}" was started before the agent stopped (a crash or restart), and its result was not recorded, so whether it finished and what it did is unknown. It was not run again. Check its effects (files, processes, output) before running it again.`;
}

/** The calls of the batch `tail` ends with and the ids already answered; undefined when it ends otherwise. */
function openBatchOf(tail: readonly Content[]): { model: Content; answered: Set<string> } | undefined {
  const last = tail.at(-1);
  if (last?.role === "model" && Array.isArray(last.parts)) return { model: last, answered: new Set() };
  const before = tail.at(-2);
  if (last?.role !== "user" || before?.role !== "model" || !Array.isArray(before.parts)) return undefined;
  if (!Array.isArray(last.parts) || last.parts.length === 0) return undefined;
  const answered = new Set<string>();
  for (const part of last.parts) {
    const id = part?.functionResponse?.id;
    // Anything but a result after the batch (a user's text) means the turn went on: nothing waits.
    if (!id || answered.has(id)) return undefined;
    answered.add(id);
  }
  return { model: before, answered };
}
