// Orphan repair: make a history safe to send to a model API, where every tool call must be answered
// in the very next user turn and no tool result may appear without its call (Anthropic-compatible
// providers reject both). Pure: returns a new array and never mutates its input.
import type { Content, FunctionResponse, Part } from "../content.js";

/** The error a dangling call is answered with (docs/protocol.md "What the model is told"). */
export const ORPHAN_TOOL_RESULT_TEXT =
  "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.";

/** The failed `tool_call_update` text a replay shows for a dangling call (docs/protocol.md "What the model is told"). */
export const REPLAY_MISSING_TOOL_RESULT_TEXT =
  "Tool result missing from saved history; the previous run likely ended before this tool completed.";

export interface OrphanRepairOptions {
  /**
   * Call ids that must not get a synthetic response (a trailing ask_user_question about to be restored).
   * They are exempt from synthesis only: a real response is still moved next to them, and a preserved
   * call with no response stays dangling.
   */
  preserveCallIds?: ReadonlySet<string>;
}

export interface RepairedCall {
  callId: string;
  name: string;
}

export interface OrphanRepairReport {
  history: Content[];
  /** Calls that got a synthetic error response. */
  synthesized: RepairedCall[];
  /** Real responses moved from a later turn to the turn right after their call. */
  moved: RepairedCall[];
  /** Second and later responses to the same call, dropped. */
  droppedDuplicates: RepairedCall[];
  /** Responses with no earlier call of that id, dropped. */
  droppedOrphans: RepairedCall[];
}

/** A synthetic failed result for a call whose real result was never recorded. */
export function syntheticToolResponsePart(
  callId: string,
  name: string,
  error = ORPHAN_TOOL_RESULT_TEXT,
): Part {
  const functionResponse: FunctionResponse = { id: callId, name, response: { error } };
  return { functionResponse };
}

/** The ids (with names) of a model entry's calls that carry an id, first occurrence of each id only. */
function idCallsOf(entry: Content): RepairedCall[] {
  const seen = new Set<string>();
  const out: RepairedCall[] = [];
  for (const part of entry.parts) {
    const id = part.functionCall?.id;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    out.push({ callId: id, name: part.functionCall?.name ?? "unknown" });
  }
  return out;
}

function isIdResponse(part: Part): boolean {
  return Boolean(part.functionResponse?.id);
}

/**
 * Repairs a history; see {@link repairOrphanedToolCalls}. Also reports what it changed, for the
 * session-recovery notice and for logs.
 *
 * Pairing rule: a response belongs to the latest call with its id that comes before it (so with a
 * reused id, each call keeps the response that follows it); the first such response wins.
 * Placement: the responses owed to a model turn open the user turn right after it, in call order,
 * before that turn's other parts (providers want tool results first); when no user turn follows, one is
 * inserted. A user turn emptied by the moves and drops is removed; one that was already empty is not
 * tool-call business and is kept (unless a dangling call's response fills it).
 * Calls and responses without an id are outside the contract: nothing can pair them, so they are kept
 * where they are, unchanged.
 */
export function repairOrphanedToolCallsWithReport(
  history: readonly Content[],
  opts: OrphanRepairOptions = {},
): OrphanRepairReport {
  const preserve = opts.preserveCallIds;
  const report: OrphanRepairReport = {
    history: [],
    synthesized: [],
    moved: [],
    droppedDuplicates: [],
    droppedOrphans: [],
  };

  // Pass 1: pair every id'd response with its call (model turn index + id).
  const latestCallTurn = new Map<string, number>();
  const paired = new Map<number, Map<string, { part: Part; from: number }>>();
  for (let i = 0; i < history.length; i++) {
    const entry = history[i]!;
    if (entry.role === "model") for (const call of idCallsOf(entry)) latestCallTurn.set(call.callId, i);
    for (const part of entry.parts) {
      const response = part.functionResponse;
      if (!response?.id) continue;
      const owner = latestCallTurn.get(response.id);
      const dropped = { callId: response.id, name: response.name };
      if (owner === undefined) {
        report.droppedOrphans.push(dropped);
        continue;
      }
      let byId = paired.get(owner);
      if (!byId) {
        byId = new Map();
        paired.set(owner, byId);
      }
      if (byId.has(response.id)) report.droppedDuplicates.push(dropped);
      else byId.set(response.id, { part, from: i });
    }
  }

  // Pass 2: rebuild, placing each model turn's responses in the user turn right after it.
  const out = report.history;
  let owed: Part[] = [];
  const flushOwed = () => {
    if (owed.length > 0) out.push({ role: "user", parts: owed });
    owed = [];
  };
  for (let i = 0; i < history.length; i++) {
    const entry = history[i]!;
    const kept = entry.parts.filter((part) => !isIdResponse(part));
    if (entry.role === "model") {
      flushOwed();
      out.push(kept.length === entry.parts.length ? entry : { ...entry, parts: kept });
      const adjacent = history[i + 1]?.role === "user" ? i + 1 : -1;
      for (const call of idCallsOf(entry)) {
        const response = paired.get(i)?.get(call.callId);
        if (response) {
          owed.push(response.part);
          if (response.from !== adjacent) report.moved.push(call);
        } else if (!preserve?.has(call.callId)) {
          owed.push(syntheticToolResponsePart(call.callId, call.name));
          report.synthesized.push(call);
        }
      }
      continue;
    }
    if (owed.length === 0 && kept.length === entry.parts.length) {
      out.push(entry);
      continue;
    }
    const parts = [...owed, ...kept];
    owed = [];
    if (parts.length > 0) out.push({ ...entry, parts });
  }
  flushOwed();
  return report;
}

/**
 * A copy of `history` in which every tool call with an id is answered exactly once, in the very next
 * user turn: a dangling call gets a synthetic `{error: ORPHAN_TOOL_RESULT_TEXT}` response (unless its id
 * is in `preserveCallIds`), a response sitting in a later turn is moved next to its call, extra copies
 * and responses with no call are dropped. Idempotent. Entries and parts it does not change are shared
 * with the input, not copied.
 */
export function repairOrphanedToolCalls(
  history: readonly Content[],
  opts: OrphanRepairOptions = {},
): Content[] {
  return repairOrphanedToolCallsWithReport(history, opts).history;
}

/**
 * Ids of the calls that are not answered in the entry right after their model turn, in history order
 * (each id once per turn). Empty for a repaired history, except preserved ids.
 */
export function danglingCallIds(history: readonly Content[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < history.length; i++) {
    const entry = history[i]!;
    if (entry.role !== "model") continue;
    const next = history[i + 1];
    const answered = new Set<string>();
    if (next?.role === "user") {
      for (const part of next.parts) if (part.functionResponse?.id) answered.add(part.functionResponse.id);
    }
    for (const call of idCallsOf(entry)) if (!answered.has(call.callId)) out.push(call.callId);
  }
  return out;
}
