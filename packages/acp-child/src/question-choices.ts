// ask_user_question for a client that has neither form elicitation nor the daemon's `answers` (most ACP
// clients: they can only pick one of the options a permission request offers). Each question becomes
// permission requests whose options are the question's own, asked one at a time in the batch's order:
// - a single-choice question: one request, one `allow_once` option per choice (named by its label) and a
//   `reject_once` "Decline";
// - a multi-select question: one request per option, "Include" / "Skip", the request's title naming the
//   option it asks about.
// Free text cannot be given this way, so there is no "Other". The answers are the labels, joined for a
// multi-select as the form does, so the model reads exactly what a form or the daemon would have sent.
// Building the requests and reading one answer are pure; `askByChoices` sends them through client-ask.ts.
import type { AgentContext, PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import {
  type AskUserQuestionItem,
  type AskUserQuestionParams,
  answerKey,
  type ConfirmationOutcome,
  type ConfirmationRequest,
  parseAskUserQuestionParams,
} from "@qwen-daemon/core";
import { cancelReasonOf, PermissionResponse, toolCallMeta } from "@qwen-daemon/core/protocol";
import { type AskClientOptions, askThroughClient, type ReadAnswer } from "./client-ask.js";
import { MULTI_SELECT_SEPARATOR } from "./elicitation.js";

export const ChoiceOptionId = {
  /** `choice_<k>`: the k-th option of a single-choice question. */
  choicePrefix: "choice_",
  decline: "decline",
  include: "include",
  skip: "skip",
} as const;

/** One permission request of a batch and what picking each of its options means. */
export interface ChoiceStep {
  questionIndex: number;
  /** For a multi-select step, the option it asks about; undefined for a single-choice question. */
  optionIndex?: number;
  request: RequestPermissionRequest;
}

/** The permission requests for a batch, in the order they are asked. */
export function choiceSteps(
  sessionId: string,
  call: ConfirmationRequest["call"],
  params: AskUserQuestionParams,
): ChoiceStep[] {
  const count = params.questions.length;
  return params.questions.flatMap((question, questionIndex) => {
    const position = count > 1 ? ` (question ${questionIndex + 1} of ${count})` : "";
    const step = (title: string, text: string, options: PermissionOption[]): RequestPermissionRequest => ({
      sessionId,
      options,
      toolCall: {
        toolCallId: call.id,
        status: "pending",
        title,
        kind: "think",
        content: [{ type: "content", content: { type: "text", text } }],
        rawInput: call.args,
        _meta: toolCallMeta(call.name),
      },
    });
    if (!question.multiSelect) {
      return [
        {
          questionIndex,
          request: step(
            `${question.header}: ${question.question}${position}`,
            describeOptions(question),
            singleChoiceOptions(question),
          ),
        },
      ];
    }
    return question.options.map((option, optionIndex) => ({
      questionIndex,
      optionIndex,
      request: step(
        `${question.header}: include "${option.label}"?${position}`,
        `${question.question} (choose any; asked one option at a time)\n\n${option.label}: ${option.description}`,
        [
          { optionId: ChoiceOptionId.include, name: "Include", kind: "allow_once" },
          { optionId: ChoiceOptionId.skip, name: "Skip", kind: "reject_once" },
        ],
      ),
    }));
  });
}

function singleChoiceOptions(question: AskUserQuestionItem): PermissionOption[] {
  return [
    ...question.options.map(
      (option, k): PermissionOption => ({
        optionId: `${ChoiceOptionId.choicePrefix}${k}`,
        name: option.label,
        kind: "allow_once",
      }),
    ),
    { optionId: ChoiceOptionId.decline, name: "Decline", kind: "reject_once" },
  ];
}

/** The question and each option's description: the options' names are their labels only. */
function describeOptions(question: AskUserQuestionItem): string {
  return [question.question, "", ...question.options.map((o) => `${o.label}: ${o.description}`)].join("\n");
}

/**
 * What one answer means: the label picked (or included), nothing (skipped), the user's decline of the whole
 * batch (Decline, a plain cancel, an option not offered), or nobody there (a cancel saying `timeout` or
 * `session_closed`).
 */
export type StepAnswer =
  | { kind: "label"; label: string }
  | { kind: "skipped" }
  | { kind: "declined" }
  | { kind: "unattended"; reason: "timeout" | "session_closed" };

export function readStepAnswer(
  step: ChoiceStep,
  question: AskUserQuestionItem,
  response: PermissionResponse,
): StepAnswer {
  const { outcome } = response;
  if (outcome.outcome === "cancelled") {
    const reason = cancelReasonOf(response);
    if (reason === "timeout" || reason === "session_closed") return { kind: "unattended", reason };
    return { kind: "declined" };
  }
  if (!step.request.options.some((o) => o.optionId === outcome.optionId)) return { kind: "declined" };
  if (step.optionIndex !== undefined) {
    const label = question.options[step.optionIndex]?.label;
    if (outcome.optionId === ChoiceOptionId.include && label !== undefined) return { kind: "label", label };
    return outcome.optionId === ChoiceOptionId.skip ? { kind: "skipped" } : { kind: "declined" };
  }
  if (!outcome.optionId.startsWith(ChoiceOptionId.choicePrefix)) return { kind: "declined" };
  const label = question.options[Number(outcome.optionId.slice(ChoiceOptionId.choicePrefix.length))]?.label;
  return label === undefined ? { kind: "declined" } : { kind: "label", label };
}

/** The answers keyed "0", "1", ...: a multi-select's labels in the question's order, joined as a form's. */
export function answersFromLabels(
  params: AskUserQuestionParams,
  picked: readonly (readonly string[])[],
): Record<string, string> {
  const answers: Record<string, string> = {};
  params.questions.forEach((question, index) => {
    const labels = question.options.map((o) => o.label).filter((l) => picked[index]?.includes(l));
    if (labels.length > 0) answers[answerKey(index)] = labels.join(MULTI_SELECT_SEPARATOR);
  });
  return answers;
}

/**
 * Asks a batch one permission request at a time; never throws. The first decline ends the batch as the
 * user's cancel, the first unattended end (or a cancelled prompt) ends it unattended.
 */
export async function askByChoices(
  client: AgentContext,
  sessionId: string,
  request: ConfirmationRequest,
  options: AskClientOptions,
): Promise<ConfirmationOutcome> {
  const params = parseAskUserQuestionParams(request.call.args);
  // The turn loop validated the args before asking; a batch that does not parse cannot be offered.
  if (!params) return { outcome: "rejected" };
  const picked: string[][] = params.questions.map(() => []);
  for (const step of choiceSteps(sessionId, request.call, params)) {
    const question = params.questions[step.questionIndex] as AskUserQuestionItem;
    let answer: StepAnswer | undefined;
    const read: ReadAnswer = (raw) => {
      const parsed = PermissionResponse.safeParse(raw);
      if (!parsed.success) return undefined;
      answer = readStepAnswer(step, question, parsed.data);
      return {
        outcome: stepOutcome(answer),
        cancelled: parsed.data.outcome.outcome === "cancelled",
      };
    };
    const outcome = await askThroughClient(
      client,
      {
        method: "session/request_permission",
        params: step.request,
        what: `permission request for ${request.call.id} (question ${step.questionIndex + 1})`,
      },
      read,
      options,
    );
    // Not approved: declined, unattended, malformed, failed or the prompt cancelled — the batch ends so.
    if (outcome.outcome !== "approved") return outcome;
    if (answer?.kind === "label") picked[step.questionIndex]?.push(answer.label);
  }
  return { outcome: "approved", answers: answersFromLabels(params, picked) };
}

/** One step's answer as an outcome: "approved" means "go on with the next request". */
function stepOutcome(answer: StepAnswer): ConfirmationOutcome {
  switch (answer.kind) {
    case "label":
    case "skipped":
      return { outcome: "approved" };
    case "declined":
      return { outcome: "rejected" };
    case "unattended":
      return { outcome: "unattended", reason: answer.reason };
  }
}
