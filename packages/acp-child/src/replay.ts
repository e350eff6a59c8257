// Transcript records -> the session/update notifications a client needs to redraw the conversation.
// Pure: the caller decides which dangling calls to leave open (docs/restore.md "How a restore runs", step 2) and sends the result.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import {
  ASK_USER_QUESTION_TOOL_NAME,
  activeBranch,
  askUserQuestionTitle,
  type FunctionResponse,
  REPLAY_MISSING_TOOL_RESULT_TEXT,
  type ToolCallDescription,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import { textChunk, toolCallFinished, toolCallStarted } from "./updates.js";

/** docs/protocol.md "What the model is told": how replay closes a call whose result never reached the transcript. */
export const MISSING_TOOL_RESULT_TEXT = REPLAY_MISSING_TOOL_RESULT_TEXT;

export type DescribeCall = (name: string, args: Record<string, unknown>) => ToolCallDescription;

export interface ReplayOptions {
  /** Close calls left without a result as failed (false only while a live turn may still answer them). */
  finalizeDangling: boolean;
  /** Dangling calls to leave in progress: the restorable question that a restore prompt will re-ask. */
  skipFinalizeCallIds?: ReadonlySet<string>;
  /** Title/kind/locations of a call, normally from the tool registry. */
  describe?: DescribeCall;
}

interface PendingCall {
  callId: string;
  name: string;
  /** False when the transcript call had no id and we made one up (matched by name instead). */
  hasRealId: boolean;
}

export function replayUpdates(records: readonly TranscriptRecord[], options: ReplayOptions): SessionUpdate[] {
  const describe = options.describe ?? fallbackDescription;
  const updates: SessionUpdate[] = [];
  const pending = new Map<string, PendingCall>();

  const finish = (response: FunctionResponse, status: "completed" | "failed" | undefined) => {
    const call = takePending(pending, response);
    const callId = call?.callId ?? response.id;
    if (!callId) return; // a response we cannot attach to any call has nothing to update
    const error = typeof response.response.error === "string" ? response.response.error : undefined;
    const finalStatus = status ?? (error === undefined ? "completed" : "failed");
    updates.push(toolCallFinished(callId, finalStatus, responseText(response)));
  };

  // The conversation the model saw: a rewound file holds branches, only the last one is replayed.
  for (const record of activeBranch(records)) {
    if (record.type === "system") continue;
    const status = record.type === "tool_result" ? resultStatus(record) : undefined;
    for (const [index, part] of record.message.parts.entries()) {
      if (part.functionResponse) {
        finish(part.functionResponse, status);
      } else if (part.functionCall && record.message.role === "model") {
        const { id, name } = part.functionCall;
        const args = part.functionCall.args ?? {};
        const callId = id && id.length > 0 ? id : `${record.uuid}#${index}`;
        pending.set(callId, { callId, name, hasRealId: Boolean(id) });
        const description = safeDescribe(describe, name, args);
        updates.push(toolCallStarted({ callId, name, args, description, status: "in_progress" }));
      } else if (typeof part.text === "string" && part.text.length > 0) {
        if (record.message.role === "model") {
          const kind = part.thought ? "agent_thought_chunk" : "agent_message_chunk";
          updates.push(textChunk(kind, part.text, record.uuid));
        } else if (record.type === "user" && !part.thought) {
          updates.push(textChunk("user_message_chunk", part.text, record.uuid));
        }
      }
    }
  }

  if (options.finalizeDangling) {
    const skip = options.skipFinalizeCallIds;
    for (const call of pending.values()) {
      if (skip?.has(call.callId)) continue;
      updates.push(toolCallFinished(call.callId, "failed", MISSING_TOOL_RESULT_TEXT));
    }
  }
  return updates;
}

function takePending(pending: Map<string, PendingCall>, response: FunctionResponse): PendingCall | undefined {
  if (response.id) {
    const call = pending.get(response.id);
    if (call) pending.delete(response.id);
    return call;
  }
  // No id: the oldest id-less call of the same tool (how id-less calls pair up in the turn loop too).
  for (const call of pending.values()) {
    if (!call.hasRealId && call.name === response.name) {
      pending.delete(call.callId);
      return call;
    }
  }
  return undefined;
}

function resultStatus(
  record: Extract<TranscriptRecord, { type: "tool_result" }>,
): "completed" | "failed" | undefined {
  const status = record.toolCallResult?.status;
  if (status === undefined) return undefined;
  return status === "success" ? "completed" : "failed";
}

function responseText(response: FunctionResponse): string {
  const { output, error } = response.response;
  if (typeof output === "string") return output;
  if (typeof error === "string") return error;
  return JSON.stringify(response.response);
}

function safeDescribe(
  describe: DescribeCall,
  name: string,
  args: Record<string, unknown>,
): ToolCallDescription {
  try {
    return describe(name, args);
  } catch {
    // A tool may refuse to describe args it would reject; the replay still shows the call.
    return fallbackDescription(name, args);
  }
}

/** Used when no registry knows the tool (an MCP server that is gone, a renamed tool). */
export function fallbackDescription(name: string, args: Record<string, unknown>): ToolCallDescription {
  if (name === ASK_USER_QUESTION_TOOL_NAME) {
    return {
      title: askUserQuestionTitle({ questions: Array.isArray(args.questions) ? args.questions : [] }),
      uiKind: "think",
    };
  }
  return { title: name, uiKind: "other" };
}
