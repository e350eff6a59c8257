// One turn: from a user message (or from calls already in history) until the model stops asking for tools.
//
//   send -> stream (text/thought events as deltas arrive) -> record the reply (durable, before any
//   confirmation) -> answer its calls (tool-batch.ts) -> send again ... -> turn_result record.
//
// Stop reasons: the model stopped without calls (end_turn, or max_tokens / refusal by finish reason), the
// user cancelled a permission (end_turn; the model sees the refusal with the next prompt), an unattended
// question (end_turn; cancelled when a restored question is aborted), the abort signal (cancelled; a call
// waiting for confirmation in an ordinary prompt records the cancelled-before-execution text), the max-turns guard
// (max_turn_requests). A ModelError that is not an abort ends the turn by propagating, after the
// turn_result record notes it, so the host can report it (turn_error).
import { randomUUID } from "node:crypto";
import type { Content, FunctionCall, Part } from "../content.js";
import { ModelError, type ModelProvider } from "../model/provider.js";
import type { ApprovalMode, ConfirmationKind } from "../tools/tool.js";
import type { Chat } from "./chat.js";
import type { AgentEvent, BeforeExecuteHook, ConfirmationHandler, StopReason } from "./contract.js";
import { ModelReply, type StreamedCall } from "./model-reply.js";
import { runToolBatch, type TurnTools } from "./tool-batch.js";
import type { TurnRecorder, TurnResultData } from "./turn-recorder.js";

/** Model requests per turn when the host sets no limit. */
export const DEFAULT_MAX_TURNS = 100;

export interface TurnDeps {
  chat: Chat;
  provider: ModelProvider;
  /** The tools offered to the model and run by the loop. */
  tools: TurnTools;
  recorder: TurnRecorder;
  onEvent: (event: AgentEvent) => void;
  confirm: ConfirmationHandler;
  /** Asked right before each tool execute (after confirmation); a denial becomes the call's error result. */
  beforeExecute?: BeforeExecuteHook;
  cwd: string;
  /** Read at each call, so a mode change mid-turn applies to the next call. */
  approvalMode: () => ApprovalMode;
  /** Kinds the user allowed for the rest of the session; the loop adds to it. */
  alwaysAllowed: Set<ConfirmationKind>;
  /** Model requests allowed in this turn. */
  maxTurns: number;
  /** `--restore-pending-approvals`: start records before edit/exec tools run (tool-batch.ts). */
  recordToolStarts?: boolean;
  systemInstruction?: string;
  signal: AbortSignal;
}

export type TurnStart =
  /** A new user message: appended to the chat and recorded, then sent. */
  | { kind: "user"; parts: Part[] }
  /**
   * Calls already in history as the last model entry (a restored question or approval), possibly followed by
   * results of others of its calls: answer them, then continue.
   */
  | { kind: "pending_calls"; calls: FunctionCall[] }
  /** Send the history as it is (continue after an interruption). */
  | { kind: "continue" };

export interface TurnOutcome {
  stopReason: StopReason;
  modelRequests: number;
  /** Set when a question ended unattended (nothing was recorded for its batch). */
  unattended?: "timeout" | "session_closed" | "aborted";
}

