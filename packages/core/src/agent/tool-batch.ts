// Answers one batch of tool calls (the calls of one model reply): validate, confirm, execute, record.
//
// Ordering guarantees the host relies on:
// - the caller has recorded the model reply holding the calls (durable) before this runs, so a question is
//   on disk before the `tool_call` event or the confirmation shows it anywhere;
// - a call's final `tool_call_update` is emitted only after its result is durable, so a host that sees an
//   answered question completed knows the answer survives a crash.
//
// An ask_user_question that ends unattended (timeout, session closed) records nothing for the whole batch:
// its call stays dangling in the transcript so a later load can ask it again. To make that possible, results
// are held back until the batch's last question is settled, then written in call order. A prompt aborted
// while a question waits is unattended too only in a restored batch (docs/restore.md "How a restore runs", step 5: the user saw it
// before and may be asked again); in an ordinary prompt the cancel is recorded like any other cancelled
// call (`Tool call was cancelled before execution.`), as docs/protocol.md "What the model is told" says.
//
// With tool starts recorded (`--restore-pending-approvals`), an approval follows the question's rules, and a
// tool that can need one gets a durable `tool_started` record before it runs: a crash then never lets it run
// twice (history/pending-approval-restore.ts). Its result is written as soon as it exists, never held back
// (it has happened; a later question ending unattended must not lose it), and an approval ending unattended
// records nothing for the calls still open, which stay dangling for a later load to ask again.
import type { Content, Part } from "../content.js";
import type { ToolDeclaration } from "../model/provider.js";
import { decideConfirmation, planModeDenialText } from "../tools/approval.js";
import { type AskUserQuestionParams, parseAskUserQuestionParams } from "../tools/ask-user-question-params.js";
import {
  ASK_USER_QUESTION_TOOL_NAME,
  formatAskUserQuestionAnswers,
  TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
  toolCanceledByUserText,
} from "../tools/ask-user-question-result.js";
import type { ApprovalMode, ConfirmationKind, Tool, ToolCallDescription } from "../tools/tool.js";
import type { ToolCallResult, ToolStartApproval } from "../transcript/records.js";
import type {
  AgentEvent,
  BeforeExecuteHook,
  ConfirmationHandler,
  ConfirmationOutcome,
  StopReason,
} from "./contract.js";
import { unattendedReasonOf } from "./contract.js";
import type { StreamedCall } from "./model-reply.js";
import {
  invalidToolArgumentsText,
  permissionRequestFailedText,
  SKIPPED_AFTER_PERMISSION_CANCEL_TEXT,
  toolNotFoundText,
  toolStartNotRecordedText,
} from "./tool-result-texts.js";
import type { TurnRecorder } from "./turn-recorder.js";

/** The part of a tool registry the loop uses (ToolRegistry satisfies it). */
export interface TurnTools {
  get(name: string): Tool | undefined;
  declarations(): ToolDeclaration[];
}

export interface ToolBatchDeps {
  tools: TurnTools;
  cwd: string;
  approvalMode: () => ApprovalMode;
  /** Kinds the user allowed for the rest of the session ("approved_always"); mutated here. */
  alwaysAllowed: Set<ConfirmationKind>;
  confirm: ConfirmationHandler;
  onEvent: (event: AgentEvent) => void;
  recorder: TurnRecorder;
  signal: AbortSignal;
  /** Asked right before each execute; a denial becomes the call's error result. */
  beforeExecute?: BeforeExecuteHook;
  /**
   * `--restore-pending-approvals`: write a start record before each edit/exec tool runs, and let approvals
   * end unattended like questions (see the file comment).
   */
  recordToolStarts?: boolean;
  /**
   * The calls are a restored question batch: the user has seen them already, so an abort before or while
   * they are asked again is an unattended end too (nothing recorded, still restorable), not a cancelled call.
   */
  restoring?: boolean;
}

export type ToolBatchOutcome =
  /** Every call has its response, recorded; the model should see them now. */
  | { kind: "answered"; responses: Content }
  /** Every call has its response, recorded, and the turn ends here. */
  | { kind: "stopped"; responses: Content; stopReason: StopReason }
  /**
   * A question (or, with tool starts recorded, an approval) ended unattended: nothing was recorded for the
   * calls still open, which stay dangling. `recorded` holds the results written before (tools that ran).
   */
  | {
      kind: "unattended_question";
      reason: "timeout" | "session_closed" | "aborted";
      stopReason: StopReason;
      recorded?: Content;
    };

interface SettledCall {
  part: Part;
  record: ToolCallResult;
  event: AgentEvent;
}

type CallStep =
  /** `ran`: a tool that can need an approval executed (its result is written at once, see the file comment). */
  | { type: "next"; settled: SettledCall; ran?: boolean }
  /** This call is settled and the calls after it get `fill` without running. */
  | { type: "stop"; settled: SettledCall; stopReason: StopReason; fill: string }
  | { type: "unattended_question"; reason: "timeout" | "session_closed" | "aborted" };

