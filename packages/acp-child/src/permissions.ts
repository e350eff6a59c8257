// Confirmation requests of the turn loop <-> ACP `session/request_permission` (docs/protocol.md "The agent process").
// Building the request and reading the response are pure; `askClient` sends it through client-ask.ts.
import type {
  AgentContext,
  PermissionOption,
  RequestPermissionRequest,
  ToolKind,
} from "@agentclientprotocol/sdk";
import { askUserQuestionTitle, type ConfirmationOutcome, type ConfirmationRequest } from "@qwen-daemon/core";
import { cancelReasonOf, PermissionResponse, toolCallMeta } from "@qwen-daemon/core/protocol";
import { type AskClientOptions, askThroughClient, type ReadAnswer } from "./client-ask.js";
import { diffContent } from "./updates.js";

export const OptionId = {
  proceedOnce: "proceed_once",
  proceedAlways: "proceed_always",
  cancel: "cancel",
} as const;

/** The reference's options: questions Submit/Cancel; edits Allow All Edits/Allow/Reject. */
export function permissionOptions(kind: ConfirmationRequest["kind"]): PermissionOption[] {
  const once: PermissionOption = { optionId: OptionId.proceedOnce, name: "Allow", kind: "allow_once" };
  const reject: PermissionOption = { optionId: OptionId.cancel, name: "Reject", kind: "reject_once" };
  switch (kind) {
    case "user_question":
      return [
        { optionId: OptionId.proceedOnce, name: "Submit", kind: "allow_once" },
        { optionId: OptionId.cancel, name: "Cancel", kind: "reject_once" },
      ];
    case "edit":
      return [
        { optionId: OptionId.proceedAlways, name: "Allow All Edits", kind: "allow_always" },
        once,
        reject,
      ];
    case "exec":
      // The reference persists "always" rules to settings; this child keeps them for the session only.
      return [
        { optionId: OptionId.proceedAlways, name: "Always Allow in this session", kind: "allow_always" },
        once,
        reject,
      ];
  }
}

export function buildPermissionRequest(
  sessionId: string,
  request: ConfirmationRequest,
): RequestPermissionRequest {
  const { call, description, kind } = request;
  const isQuestion = kind === "user_question";
  return {
    sessionId,
    options: permissionOptions(kind),
    toolCall: {
      toolCallId: call.id,
      status: "pending",
      title: isQuestion
        ? askUserQuestionTitle({ questions: asArray(call.args.questions) })
        : description.title,
      kind: isQuestion ? "think" : (description.uiKind as ToolKind),
      content: diffContent(description),
      locations: (description.locations ?? []).map((l) => (l.line === undefined ? { path: l.path } : l)),
      rawInput: call.args,
      _meta: toolCallMeta(call.name, isQuestion ? { questions: call.args.questions } : undefined),
    },
  };
}

/**
 * - cancelled with reason `timeout` / `session_closed`: nobody was there to answer (unattended);
 * - any other cancel (plain, or `agent_cancelled`), or an option we did not offer: the user's decline.
 *   The reference daemon sends `agent_cancelled` for a user's Cancel vote, and the reference child reads
 *   only `timeout`/`session_closed` as unattended. A prompt cancel is told apart by the turn's own signal
 *   (session/cancel), which `askClient` checks; this function sees only the response.
 */
export function interpretPermissionResponse(
  response: PermissionResponse,
  offered: readonly PermissionOption[],
): ConfirmationOutcome {
  const { outcome } = response;
  if (outcome.outcome === "cancelled") {
    const reason = cancelReasonOf(response);
    if (reason === "timeout" || reason === "session_closed") return { outcome: "unattended", reason };
    return { outcome: "rejected" };
  }
  if (!offered.some((o) => o.optionId === outcome.optionId)) return { outcome: "rejected" };
  if (outcome.optionId === OptionId.proceedAlways) return { outcome: "approved_always" };
  if (outcome.optionId === OptionId.proceedOnce) {
    const answers = stringAnswers(response.answers);
    return answers ? { outcome: "approved", answers } : { outcome: "approved" };
  }
  return { outcome: "rejected" };
}

function stringAnswers(raw: Record<string, unknown> | null | undefined): Record<string, string> | undefined {
  if (!raw) return undefined;
  const answers: Record<string, string> = {};
  // Key validity (canonical "0", "1", ... in range) is the answer formatter's job in core.
  for (const [key, value] of Object.entries(raw)) if (typeof value === "string") answers[key] = value;
  return answers;
}

/** Sends one permission request and maps the answer; never throws (a failure becomes an outcome). */
export function askClient(
  client: AgentContext,
  request: RequestPermissionRequest,
  options: AskClientOptions,
): Promise<ConfirmationOutcome> {
  const read: ReadAnswer = (raw) => {
    const parsed = PermissionResponse.safeParse(raw);
    if (!parsed.success) return undefined;
    return {
      outcome: interpretPermissionResponse(parsed.data, request.options),
      cancelled: parsed.data.outcome.outcome === "cancelled",
    };
  };
  return askThroughClient(
    client,
    {
      method: "session/request_permission",
      params: request,
      what: `permission request for ${request.toolCall.toolCallId}`,
    },
    read,
    options,
  );
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
