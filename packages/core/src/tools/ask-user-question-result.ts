// What the model and the UI see of an ask_user_question call: the tool result texts (exact, docs/protocol.md
// "What the model is told") and the confirmation title.
import { ASK_USER_QUESTION_TOOL } from "../protocol/meta.js";

export const ASK_USER_QUESTION_TOOL_NAME = ASK_USER_QUESTION_TOOL;

/** The generic text for a tool whose permission request the user cancelled. */
export function toolCanceledByUserText(toolName: string): string {
  return `Tool "${toolName}" was canceled by the user.`;
}

/** Vote cancelled: the turn ends and the model sees this with the next prompt. */
export const ASK_USER_QUESTION_CANCELLED_TEXT = toolCanceledByUserText(ASK_USER_QUESTION_TOOL_NAME);

/** The prompt was cancelled (or aborted) while the call waited for its confirmation. */
export const TOOL_CANCELLED_BEFORE_EXECUTION_TEXT = "Tool call was cancelled before execution.";

/** The tool ran but no host could put the questions in front of a user. */
export const ASK_USER_QUESTION_NON_INTERACTIVE_TEXT =
  "Cannot ask user questions in non-interactive mode without ACP support. Please run in interactive mode or enable ACP mode to use this tool.";

/** A host that runs the tool after the user dismissed the questions (instead of ending the turn). */
export const ASK_USER_QUESTION_DECLINED_TEXT = "User declined to answer the questions.";

export const ASK_USER_QUESTION_ANSWERS_PREAMBLE = "User has provided the following answers:";
export const ASK_USER_QUESTION_NO_VALID_ANSWERS_TEXT = "No valid answers were provided.";

/** The answer key of question `index` (0-based) in a vote's `answers` object. */
export function answerKey(index: number): string {
  return String(index);
}

/**
 * The question index an answer key names, or undefined unless the key is the canonical decimal form of
 * an index below `questionCount` ("01", " 1", "1.0", "-0", "1e0" are all refused).
 */
export function parseAnswerKey(key: string, questionCount: number): number | undefined {
  const index = Number(key);
  if (!Number.isSafeInteger(index) || index < 0 || index >= questionCount || String(index) !== key)
    return undefined;
  return index;
}

/** The fields formatting reads; structurally satisfied by {@link AskUserQuestionParams}. */
export interface AnswerableQuestions {
  readonly questions: readonly { readonly question?: unknown; readonly header?: unknown }[];
}

/**
 * The tool result for submitted answers: one `**<header>**: <answer>` line per answered question, in
 * question order, joined with "\n". Answers are taken verbatim (an answer containing `**` or newlines
 * stays intact; an empty answer still counts, as in the reference). Keys that are not canonical indexes
 * of an existing question, and non-string values, are ignored.
 */
export function formatAskUserQuestionAnswers(
  params: AnswerableQuestions,
  answers: Readonly<Record<string, string>> | undefined,
): string {
  const lines: string[] = [];
  if (answers !== null && typeof answers === "object") {
    // Walking indexes (not keys) gives question order and ignores every non-canonical key at once; it is
    // the order the reference produces too, since canonical index keys enumerate first and ascending.
    for (let index = 0; index < params.questions.length; index++) {
      const key = answerKey(index);
      const value = Object.hasOwn(answers, key) ? answers[key] : undefined;
      if (typeof value === "string") lines.push(`**${headerOf(params, index)}**: ${value}`);
    }
  }
  const body = lines.length > 0 ? lines.join("\n") : ASK_USER_QUESTION_NO_VALID_ANSWERS_TEXT;
  return `${ASK_USER_QUESTION_ANSWERS_PREAMBLE}\n\n${body}`;
}

function headerOf(params: AnswerableQuestions, index: number): string {
  const header = params.questions[index]?.header;
  // Validated params always have a header; the fallback covers callers that format unvalidated input.
  return typeof header === "string" && header !== "" ? header : `Question ${index + 1}`;
}

/** Confirmation title: `Ask user 1 question`, `Ask user 3 questions`. */
export function askUserQuestionTitle(params: { readonly questions: readonly unknown[] }): string {
  const count = params.questions.length;
  return `Ask user ${count} question${count > 1 ? "s" : ""}`;
}
