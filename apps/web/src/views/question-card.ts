// The card for an ask_user_question: one fieldset per question (radio or checkbox choices plus an "Other"
// with free text), Submit and the decline option. It starts from the selection kept for the question (so a
// restore or a reload shows what was picked before), reports every change so it is kept, and is disabled
// while the daemon is away or a vote is in flight.
import {
  collectAnswers,
  optionLabel,
  type PermissionOption,
  type Question,
  questionActions,
  type Selection,
} from "../interactions/answers.js";
import type { Interaction } from "../interactions/interaction.js";
import type { CardState } from "../session/controller-types.js";
import { domId, h } from "./dom.js";
import { icon } from "./icons.js";

const OTHER = "__other__";

export type CardHandlers = {
  selection: Selection[] | undefined;
  onChange: (selections: Selection[]) => void;
  onVote: (option: PermissionOption, answers?: Record<string, string>) => void;
};

export type CardView = {
  el: HTMLElement;
  heading: HTMLElement;
  update(state: CardState, canAct: boolean): void;
};

export function questionCard(interaction: Interaction, handlers: CardHandlers): CardView {
  const { questions } = interaction;
  const id = domId("req", interaction.requestId);
  const { submit, decline } = questionActions(interaction.request.options);
  const errorLine = h("p", { class: "form-error", role: "alert" });
  const statusLine = h("p", { class: "card-status", "aria-live": "polite" });
  const fieldsets = questions.map((q, i) => questionFieldset(q, i, id));
  const titleText =
    questions.length > 1 ? `The agent asks you ${questions.length} questions` : "The agent asks you";
  const heading = h(
    "h2",
    { id: `${id}-title`, class: "card-title", tabindex: -1 },
    icon("question"),
    h("span", {}, titleText),
  );
  const submitButton = submit
    ? h("button", { type: "submit", class: "primary" }, optionLabel(submit))
    : undefined;
  const declineButton = decline
    ? h(
        "button",
        { type: "button", class: "secondary", onclick: () => handlers.onVote(decline) },
        optionLabel(decline),
      )
    : undefined;
  const card = h(
    "form",
    {
      class: `card question${interaction.restored ? " restored" : ""}`,
      "data-request-id": interaction.requestId,
      "aria-labelledby": `${id}-title`,
      novalidate: true,
    },
    h(
      "div",
      { class: "card-head" },
      heading,
      interaction.restored
        ? h("span", { class: "tag restored-tag" }, icon("restart"), "Asked again after a restart")
        : undefined,
    ),
    h("div", { class: "card-body" }, ...fieldsets),
    h(
      "div",
      { class: "card-foot" },
      errorLine,
      statusLine,
      h("div", { class: "card-actions" }, declineButton, submitButton),
    ),
  );

  const read = () => questions.map((_, i) => readSelection(card, id, i));
  if (handlers.selection) applySelection(card, id, handlers.selection);
  card.addEventListener("input", () => handlers.onChange(read()));
  card.addEventListener("change", () => handlers.onChange(read()));
  // Enter on a choice submits, as it does in the text box (browsers differ on radios and checkboxes).
  card.addEventListener("keydown", (e) => {
    const target = e.target as HTMLElement;
    if (e.key === "Enter" && target instanceof HTMLInputElement && target.type !== "text") {
      e.preventDefault();
      card.requestSubmit();
    }
  });
  card.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!submit) return;
    const { answers, missing } = collectAnswers(questions, read());
    if (missing.length > 0) {
      const names = missing.map((i) => questions[i]?.header ?? `question ${i + 1}`).join(", ");
      errorLine.textContent = `Please answer: ${names}.`;
      card.querySelector<HTMLInputElement>(`input[name="${id}-q${missing[0]}"]`)?.focus();
      return;
    }
    handlers.onVote(submit, answers);
  });

  return {
    el: card,
    heading,
    update(state, canAct) {
      const off = state.sending || !canAct;
      for (const f of card.querySelectorAll("fieldset")) f.disabled = off;
      for (const b of card.querySelectorAll("button")) b.disabled = off;
      card.toggleAttribute("aria-busy", state.sending);
      card.classList.toggle("paused", !canAct);
      errorLine.textContent =
        state.error ?? (errorLine.textContent?.startsWith("Please answer") ? errorLine.textContent : "");
      statusLine.textContent = state.sending ? "Sending…" : (state.status ?? "");
    },
  };
}

function questionFieldset(q: Question, i: number, id: string): HTMLFieldSetElement {
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
      h("span", { class: "question-text" }, q.question),
      q.multiSelect ? h("span", { class: "hint" }, " (choose any)") : undefined,
    ),
    h(
      "div",
      { class: "choices" },
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
    ),
  );
}

function readSelection(card: HTMLFormElement, id: string, i: number): Selection {
  const name = `${id}-q${i}`;
  const checked = [...card.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map(
    (el) => el.value,
  );
  const picked = checked.filter((v) => v !== OTHER);
  const text = card.querySelector<HTMLInputElement>(`input[data-other-for="${name}"]`)?.value ?? "";
  if (checked.includes(OTHER)) return { picked, other: text };
  // Typed but "Other" not chosen: kept in the draft, never sent.
  return text ? { picked, typed: text } : { picked };
}

function applySelection(card: HTMLFormElement, id: string, selections: Selection[]): void {
  selections.forEach((selection, i) => {
    const name = `${id}-q${i}`;
    for (const input of card.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`)) {
      input.checked =
        input.value === OTHER ? selection.other !== undefined : selection.picked.includes(input.value);
    }
    const text = card.querySelector<HTMLInputElement>(`input[data-other-for="${name}"]`);
    const typed = selection.other ?? selection.typed;
    if (text && typed !== undefined) text.value = typed;
  });
}
