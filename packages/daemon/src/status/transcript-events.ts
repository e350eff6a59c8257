// GET /session/:id/transcript: persisted history shown the way live history is, as session_update
// events (user_message_chunk, agent_message_chunk, agent_thought_chunk, tool_call, tool_call_update).
import type { Part, TranscriptRecord } from "@qwen-daemon/core";
import { type DaemonEventData, DaemonEventType, EVENT_SCHEMA_VERSION } from "@qwen-daemon/core/protocol";
import type { DaemonEvent } from "../events/daemon-event.js";

type Update = Record<string, unknown> & { sessionUpdate: string };

export function transcriptEvents(sessionId: string, records: readonly TranscriptRecord[]): DaemonEvent[] {
  const events: DaemonEvent[] = [];
  for (const record of records) {
    const at = Date.parse(record.timestamp);
    for (const update of recordUpdates(record)) {
      events.push({
        id: events.length + 1,
        v: EVENT_SCHEMA_VERSION,
        type: DaemonEventType.sessionUpdate,
        data: { sessionId, update } satisfies DaemonEventData<typeof DaemonEventType.sessionUpdate>,
        _meta: { serverTimestamp: Number.isFinite(at) ? at : 0 },
      });
    }
  }
  return events;
}

function recordUpdates(record: TranscriptRecord): Update[] {
  switch (record.type) {
    case "user":
      return record.message.parts.flatMap((p) => partUpdates(p, "user_message_chunk", record.uuid));
    case "assistant":
      return record.message.parts.flatMap((p) => partUpdates(p, "agent_message_chunk", record.uuid));
    case "tool_result":
      return record.message.parts.flatMap((p) => partUpdates(p, "user_message_chunk", record.uuid));
    case "system":
      return [];
  }
}

/** `messageId`: the record's uuid, the id the agent gives the same message live and in a load's replay. */
function partUpdates(
  part: Part,
  textKind: "user_message_chunk" | "agent_message_chunk",
  messageId: string,
): Update[] {
  const out: Update[] = [];
  if (part.text !== undefined && part.text !== "") {
    const kind = part.thought === true ? "agent_thought_chunk" : textKind;
    out.push({ sessionUpdate: kind, content: { type: "text", text: part.text }, messageId });
  }
  if (part.functionCall !== undefined) {
    out.push({
      sessionUpdate: "tool_call",
      toolCallId: part.functionCall.id ?? part.functionCall.name,
      title: part.functionCall.name,
      kind: "other",
      status: "pending",
      rawInput: part.functionCall.args ?? {},
    });
  }
  if (part.functionResponse !== undefined) {
    const { response } = part.functionResponse;
    out.push({
      sessionUpdate: "tool_call_update",
      toolCallId: part.functionResponse.id ?? part.functionResponse.name,
      status: "error" in response ? "failed" : "completed",
      rawOutput: response,
    });
  }
  return out;
}