export async function runToolBatch(
  deps: ToolBatchDeps,
  calls: readonly StreamedCall[],
): Promise<ToolBatchOutcome> {
  for (const call of calls) {
    deps.onEvent({
      type: "tool_call",
      callId: call.id,
      name: call.name,
      args: call.args,
      description: describeCall(deps.tools.get(call.name), call, deps.cwd),
      status: "pending",
    });
  }

  let lastQuestion = -1;
  for (const [i, call] of calls.entries()) if (call.name === ASK_USER_QUESTION_TOOL_NAME) lastQuestion = i;
  const held: SettledCall[] = [];
  const parts: Part[] = [];
  const written: Part[] = [];
  const settle = async (settled: SettledCall, flush: boolean) => {
    parts.push(settled.part);
    held.push(settled);
    if (!flush) return;
    for (const s of held.splice(0)) {
      await deps.recorder.toolResult({ role: "user", parts: [s.part] }, s.record);
      written.push(s.part);
      deps.onEvent(s.event);
    }
  };

  for (let i = 0; i < calls.length; i++) {
    const step = await runCall(deps, calls[i]!);
    if (step.type === "unattended_question") {
      return {
        kind: "unattended_question",
        reason: step.reason,
        stopReason: unattendedStopReason(step.reason, deps),
        ...(written.length > 0 ? { recorded: { role: "user" as const, parts: written } } : {}),
      };
    }
    // A stop settles every later call without asking, so nothing is held back past it.
    const ran = step.type === "next" && step.ran === true;
    await settle(step.settled, step.type === "stop" || i >= lastQuestion || ran);
    if (step.type === "stop") {
      for (const rest of calls.slice(i + 1)) await settle(failed(rest, step.fill, "cancelled"), true);
      return { kind: "stopped", responses: { role: "user", parts }, stopReason: step.stopReason };
    }
  }
  return { kind: "answered", responses: { role: "user", parts } };
}

async function runCall(deps: ToolBatchDeps, call: StreamedCall): Promise<CallStep> {
  if (deps.signal.aborted) {
    const reason = unattendedReasonOf(deps.signal);
    const waits =
      call.name === ASK_USER_QUESTION_TOOL_NAME ||
      (deps.recordToolStarts === true && isApprovalKind(deps.tools.get(call.name)?.confirmation));
    if ((deps.restoring || reason === "session_closed") && waits)
      return { type: "unattended_question", reason };
    return cancelledBeforeExecution(call);
  }
  const tool = deps.tools.get(call.name);
  if (!tool) return { type: "next", settled: failed(call, toolNotFoundText(call.name), "error") };
  if (call.invalidArguments !== undefined) {
    return {
      type: "next",
      settled: failed(call, invalidToolArgumentsText(call.name, call.invalidArguments), "error"),
    };
  }
  const invalid = tool.validate(call.args);
  if (invalid !== undefined) return { type: "next", settled: failed(call, invalid, "error") };

  const kind = tool.confirmation;
  let decision = decideConfirmation(kind, deps.approvalMode());
  let approval: ToolStartApproval = "approval_mode";
  // A question is always asked: "always allow" would mean answering it without the user.
  if (decision === "ask" && kind !== "user_question" && deps.alwaysAllowed.has(kind)) {
    decision = "allow";
    approval = "session_rule";
  }
  if (decision === "deny")
    return { type: "next", settled: failed(call, planModeDenialText(call.name), "error") };

  let answers: Record<string, string> | undefined;
  if (decision === "ask" && kind !== "none") {
    const outcome = await askUser(deps, tool, call, kind);
    approval = "user";
    switch (outcome.outcome) {
      case "unattended": {
        const waits = kind === "user_question" || deps.recordToolStarts === true;
        if (waits && (outcome.reason !== "aborted" || deps.restoring)) {
          return { type: "unattended_question", reason: outcome.reason };
        }
        return cancelledBeforeExecution(call, unattendedStopReason(outcome.reason, deps));
      }
      case "rejected":
        return {
          type: "stop",
          settled: failed(call, toolCanceledByUserText(call.name), "cancelled"),
          stopReason: "end_turn",
          fill: SKIPPED_AFTER_PERMISSION_CANCEL_TEXT,
        };
      case "failed":
        return {
          type: "stop",
          settled: failed(call, permissionRequestFailedText(call.name, outcome.message), "error"),
          stopReason: "end_turn",
          fill: SKIPPED_AFTER_PERMISSION_CANCEL_TEXT,
        };
      case "approved_always":
        if (kind !== "user_question") deps.alwaysAllowed.add(kind);
        break;
      case "approved":
        answers = outcome.answers;
        break;
    }
  }

  if (kind === "user_question") {
    // The answer is the result; it is recorded even when the prompt was cancelled meanwhile, because the
    // user has given it (an acknowledged answer must never be lost). `validate` passed, so params parse.
    const params = parseAskUserQuestionParams(call.args) as AskUserQuestionParams;
    const settled = succeeded(call, formatAskUserQuestionAnswers(params, answers));
    return deps.signal.aborted
      ? stopAfter(settled, TOOL_CANCELLED_BEFORE_EXECUTION_TEXT)
      : { type: "next", settled };
  }

  if (deps.signal.aborted) return cancelledBeforeExecution(call);
  if (deps.beforeExecute) {
    const denial = await hostDenial(deps.beforeExecute, call, deps);
    if (denial !== undefined) return { type: "next", settled: failed(call, denial, "error") };
    if (deps.signal.aborted) return cancelledBeforeExecution(call);
  }
  const recordStart = deps.recordToolStarts === true && isApprovalKind(kind);
  if (recordStart) {
    const refusal = await startRecordRefusal(deps, call, approval);
    if (refusal !== undefined) return refusal;
  }
  deps.onEvent({ type: "tool_call_update", callId: call.id, status: "in_progress" });
  let settled: SettledCall;
  try {
    const result = await tool.execute(call.args, { cwd: deps.cwd, signal: deps.signal, callId: call.id });
    settled =
      result.error !== undefined ? failed(call, result.error, "error") : succeeded(call, result.output);
  } catch (error) {
    settled = failed(call, error instanceof Error ? error.message : String(error), "error");
  }
  return deps.signal.aborted
    ? stopAfter(settled, TOOL_CANCELLED_BEFORE_EXECUTION_TEXT)
    : { type: "next", settled, ran: recordStart };
}

