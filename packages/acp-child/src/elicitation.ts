// ask_user_question as an ACP form elicitation (`elicitation/create`, mode "form"), for clients that advertise
// `clientCapabilities.elicitation.form`. Building the request and reading the response are pure; the answer
// text the model gets is exactly the one of the permission path (core formats both from the same answers).
//
// The form has, per question i: property "i" (a single select of the option labels, or a multi-select
// when `multiSelect` is true) and property "i_other" (free text, the "Other" answer the tool description
// promises the model). Neither is required: an unanswered question is simply missing from the answers.
//
// Elicitation is part of the stable v1 schema of @agentclientprotocol/sdk 2.4.0 (earlier SDKs marked it
// UNSTABLE); the wire shapes here follow that schema.

import type {
  AgentContext,
  CreateElicitationRequest,
  ElicitationPropertySchema,
} from "@agentclientprotocol/sdk";
import {
  type AskUserQuestionItem,
  type AskUserQuestionParams,
  answerKey,
  askUserQuestionTitle,
  type ConfirmationOutcome,
  type ConfirmationRequest,
  parseAskUserQuestionParams,
} from "@qwen-daemon/core";
import { PERMISSION_CANCEL_REASON_META_KEY, toolCallMeta } from "@qwen-daemon/core/protocol";
import { z } from "zod";
import { type AskClientOptions, askThroughClient, type ReadAnswer } from "./client-ask.js";

/** Suffix of the free-text property that goes with a question's choice property. */
export const OTHER_ANSWER_SUFFIX = "_other";

/** A multi-select answer is its labels joined like this, as the reference CLI and our web client send it. */
export const MULTI_SELECT_SEPARATOR = ", ";

export const otherAnswerKey = (index: number): string => `${answerKey(index)}${OTHER_ANSWER_SUFFIX}`;

export function buildQuestionElicitation(
  sessionId: string,
  call: ConfirmationRequest["call"],
  params: AskUserQuestionParams,
): CreateElicitationRequest {
  const properties: Record<string, ElicitationPropertySchema> = {};
  params.questions.forEach((question, index) => {
    properties[answerKey(index)] = choiceProperty(question);
    properties[otherAnswerKey(index)] = {
      type: "string",
      title: `${question.header}: other answer`,
      description: question.multiSelect
        ? "Optional: your own answer, added to the options you picked."
        : "Optional: your own answer, used instead of the option you picked.",
    };
  });
  const title = askUserQuestionTitle(params);
  return {
    mode: "form",
    sessionId,
    toolCallId: call.id,
    message: params.questions.length === 1 ? (params.questions[0]?.question ?? title) : title,
    requestedSchema: { type: "object", title, properties },
    // What a qwen-aware client needs to render the questions natively (the same keys as the permission path).
    _meta: toolCallMeta(call.name, { questions: params.questions }),
  };
}

function choiceProperty(question: AskUserQuestionItem): ElicitationPropertySchema {
  const options = question.options.map((o) => ({
    const: o.label,
    title: o.label,
    description: o.description,
  }));
  if (question.multiSelect) {
    return {
      type: "array",
      title: question.header,
      description: `${question.question} (choose any)`,
      items: { anyOf: options },
    };
  }
  return { type: "string", title: question.header, description: question.question, oneOf: options };
}

/** The response as this child reads it; unknown actions and extra keys are tolerated (and refused below). */
export const ElicitationResponse = z.looseObject({
  action: z.string(),
  content: z.record(z.string(), z.unknown()).nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
export type ElicitationResponse = z.infer<typeof ElicitationResponse>;

/**
 * - accept: the answers from the form (an empty or useless form gives the "No valid answers" text, as a
 *   permission Submit without answers does);
 * - decline / cancel: the user's "no", recorded as the permission path's cancel;
 * - cancel with the daemon's reason `timeout` / `session_closed`: nobody was there (nothing persisted);
 * - anything else: declined.
 */
export function interpretElicitationResponse(
  response: ElicitationResponse,
  params: AskUserQuestionParams,
): ConfirmationOutcome {
  if (response.action === "accept")
    return { outcome: "approved", answers: answersFromForm(params, response.content) };
  if (response.action === "cancel") {
    const reason = response._meta?.[PERMISSION_CANCEL_REASON_META_KEY];
    if (reason === "timeout" || reason === "session_closed") return { outcome: "unattended", reason };
  }
  return { outcome: "rejected" };
}

/**
 * Answers keyed "0", "1", ... from the form content: the chosen labels (only labels the question offers,
 * in the question's order), then the "other" text. A single select answers with the other text when one is
 * given, else the label; a multi-select joins them all. Values of the wrong type are ignored.
 */
export function answersFromForm(
  params: AskUserQuestionParams,
  content: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, string> {
  const answers: Record<string, string> = {};
  if (!content) return answers;
  params.questions.forEach((question, index) => {
    const chosen = chosenLabels(question, content[answerKey(index)]);
    const rawOther = content[otherAnswerKey(index)];
    const other = typeof rawOther === "string" ? rawOther.trim() : "";
    const parts = other === "" ? chosen : [...chosen, other];
    if (parts.length === 0) return;
    answers[answerKey(index)] = question.multiSelect
      ? parts.join(MULTI_SELECT_SEPARATOR)
      : (parts[parts.length - 1] as string);
  });
  return answers;
}

function chosenLabels(question: AskUserQuestionItem, value: unknown): string[] {
  const picked = new Set<unknown>(Array.isArray(value) ? value : [value]);
  const labels = question.options.map((o) => o.label).filter((label) => picked.has(label));
  return question.multiSelect ? labels : labels.slice(0, 1);
}

/** Asks one question batch as a form; never throws (see client-ask.ts). */
export function askByElicitation(
  client: AgentContext,
  sessionId: string,
  request: ConfirmationRequest,
  options: AskClientOptions,
): Promise<ConfirmationOutcome> {
  const params = parseAskUserQuestionParams(request.call.args);
  // The turn loop validated the args before asking; a batch that does not parse cannot be put in a form.
  if (!params) return Promise.resolve({ outcome: "rejected" });
  const read: ReadAnswer = (raw) => {
    const parsed = ElicitationResponse.safeParse(raw);
    if (!parsed.success) return undefined;
    return {
      outcome: interpretElicitationResponse(parsed.data, params),
      cancelled: parsed.data.action !== "accept",
    };
  };
  return askThroughClient(
    client,
    {
      method: "elicitation/create",
      params: buildQuestionElicitation(sessionId, request.call, params),
      what: `elicitation for ${request.call.id}`,
    },
    read,
    options,
  );
}
