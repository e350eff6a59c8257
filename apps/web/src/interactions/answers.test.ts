import { describe, expect, it } from "vitest";
import {
  answerLines,
  answerText,
  collectAnswers,
  isApproval,
  optionLabel,
  type PermissionRequest,
  type Question,
  questionActions,
  questionsOf,
  voteBody,
} from "./answers.js";

const options = [
  { label: "Short note", description: "One line." },
  { label: "Detailed note", description: "More." },
  { label: "Checklist", description: "To-do." },
];
const single: Question = { question: "How?", header: "Format", options, multiSelect: false };
const multi: Question = { question: "Which?", header: "Parts", options, multiSelect: true };

const submitCancel = [
  { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
  { optionId: "cancel", name: "Cancel", kind: "reject_once" },
];

describe("questionsOf", () => {
  it("reads _meta.qwenQuestions of a user_question request", () => {
    const request: PermissionRequest = {
      requestId: "r",
      options: submitCancel,
      toolCall: { _meta: { qwenInteractionKind: "user_question", qwenQuestions: [single] } },
    };
    expect(questionsOf(request)).toEqual([single]);
  });

  it("falls back to the tool's raw input and drops malformed entries", () => {
    const request: PermissionRequest = {
      requestId: "r",
      options: submitCancel,
      toolCall: {
        _meta: { toolName: "ask_user_question" },
        rawInput: { questions: [{ question: "Q", options: [{ label: "a" }, { nope: 1 }] }, { bad: true }] },
      },
    };
    expect(questionsOf(request)).toEqual([
      {
        question: "Q",
        header: undefined,
        options: [{ label: "a", description: undefined }],
        multiSelect: false,
      },
    ]);
  });

  it("is empty for an ordinary tool permission", () => {
    expect(
      questionsOf({
        requestId: "r",
        options: [],
        toolCall: { _meta: { toolName: "write_file" }, rawInput: {} },
      }),
    ).toEqual([]);
  });
});

describe("answers", () => {
  it("single choice: the picked label, or the typed Other text", () => {
    expect(answerText(single, { picked: ["Checklist"] })).toBe("Checklist");
    expect(answerText(single, { picked: [], other: "  a poem  " })).toBe("a poem");
    expect(answerText(single, { picked: [], other: "   " })).toBeUndefined();
    expect(answerText(single, { picked: [] })).toBeUndefined();
    // Text typed in the Other box while Other is not chosen is a draft, not an answer.
    expect(answerText(single, { picked: ["Checklist"], typed: "a poem" })).toBe("Checklist");
    expect(answerText(single, { picked: [], typed: "a poem" })).toBeUndefined();
  });

  it("multi choice: labels in the question's order joined with ', ', Other text last", () => {
    expect(answerText(multi, { picked: ["Checklist", "Short note"] })).toBe("Short note, Checklist");
    expect(answerText(multi, { picked: ["Detailed note"], other: "haiku" })).toBe("Detailed note, haiku");
  });

  it("keys answers by question index and lists the unanswered ones", () => {
    expect(collectAnswers([single, multi, single], [{ picked: ["Short note"] }, { picked: [] }])).toEqual({
      answers: { "0": "Short note" },
      missing: [1, 2],
    });
    expect(
      collectAnswers([single, multi], [{ picked: [], other: "x" }, { picked: ["Checklist"] }]).answers,
    ).toEqual({
      "0": "x",
      "1": "Checklist",
    });
  });
});

describe("votes", () => {
  it("selects the option and sends answers only with an approving option", () => {
    const [submit, cancel] = submitCancel as [(typeof submitCancel)[0], (typeof submitCancel)[0]];
    expect(voteBody(submit, { "0": "Checklist" })).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "Checklist" },
    });
    expect(voteBody(cancel, { "0": "Checklist" })).toEqual({
      outcome: { outcome: "selected", optionId: "cancel" },
    });
    expect(voteBody({ optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" })).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_always" },
    });
  });

  it("tells approving from declining options, by kind or else by id", () => {
    expect(isApproval({ optionId: "x", kind: "allow_always" })).toBe(true);
    expect(isApproval({ optionId: "proceed_once", kind: "reject_once" })).toBe(false);
    expect(isApproval({ optionId: "proceed_once" })).toBe(true);
    expect(isApproval({ optionId: "cancel" })).toBe(false);
    expect(questionActions(submitCancel)).toEqual({ submit: submitCancel[0], decline: submitCancel[1] });
  });

  it("labels an option by its ACP name, else the status snapshot's label, else its id", () => {
    expect(optionLabel({ optionId: "a", name: "Allow" })).toBe("Allow");
    expect(optionLabel({ optionId: "a", label: "Submit" })).toBe("Submit");
    expect(optionLabel({ optionId: "a" })).toBe("a");
  });

  it("reads answers back as lines, header first, skipping what was not answered", () => {
    const noHeader: Question = { question: "Why?", options };
    expect(answerLines([single, noHeader, multi], { "0": "Checklist", "1": "Because", "2": "" })).toEqual([
      { label: "Format", value: "Checklist" },
      { label: "Question 2", value: "Because" },
    ]);
    expect(answerLines([single], undefined)).toEqual([]);
    expect(answerLines([single], { "0": 7 })).toEqual([]);
  });
});
