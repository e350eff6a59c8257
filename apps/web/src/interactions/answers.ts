// ask_user_question cards: what the questions are, and the vote body that answers them. The daemon
// expects `answers` keyed by question index ("0", "1", ...), each a free-text string; a multi-select
// answer is its labels joined with ", " (what the reference CLI sends), an "Other" answer is the text typed.
import {
  isQuestionToolCall,
  type PermissionVoteBody,
  QUESTIONS_META_KEY,
  toolCallQuestions,
} from "@qwen-daemon/core/protocol";
import type { PermissionOption, PermissionRequest } from "../net/daemon-event.js";
import { list, record, text } from "../net/read.js";

export type { PermissionOption, PermissionRequest };
export type QuestionOption = { label: string; description?: string | undefined };
export type Question = {
  question: string;
  header?: string | undefined;
  options: QuestionOption[];
  multiSelect?: boolean;
};

/**
 * The user's picks for one question: option labels checked, and the "Other" text when Other is chosen.
 * `typed` is text in the Other box while Other is not chosen: kept in drafts, never part of an answer.
 */
export type Selection = { picked: string[]; other?: string | undefined; typed?: string | undefined };

export const ANSWER_SEPARATOR = ", ";

/**
 * The questions of a permission request, or [] when it is an ordinary tool permission.
 * Prefers `_meta.qwenQuestions` (what the daemon protocol names) and falls back to the tool's raw input.
 */
export function questionsOf(request: PermissionRequest): Question[] {
  const call = request.toolCall ?? {};
  const isQuestion = isQuestionToolCall(call) || Array.isArray(record(call._meta)?.[QUESTIONS_META_KEY]);
  if (!isQuestion) return [];
  return (toolCallQuestions(call) ?? []).flatMap((value) => {
    const q = record(value);
    const question = text(q?.question);
    if (q === undefined || question === undefined || !Array.isArray(q.options)) return [];
    const options = list(q.options).flatMap((item) => {
      const o = record(item);
      const label = text(o?.label);
      return label === undefined ? [] : [{ label, description: text(o?.description) }];
    });
    return [{ question, header: text(q.header), options, multiSelect: q.multiSelect === true }];
  });
}

/** The text of one question's answer, or undefined when nothing usable was chosen. */
export function answerText(question: Question, selection: Selection): string | undefined {
  // Keep the question's own option order whatever order the user clicked in.
  const labels = question.options.map((o) => o.label).filter((label) => selection.picked.includes(label));
  const other = selection.other?.trim();
  const parts = other ? [...labels, other] : labels;
  if (parts.length === 0) return undefined;
  return question.multiSelect ? parts.join(ANSWER_SEPARATOR) : parts[parts.length - 1];
}

/** Answers keyed by question index, and the indexes still unanswered. */
export function collectAnswers(
  questions: Question[],
  selections: Selection[],
): { answers: Record<string, string>; missing: number[] } {
  const answers: Record<string, string> = {};
  const missing: number[] = [];
  questions.forEach((question, i) => {
    const text = answerText(question, selections[i] ?? { picked: [] });
    if (text === undefined) missing.push(i);
    else answers[String(i)] = text;
  });
  return { answers, missing };
}

/** The answers as lines a person reads back: "Format: Checklist" per question answered. */
export function answerLines(
  questions: Question[],
  answers: Record<string, unknown> | undefined,
): { label: string; value: string }[] {
  if (!answers) return [];
  return questions.flatMap((q, i) => {
    const value = answers[String(i)];
    return typeof value === "string" && value !== ""
      ? [{ label: q.header ?? `Question ${i + 1}`, value }]
      : [];
  });
}

/** True for options that go ahead (allow_once, allow_always, ...); answers ride only on those. */
export function isApproval(option: PermissionOption): boolean {
  return typeof option.kind === "string"
    ? option.kind.startsWith("allow")
    : option.optionId.startsWith("proceed");
}

/** The label a button for this option shows (ACP options carry `name`; status snapshots carry `label`). */
export function optionLabel(option: PermissionOption): string {
  return option.name ?? option.label ?? option.optionId;
}

/** A vote that picks an option (the contract's PermissionVoteBody, never a cancel here). */
export type VoteBody = PermissionVoteBody & { outcome: { outcome: "selected" } };

/**
 * The body of `POST /session/:id/permission/:requestId`.
 * @param answers  only for questions, only sent with an approving option
 */
export function voteBody(option: PermissionOption, answers?: Record<string, string>): VoteBody {
  const body: VoteBody = { outcome: { outcome: "selected", optionId: option.optionId } };
  if (answers && isApproval(option)) body.answers = answers;
  return body;
}

/** Which option submits a question card (the first approving one), and which declines it. */
export function questionActions(options: PermissionOption[]): {
  submit: PermissionOption | undefined;
  decline: PermissionOption | undefined;
} {
  return {
    submit: options.find((o) => isApproval(o)),
    decline: options.find((o) => !isApproval(o)),
  };
}
