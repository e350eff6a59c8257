// Reading what the model was sent: the fake OpenAI server records every chat request, and these helpers
// pick out the parts the restore story is about (the question's call, its result, the user messages).
import type { OpenAIChatMessage, OpenAIChatRequest } from "@qwen-daemon/core";
import { messageText } from "@qwen-daemon/core/testing";

/** Texts of the `user` messages, in order. */
export function userTexts(request: OpenAIChatRequest): string[] {
  return request.messages.filter((m) => m.role === "user").map((m) => messageText(m));
}

/** The requests (and their indexes) whose messages carry the assistant call `callId`. */
export function requestsWithCall(
  requests: readonly OpenAIChatRequest[],
  callId: string,
): { index: number; request: OpenAIChatRequest }[] {
  return requests.flatMap((request, index) =>
    indexOfCall(request, callId) === -1 ? [] : [{ index, request }],
  );
}

/** Index of the assistant message whose tool_calls include `callId`, or -1. */
export function indexOfCall(request: OpenAIChatRequest, callId: string): number {
  return request.messages.findIndex(
    (m) => m.role === "assistant" && (m.tool_calls ?? []).some((c) => c.id === callId),
  );
}

/**
 * The assistant message that made call `callId` and every message after it, as `{role, text, toolCallId?}`
 * rows: what a test compares to say "the tool result comes right after the call and nothing else follows".
 */
export function messagesFromCall(
  request: OpenAIChatRequest,
  callId: string,
): { role: string; text: string; toolCallId?: string; toolCalls?: string[] }[] {
  const at = indexOfCall(request, callId);
  if (at === -1) throw new Error(`no assistant message carries call ${callId}`);
  return request.messages.slice(at).map(row);
}

function row(m: OpenAIChatMessage): {
  role: string;
  text: string;
  toolCallId?: string;
  toolCalls?: string[];
} {
  if (m.role === "tool") return { role: m.role, text: messageText(m), toolCallId: m.tool_call_id };
  if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) {
    return { role: m.role, text: messageText(m), toolCalls: m.tool_calls.map((c) => c.id) };
  }
  return { role: m.role, text: messageText(m) };
}

/** The text of the `tool` message answering `callId` in this request, or undefined. */
export function toolResultText(request: OpenAIChatRequest, callId: string): string | undefined {
  const message = request.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
  return message === undefined ? undefined : messageText(message);
}