/** Tools whose start is recorded: those that can need an approval and have effects (not questions). */
function isApprovalKind(kind: ConfirmationKind | undefined): boolean {
  return kind === "edit" || kind === "exec";
}

/**
 * Writes the call's durable start record; undefined when it is on disk and the tool may run. Without it on
 * disk the tool must not run at all (a crash would then let a later load ask it again and run it twice).
 */
async function startRecordRefusal(
  deps: ToolBatchDeps,
  call: StreamedCall,
  approval: ToolStartApproval,
): Promise<CallStep | undefined> {
  let written: boolean;
  try {
    written = (await deps.recorder.toolStarted?.({ callId: call.id, name: call.name, approval })) ?? false;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { type: "next", settled: failed(call, toolStartNotRecordedText(call.name, message), "error") };
  }
  // Not written because the host is gone: nothing more is written either, so the call stays open on disk.
  return written ? undefined : cancelledBeforeExecution(call);
}

/** The host's reason not to run the call, or undefined to run it. A hook that throws denies (fails closed). */
async function hostDenial(
  hook: BeforeExecuteHook,
  call: StreamedCall,
  deps: ToolBatchDeps,
): Promise<string | undefined> {
  try {
    const decision = await hook(
      { id: call.id, name: call.name, args: call.args },
      { cwd: deps.cwd, signal: deps.signal },
    );
    return decision.allowed ? undefined : decision.reason;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type AskOutcome = ConfirmationOutcome | { outcome: "failed"; message: string };

/** Asks the host; a host that throws is "unattended" when the prompt was aborted, else a failed request. */
async function askUser(
  deps: ToolBatchDeps,
  tool: Tool,
  call: StreamedCall,
  kind: Exclude<ConfirmationKind, "none">,
): Promise<AskOutcome> {
  try {
    return await deps.confirm(
      {
        call: { id: call.id, name: call.name, args: call.args },
        kind,
        description: describeCall(tool, call, deps.cwd),
      },
      deps.signal,
    );
  } catch (error) {
    if (deps.signal.aborted) return { outcome: "unattended", reason: unattendedReasonOf(deps.signal) };
    return { outcome: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}

function unattendedStopReason(
  reason: "timeout" | "session_closed" | "aborted",
  deps: ToolBatchDeps,
): StopReason {
  return reason === "aborted" || deps.signal.aborted ? "cancelled" : "end_turn";
}

function cancelledBeforeExecution(call: StreamedCall, stopReason: StopReason = "cancelled"): CallStep {
  return {
    type: "stop",
    settled: failed(call, TOOL_CANCELLED_BEFORE_EXECUTION_TEXT, "cancelled"),
    stopReason,
    fill: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
  };
}

function stopAfter(settled: SettledCall, fill: string): CallStep {
  return { type: "stop", settled, stopReason: "cancelled", fill };
}

function succeeded(call: StreamedCall, output: string): SettledCall {
  return {
    part: { functionResponse: { id: call.id, name: call.name, response: { output } } },
    record: { callId: call.id, status: "success", resultDisplay: output },
    event: { type: "tool_call_update", callId: call.id, status: "completed", output },
  };
}

function failed(call: StreamedCall, error: string, status: "error" | "cancelled"): SettledCall {
  return {
    part: { functionResponse: { id: call.id, name: call.name, response: { error } } },
    record: { callId: call.id, status, resultDisplay: error },
    event: { type: "tool_call_update", callId: call.id, status: "failed", error },
  };
}

function describeCall(tool: Tool | undefined, call: StreamedCall, cwd: string): ToolCallDescription {
  if (!tool) return { title: call.name, uiKind: "other" };
  try {
    return tool.describe(call.args, { cwd });
  } catch (error) {
    // describe() may see arguments validation will refuse; the UI then shows the name and the reason.
    return {
      title: `${call.name}: ${error instanceof Error ? error.message : String(error)}`,
      uiKind: "other",
    };
  }
}
