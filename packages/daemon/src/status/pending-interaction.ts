// A waiting permission request as the status routes show it (docs/protocol.md "Status"):
// questions (ask_user_question) with their questions and answer keys, tool permissions with their action.
import {
  INTERACTION_KIND_META_KEY,
  type PendingInteraction,
  toolCallQuestions,
  USER_QUESTION_INTERACTION,
} from "@qwen-daemon/core/protocol";
import type { PendingPermission } from "../permission/mediator.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function pendingInteraction(pending: PendingPermission): PendingInteraction {
  const { toolCall, requestId } = pending;
  const createdAt = new Date(pending.createdAt).toISOString();
  const options = pending.options.map((o) => ({ optionId: o.optionId, label: o.name, kind: o.kind }));
  const meta = isRecord(toolCall._meta) ? toolCall._meta : undefined;
  const rawInput = toolCall.rawInput;
  const title = typeof toolCall.title === "string" ? toolCall.title : undefined;
  if (meta?.[INTERACTION_KIND_META_KEY] === USER_QUESTION_INTERACTION) {
    const raw = toolCallQuestions(toolCall) ?? [];
    return {
      requestId,
      kind: "user_question",
      createdAt,
      ...(title !== undefined ? { title } : {}),
      // answerKey is the question's index: the key its answer takes in a vote's `answers`.
      questions: raw.flatMap((q, index) => (isRecord(q) ? [{ ...q, answerKey: String(index) }] : [])),
      options,
    };
  }
  return {
    requestId,
    kind: "permission",
    createdAt,
    action: {
      ...(typeof toolCall.kind === "string" ? { type: toolCall.kind } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(toolCall.content !== undefined ? { content: toolCall.content } : {}),
      ...(toolCall.locations !== undefined ? { locations: toolCall.locations } : {}),
      ...(rawInput !== undefined ? { input: rawInput } : {}),
    },
    options,
  };
}
