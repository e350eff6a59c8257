// Live turn events of core's turn loop -> ACP session/update payloads.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "@qwen-daemon/core";
import { textChunk, toolCallFinished, toolCallStarted } from "./updates.js";

/** What the turn loop reports besides usage (which the session adds up: usage.ts). */
export type TurnEvent = Exclude<AgentEvent, { type: "usage" }>;

/** `terminalId`: the client terminal a finished call's command ran in, kept in the call's content. */
export function eventToUpdate(event: TurnEvent, terminalId?: string): SessionUpdate {
  switch (event.type) {
    case "model_text":
      return textChunk("agent_message_chunk", event.text, event.messageId);
    case "thought":
      return textChunk("agent_thought_chunk", event.text, event.messageId);
    case "tool_call":
      return toolCallStarted(event);
    case "tool_call_update":
      return toolCallFinished(
        event.callId,
        event.status,
        event.output ?? event.error,
        terminalId === undefined ? [] : [{ type: "terminal", terminalId }],
      );
  }
}
