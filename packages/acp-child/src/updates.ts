// Builders for the ACP `session/update` payloads this child sends, shared by the live turn (events.ts)
// and history replay (replay.ts) so a replayed tool call looks exactly like a live one.

import type { SessionUpdate, ToolCallContent, ToolCallStatus, ToolKind } from "@agentclientprotocol/sdk";
import type { ToolCallDescription } from "@qwen-daemon/core";
import { toolCallMeta } from "@qwen-daemon/core/protocol";

/** `messageId`: the uuid of the transcript record the text belongs to, live and in a replay alike. */
export function textChunk(
  kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
  text: string,
  messageId: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text }, messageId };
}

export interface ToolCallStart {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  description: ToolCallDescription;
  status: ToolCallStatus;
}

export function toolCallStarted(call: ToolCallStart): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.callId,
    title: call.description.title,
    kind: call.description.uiKind as ToolKind,
    status: call.status,
    content: diffContent(call.description),
    locations: (call.description.locations ?? []).map((l) => (l.line === undefined ? { path: l.path } : l)),
    rawInput: call.args,
    _meta: toolCallMeta(call.name),
  };
}

/**
 * A finished (or failed) call; `text` is the tool's output or error, shown as the call's content after
 * `lead` (the terminal a command ran in, so the client keeps showing it).
 */
export function toolCallFinished(
  callId: string,
  status: ToolCallStatus,
  text?: string,
  lead: ToolCallContent[] = [],
): SessionUpdate {
  const content = text === undefined ? lead : [...lead, textContent(text)];
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: callId,
    status,
    ...(content.length === 0 ? {} : { content }),
  };
}

export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

export function diffContent(description: ToolCallDescription): ToolCallContent[] {
  const diff = description.diff;
  return diff ? [{ type: "diff", path: diff.path, oldText: diff.oldText, newText: diff.newText }] : [];
}
