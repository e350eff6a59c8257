// The message-order rules real OpenAI-compatible servers enforce (OpenAI, DashScope, vLLM with strict templates).
// The fake server applies them so a test catches a history that a real provider would reject with 400, such as
// `model[functionCall] → user[text]` left by a missing repair. Texts follow OpenAI's own error messages.
import type { OpenAIChatMessage } from "../model/openai-wire.js";

/** Undefined when the messages are acceptable, else the 400 message a real server would give. */
export function checkToolCallPairing(messages: readonly OpenAIChatMessage[]): string | undefined {
  let pending: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (message.role === "tool") {
      const at = pending.indexOf(message.tool_call_id);
      if (at === -1) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}], tool_call_id ${JSON.stringify(message.tool_call_id)})`;
      }
      pending.splice(at, 1);
      continue;
    }
    if (pending.length > 0) return missingResponses(pending, i);
    if (message.role === "assistant" && message.tool_calls && message.tool_calls.length > 0) {
      pending = message.tool_calls.map((c) => c.id);
    }
  }
  if (pending.length > 0) return missingResponses(pending, messages.length);
  return undefined;
}

function missingResponses(ids: string[], at: number): string {
  return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")} (before messages[${at}])`;
}
