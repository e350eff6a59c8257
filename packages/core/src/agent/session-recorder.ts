// How an AgentSession's turn is written: through its transcript, keeping each record so records() never
// re-reads the storage. Once the host is gone nothing more is written (see hostLost): not the reply being
// streamed (a cut-off text would look like the model's answer and end the turn cleanly), not the cancelled
// text of a call that was waiting for approval, not the turn_result. The disk then holds what a kill at that
// instant would have left.
import {
  TOOL_STARTED_SUBTYPE,
  type ToolStartedData,
  type TranscriptRecord,
  TURN_RESULT_SUBTYPE,
} from "../transcript/records.js";
import type { SessionTranscript } from "../transcript/session-transcript.js";
import { hostLost } from "./prompt-outcome.js";
import type { TurnRecorder } from "./turn-recorder.js";

export interface SessionRecorderOptions {
  promptId: string;
  /** The uuid the prompt's user record is saved under (its message id); a fresh one when absent. */
  userMessageId?: string | undefined;
  signal: AbortSignal;
  /** Written in assistant records. */
  model: string | undefined;
  /** --restore-pending-approvals: a durable tool_started record before an edit/exec tool runs. */
  recordStarts: boolean;
}

export function sessionRecorder(
  t: SessionTranscript,
  records: TranscriptRecord[],
  { promptId, userMessageId, signal, model, recordStarts }: SessionRecorderOptions,
): TurnRecorder {
  const keep = async (write: () => Promise<TranscriptRecord>) => {
    if (hostLost(signal)) return;
    records.push(await write());
  };
  return {
    user: (message) =>
      keep(() =>
        t.appendUser(message, userMessageId === undefined ? { promptId } : { promptId, uuid: userMessageId }),
      ),
    assistant: (message, reply) =>
      keep(() =>
        t.appendAssistant(message, {
          model,
          ...(reply?.uuid === undefined ? {} : { uuid: reply.uuid }),
          ...(reply?.usage === undefined ? {} : { usage: reply.usage }),
          ...(recordStarts && message.parts.some((p) => p.functionCall)
            ? { toolStarts: "recorded" as const }
            : {}),
        }),
      ),
    toolResult: (message, result) => keep(() => t.appendToolResult(message, result)),
    turnResult: (data) => keep(() => t.appendSystem(TURN_RESULT_SUBTYPE, { ...data, promptId })),
    ...(recordStarts
      ? {
          toolStarted: async (data: ToolStartedData) => {
            if (hostLost(signal)) return false;
            records.push(await t.appendSystem(TOOL_STARTED_SUBTYPE, data, { durable: true }));
            return true;
          },
        }
      : {}),
  };
}