export async function runTurn(deps: TurnDeps, start: TurnStart): Promise<TurnOutcome> {
  const { chat, signal } = deps;
  let modelRequests = 0;
  const finish = async (
    stopReason: StopReason,
    extra: Partial<TurnResultData> = {},
  ): Promise<TurnOutcome> => {
    await deps.recorder.turnResult({ stopReason, modelRequests, ...extra });
    return { stopReason, modelRequests, ...(extra.unattended ? { unattended: extra.unattended } : {}) };
  };

  let pending: StreamedCall[] | undefined;
  const restoring = start.kind === "pending_calls";
  if (start.kind === "user") {
    const message: Content = { role: "user", parts: start.parts };
    chat.append(message);
    await deps.recorder.user(message);
  } else if (start.kind === "pending_calls") {
    pending = pendingCallsFromHistory(chat, start.calls);
  }

  for (;;) {
    if (pending) {
      const outcome = await runToolBatch({ ...deps, restoring: restoring && modelRequests === 0 }, pending);
      pending = undefined;
      if (outcome.kind === "unattended_question") {
        // What ran is on disk; the chat holds it too, so the next send pairs it like a load would.
        if (outcome.recorded) chat.appendToolResponses(outcome.recorded);
        return finish(outcome.stopReason, { unattended: outcome.reason });
      }
      chat.appendToolResponses(outcome.responses);
      if (outcome.kind === "stopped") return finish(outcome.stopReason);
    }
    if (signal.aborted) return finish("cancelled");
    if (modelRequests >= deps.maxTurns) return finish("max_turn_requests");

    modelRequests++;
    const reply = new ModelReply();
    // The reply's message id, and the uuid of the record it is written as (a replay names it the same).
    const messageId = randomUUID();
    try {
      const events = deps.provider.generate({
        ...(deps.systemInstruction === undefined ? {} : { systemInstruction: deps.systemInstruction }),
        contents: chat.contentsForSend(),
        tools: deps.tools.declarations(),
        signal,
      });
      for await (const event of events) {
        if (signal.aborted) break;
        reply.add(event);
        if (event.type === "text") deps.onEvent({ type: "model_text", text: event.text, messageId });
        else if (event.type === "thought") deps.onEvent({ type: "thought", text: event.text, messageId });
        else if (event.type === "finish" && event.usage) deps.onEvent({ type: "usage", usage: event.usage });
      }
    } catch (error) {
      // What was streamed has been shown, so it is kept; calls from a reply that did not finish are not.
      await recordReply(deps, reply, { withCalls: false }, messageId);
      if (signal.aborted) return finish("cancelled");
      await deps.recorder.turnResult({ modelRequests, error: describeError(error) });
      throw error;
    }
    if (signal.aborted) {
      await recordReply(deps, reply, { withCalls: false }, messageId);
      return finish("cancelled");
    }

    // Durable before any confirmation: a crash while a question waits leaves exactly this record last.
    await recordReply(deps, reply, { withCalls: true }, messageId);
    if (reply.calls.length === 0) return finish(stopReasonOf(reply));
    pending = reply.calls;
  }
}

async function recordReply(
  deps: TurnDeps,
  reply: ModelReply,
  opts: { withCalls: boolean },
  messageId: string,
): Promise<void> {
  const content = reply.content(opts);
  if (!content) return;
  deps.chat.append(content);
  await deps.recorder.assistant(content, {
    uuid: messageId,
    ...(reply.usage === undefined ? {} : { usage: reply.usage }),
  });
}

function stopReasonOf(reply: ModelReply): StopReason {
  if (reply.finishReason === "length") return "max_tokens";
  if (reply.finishReason === "content_filter") return "refusal";
  return "end_turn";
}

/**
 * The calls to answer, checked against the chat: they must be unanswered calls of its last model entry (which
 * a user entry of results of its other calls may follow).
 */
function pendingCallsFromHistory(chat: Chat, calls: readonly FunctionCall[]): StreamedCall[] {
  const history = chat.getHistory();
  let last = history.at(-1);
  const answered = new Set<string>();
  if (last?.role === "user" && last.parts.every((p) => p.functionResponse?.id)) {
    for (const p of last.parts) answered.add(p.functionResponse?.id ?? "");
    last = history.at(-2);
  }
  const inLast = new Set(last?.role === "model" ? last.parts.flatMap((p) => p.functionCall?.id ?? []) : []);
  return calls.map((call) => {
    if (!call.id || !inLast.has(call.id) || answered.has(call.id)) {
      throw new Error(`Call ${call.id ?? "(no id)"} is not a pending call of the last model entry`);
    }
    return { id: call.id, name: call.name, args: call.args ?? {} };
  });
}

function describeError(error: unknown): NonNullable<TurnResultData["error"]> {
  if (error instanceof ModelError) {
    return {
      kind: error.kind,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
  return { kind: "internal", message: error instanceof Error ? error.message : String(error) };
}
