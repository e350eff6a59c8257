// ask_user_question cards: what the questions are, and the vote body that answers them. The daemon
// expects `answers` keyed by question index ("0", "1", ...), each a free-text string; a multi-select
// answer is its labels joined with ", " (what the reference CLI sends), an "Other" answer is the text typed.

/**
 * @typedef {{ label: string, description?: string }} QuestionOption
 * @typedef {{ question: string, header?: string, options: QuestionOption[], multiSelect?: boolean }} Question
 * @typedef {{ optionId: string, name?: string, label?: string, kind?: string }} PermissionOption
 * @typedef {{ requestId: string, sessionId?: string, toolCall?: any, options: PermissionOption[] }} PermissionRequest
 */

/**
 * The user's picks for one question: option labels checked, and the "Other" text when Other is chosen.
 * @typedef {{ picked: string[], other?: string | undefined }} Selection
 */

export const ANSWER_SEPARATOR = ", ";

/**
 * The questions of a permission request, or [] when it is an ordinary tool permission.
 * Prefers `_meta.qwenQuestions` (what the daemon protocol names) and falls back to the tool's raw input.
 * @param {PermissionRequest} request
 * @returns {Question[]}
 */
export function questionsOf(request) {
  const call = request.toolCall ?? {};
  const meta = call._meta ?? {};
  const isQuestion =
    meta.qwenInteractionKind === "user_question" ||
    meta.toolName === "ask_user_question" ||
    Array.isArray(meta.qwenQuestions);
  if (!isQuestion) return [];
  const raw = Array.isArray(meta.qwenQuestions) ? meta.qwenQuestions : call.rawInput?.questions;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((q) => q && typeof q.question === "string" && Array.isArray(q.options))
    .map((q) => ({
      question: q.question,
      header: typeof q.header === "string" ? q.header : undefined,
      options: q.options
        .filter((/** @type {any} */ o) => o && typeof o.label === "string")
        .map((/** @type {any} */ o) => ({
          label: o.label,
          description: typeof o.description === "string" ? o.description : undefined,
        })),
      multiSelect: q.multiSelect === true,
    }));
}

/**
 * The text of one question's answer, or undefined when nothing usable was chosen.
 * @param {Question} question
 * @param {Selection} selection
 */
export function answerText(question, selection) {
  // Keep the question's own option order whatever order the user clicked in.
  const labels = question.options.map((o) => o.label).filter((label) => selection.picked.includes(label));
  const other = selection.other?.trim();
  const parts = other ? [...labels, other] : labels;
  if (parts.length === 0) return undefined;
  return question.multiSelect ? parts.join(ANSWER_SEPARATOR) : parts[parts.length - 1];
}

/**
 * Answers keyed by question index, and the indexes still unanswered.
 * @param {Question[]} questions
 * @param {Selection[]} selections
 * @returns {{ answers: Record<string, string>, missing: number[] }}
 */
export function collectAnswers(questions, selections) {
  /** @type {Record<string, string>} */
  const answers = {};
  /** @type {number[]} */
  const missing = [];
  questions.forEach((question, i) => {
    const text = answerText(question, selections[i] ?? { picked: [] });
    if (text === undefined) missing.push(i);
    else answers[String(i)] = text;
  });
  return { answers, missing };
}

/**
 * True for options that go ahead (allow_once, allow_always, ...); answers ride only on those.
 * @param {PermissionOption} option
 */
export function isApproval(option) {
  return typeof option.kind === "string"
    ? option.kind.startsWith("allow")
    : option.optionId.startsWith("proceed");
}

/**
 * The label a button for this option shows (ACP options carry `name`; status snapshots carry `label`).
 * @param {PermissionOption} option
 */
export function optionLabel(option) {
  return option.name ?? option.label ?? option.optionId;
}

/**
 * The body of `POST /session/:id/permission/:requestId`.
 * @param {PermissionOption} option
 * @param {Record<string, string>} [answers]  only for questions, only sent with an approving option
 */
export function voteBody(option, answers) {
  /** @type {{ outcome: { outcome: "selected", optionId: string }, answers?: Record<string, string> }} */
  const body = { outcome: { outcome: "selected", optionId: option.optionId } };
  if (answers && isApproval(option)) body.answers = answers;
  return body;
}

/**
 * Which option submits a question card (the first approving one), and which declines it.
 * @param {PermissionOption[]} options
 */
export function questionActions(options) {
  return {
    submit: options.find((o) => isApproval(o)),
    decline: options.find((o) => !isApproval(o)),
  };
}
