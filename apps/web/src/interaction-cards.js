// Cards for what the agent waits on: an ask_user_question form (radio or checkbox per question, plus an
// "Other" free-text choice) and a tool permission (one button per option the request offers).
import { collectAnswers, isApproval, optionLabel, questionActions } from "./answers.js";
import { h } from "./dom.js";
import { toolContentText } from "./timeline.js";

/**
 * @typedef {import("./answers.js").PermissionRequest} PermissionRequest
 * @typedef {import("./answers.js").PermissionOption} PermissionOption
 * @typedef {import("./answers.js").Question} Question
 * @typedef {(option: PermissionOption, answers?: Record<string, string>) => Promise<void>} VoteHandler
 */

const OTHER = "__other__";

/** @param {string} requestId */
function domId(requestId) {
  return `req-${requestId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/**
 * Sends a vote with the card's buttons disabled; shows a failure inside the card and re-enables it.
 * @param {HTMLElement} card
 * @param {HTMLElement} errorLine
 * @param {() => Promise<void>} send
 */
async function sending(card, errorLine, send) {
  const buttons = [...card.querySelectorAll("button")];
  for (const b of buttons) b.disabled = true;
  card.setAttribute("aria-busy", "true");
  errorLine.textContent = "";
  try {
    await send();
    card.classList.add("sent");
  } catch (error) {
    errorLine.textContent = error instanceof Error ? error.message : String(error);
    for (const b of buttons) b.disabled = false;
  } finally {
    card.removeAttribute("aria-busy");
  }
}

/**
 * @param {PermissionRequest} request
 * @param {Question[]} questions
 * @param {VoteHandler} onVote
 * @returns {HTMLFormElement}
 */
export function questionCard(request, questions, onVote) {
  const id = domId(request.requestId);
  const { submit, decline } = questionActions(request.options);
  const errorLine = h("p", { class: "form-error", role: "alert" });
  const fieldsets = questions.map((q, i) => questionFieldset(q, i, id));
  const heading = h(
    "h3",
    { id: `${id}-title`, tabindex: -1 },
    questions.length > 1 ? `❓ The agent asks you ${questions.length} questions` : "❓ The agent asks you",
  );
  const card = h(
    "form",
    {
      class: "card question",
      "data-request-id": request.requestId,
      "aria-labelledby": `${id}-title`,
      novalidate: true,
    },
    heading,
    ...fieldsets,
    errorLine,
    h(
      "div",
      { class: "row" },
      submit ? h("button", { type: "submit", class: "primary" }, optionLabel(submit)) : undefined,
      decline
        ? h(
            "button",
            {
              type: "button",
              class: "secondary",
              onclick: () => sending(card, errorLine, () => onVote(decline)),
            },
            optionLabel(decline),
          )
        : undefined,
    ),
  );
  card.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!submit) return;
    const selections = questions.map((_, i) => readSelection(card, id, i));
    const { answers, missing } = collectAnswers(questions, selections);
    if (missing.length > 0) {
      const names = missing.map((i) => questions[i]?.header ?? `question ${i + 1}`).join(", ");
      errorLine.textContent = `Please answer: ${names}.`;
      card
        .querySelector(`[name="${id}-q${missing[0]}"]`)
        ?.closest("fieldset")
        ?.querySelector("input")
        ?.focus();
      return;
    }
    void sending(card, errorLine, () => onVote(submit, answers));
  });
  return card;
}

/**
 * @param {Question} q
 * @param {number} i
 * @param {string} id
 */
function questionFieldset(q, i, id) {
  const name = `${id}-q${i}`;
  const type = q.multiSelect ? "checkbox" : "radio";
  const otherText = h("input", {
    type: "text",
    class: "other-text",
    "aria-label": `Your own answer${q.header ? ` for ${q.header}` : ""}`,
    placeholder: "Type your own answer",
    "data-other-for": name,
  });
  const otherChoice = h("input", { type, name, value: OTHER });
  // Typing an answer chooses "Other"; choosing "Other" moves the cursor to the text box.
  otherText.addEventListener("input", () => {
    if (otherText.value.trim()) otherChoice.checked = true;
  });
  otherChoice.addEventListener("change", () => {
    if (otherChoice.checked) otherText.focus();
  });
  return h(
    "fieldset",
    { class: "question-set" },
    h(
      "legend",
      {},
      q.header ? h("span", { class: "chip" }, q.header) : undefined,
      " ",
      h("span", { class: "question-text" }, q.question),
      q.multiSelect ? h("span", { class: "hint" }, " (choose any)") : undefined,
    ),
    ...q.options.map((o) =>
      h(
        "label",
        { class: "choice" },
        h("input", { type, name, value: o.label }),
        h(
          "span",
          { class: "choice-text" },
          h("strong", {}, o.label),
          o.description ? h("small", {}, o.description) : undefined,
        ),
      ),
    ),
    h(
      "label",
      { class: "choice other" },
      otherChoice,
      h("span", { class: "choice-text" }, h("strong", {}, "Other"), otherText),
    ),
  );
}

/**
 * @param {HTMLFormElement} card
 * @param {string} id
 * @param {number} i
 * @returns {import("./answers.js").Selection}
 */
function readSelection(card, id, i) {
  const name = `${id}-q${i}`;
  const checked = [...card.querySelectorAll(`input[name="${name}"]:checked`)].map(
    (el) => /** @type {HTMLInputElement} */ (el).value,
  );
  const picked = checked.filter((v) => v !== OTHER);
  if (!checked.includes(OTHER)) return { picked };
  const text = /** @type {HTMLInputElement | null} */ (card.querySelector(`input[data-other-for="${name}"]`));
  return { picked, other: text?.value ?? "" };
}

/**
 * @param {PermissionRequest} request
 * @param {VoteHandler} onVote
 * @returns {HTMLElement}
 */
export function permissionCard(request, onVote) {
  const id = domId(request.requestId);
  const call = request.toolCall ?? {};
  const errorLine = h("p", { class: "form-error", role: "alert" });
  const detail = toolContentText(call.content);
  const locations = Array.isArray(call.locations)
    ? call.locations.map((/** @type {any} */ l) => l?.path).filter(Boolean)
    : [];
  const card = h(
    "section",
    { class: "card permission", "data-request-id": request.requestId, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title`, tabindex: -1 }, "✋ Allow this action?"),
    h(
      "p",
      { class: "action" },
      h("strong", {}, call.title ?? call._meta?.toolName ?? "A tool call"),
      call.kind ? h("span", { class: "chip" }, call.kind) : undefined,
    ),
    locations.length > 0 ? h("p", { class: "muted" }, locations.join(", ")) : undefined,
    detail
      ? h(
          "details",
          { open: detail.split("\n").length <= 24 },
          h("summary", {}, "What it will do"),
          h("pre", {}, detail),
        )
      : undefined,
    errorLine,
  );
  card.append(
    h(
      "div",
      { class: "row" },
      ...request.options.map((option) =>
        h(
          "button",
          {
            type: "button",
            class: isApproval(option) ? "primary" : "secondary",
            onclick: () => sending(card, errorLine, () => onVote(option)),
          },
          optionLabel(option),
        ),
      ),
    ),
  );
  return card;
}
