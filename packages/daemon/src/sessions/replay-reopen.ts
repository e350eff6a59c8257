// The `compactedReplay` a live session keeps from its first load says how that load left each call. When a
// later load re-asks the trailing question (docs/restore.md "How a restore runs", step 4 on a live session, loaded first by no client,
// so its replay closed the question as failed), the replay must stop saying the call failed: a client would
// otherwise show a failed call and then a permission request for it. Pure.

import { DaemonEventType } from "@qwen-daemon/core/protocol";
import type { DaemonEvent } from "../events/daemon-event.js";

type ToolUpdate = { sessionUpdate?: unknown; toolCallId?: unknown; status?: unknown };

function toolUpdateOf(event: DaemonEvent): ToolUpdate | undefined {
  if (event.type !== DaemonEventType.sessionUpdate) return undefined;
  const update = event.data.update;
  return typeof update === "object" && update !== null ? (update as ToolUpdate) : undefined;
}

/**
 * `replay` with each re-asked call open again: the failed `tool_call_update` that closed it (the last one
 * after the call's last `tool_call`) becomes an `in_progress` update under the same event id, so ids stay
 * 1..n and a client's Last-Event-ID still points where it did. The same array when nothing changes.
 */
export function reopenReplayedCalls(
  replay: readonly DaemonEvent[],
  callIds: ReadonlySet<string>,
): readonly DaemonEvent[] {
  const closing = new Map<string, number>();
  for (const [index, event] of replay.entries()) {
    const update = toolUpdateOf(event);
    const id = update?.toolCallId;
    if (typeof id !== "string" || !callIds.has(id)) continue;
    if (update?.sessionUpdate === "tool_call") closing.delete(id);
    else if (update?.sessionUpdate === "tool_call_update" && update.status === "failed")
      closing.set(id, index);
  }
  if (closing.size === 0) return replay;
  const reopened = [...replay];
  for (const [toolCallId, index] of closing) {
    const event = replay[index] as DaemonEvent;
    reopened[index] = {
      ...event,
      data: {
        ...event.data,
        update: { sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" },
      },
    };
  }
  return reopened;
}
