// Classifies how a saved session's history ends, so that "continue" knows what (if anything) was cut
// short by a crash or restart. Pure; looks at the tail only (the trailing user run or the last entry).
import type { Content, FunctionCall, Part } from "../content.js";
import { syntheticToolResponsePart } from "./orphan-repair.js";

export type DegradedHistoryReason =
  /** The transcript had records whose parent was missing: the history is not the one the model saw. */
  | "history_gaps"
  /** The trailing model entry holds a call without an id: no response could ever be paired with it. */
  | "call_without_id"
  /** The trailing model entry holds a functionResponse, which only user entries may carry. */
  | "response_in_model_turn"
  /** The last entry's role is neither "user" nor "model" (unvalidated input). */
  | "unknown_role";

export type SessionTail =
  /** Nothing was cut short: empty history, or the model had the last word without pending calls. */
  | { kind: "clean" }
  /**
   * The history ends with user input the model never replied to. `parts` are the trailing user
   * entries' parts (functionResponses first, then the rest, as the reference retries them) and
   * `retryFrom` the index where that trailing run starts: continue sends `parts` on top of
   * `history.slice(0, retryFrom)`.
   */
  | { kind: "interrupted_prompt"; parts: Part[]; retryFrom: number }
  /**
   * The history ends with model calls that never got a result. `syntheticResponses` is the user turn
   * that answers each with the orphan-repair error, ready to send to continue the turn.
   */
  | { kind: "interrupted_turn"; danglingCalls: FunctionCall[]; syntheticResponses: Content }
  /** Automatic continuation is unsafe. */
  | { kind: "degraded_history"; reason: DegradedHistoryReason };

export interface ClassifySessionTailOptions {
  /** Missing parent links found while rebuilding the history from transcript records. */
  historyGaps?: number;
}

/**
 * Decisions (mirroring the reference where it has one):
 * - trailing user functionResponses with no model reply count as `interrupted_prompt`, not
 *   `interrupted_turn`: the tools did finish, only the model's answer to them is missing, and
 *   re-sending those results is the retry;
 * - trailing user entries without any parts are `clean` (there is nothing to retry);
 * - dangling calls earlier in the history are orphan repair's business, not a tail interruption.
 */
export function classifySessionTail(
  history: readonly Content[],
  opts: ClassifySessionTailOptions = {},
): SessionTail {
  if ((opts.historyGaps ?? 0) > 0) return { kind: "degraded_history", reason: "history_gaps" };
  const last = history.at(-1);
  if (!last) return { kind: "clean" };
  if (last.role === "user") return classifyTrailingUserRun(history);
  if (last.role !== "model") return { kind: "degraded_history", reason: "unknown_role" };

  const danglingCalls: FunctionCall[] = [];
  const seen = new Set<string>();
  for (const part of last.parts) {
    if (part.functionResponse) return { kind: "degraded_history", reason: "response_in_model_turn" };
    const call = part.functionCall;
    if (!call) continue;
    if (!call.id) return { kind: "degraded_history", reason: "call_without_id" };
    if (seen.has(call.id)) continue;
    seen.add(call.id);
    danglingCalls.push(call);
  }
  if (danglingCalls.length === 0) return { kind: "clean" };
  return {
    kind: "interrupted_turn",
    danglingCalls,
    syntheticResponses: {
      role: "user",
      parts: danglingCalls.map((call) => syntheticToolResponsePart(call.id!, call.name)),
    },
  };
}

function classifyTrailingUserRun(history: readonly Content[]): SessionTail {
  let start = history.length;
  while (start > 0 && history[start - 1]?.role === "user") start--;
  const all = history.slice(start).flatMap((entry) => entry.parts);
  if (all.length === 0) return { kind: "clean" };
  const parts = [...all.filter((p) => p.functionResponse), ...all.filter((p) => !p.functionResponse)];
  return { kind: "interrupted_prompt", parts, retryFrom: start };
}
