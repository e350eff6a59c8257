import { describe, expect, it } from "vitest";
import {
  ASK_USER_QUESTION_CANCELLED_TEXT,
  ASK_USER_QUESTION_DECLINED_TEXT,
  ASK_USER_QUESTION_NON_INTERACTIVE_TEXT,
  ASK_USER_QUESTION_TOOL_NAME,
  answerKey,
  askUserQuestionTitle,
  formatAskUserQuestionAnswers,
  parseAnswerKey,
  TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
  toolCanceledByUserText,
} from "./ask-user-question-result.js";

const q = (header: string) => ({
  question: `${header}?`,
  header,
  options: [
    { label: "a", description: "a" },
    { label: "b", description: "b" },
  ],
});
const two = { questions: [q("Auth method"), q("Library")] };

describe("exact texts", () => {
  it("names the tool", () => {
    expect(ASK_USER_QUESTION_TOOL_NAME).toBe("ask_user_question");
  });
  it("has the cancel, abort, non-interactive and decline texts", () => {
    expect(ASK_USER_QUESTION_CANCELLED_TEXT).toBe('Tool "ask_user_question" was canceled by the user.');
    expect(toolCanceledByUserText("edit")).toBe('Tool "edit" was canceled by the user.');
    expect(TOOL_CANCELLED_BEFORE_EXECUTION_TEXT).toBe("Tool call was cancelled before execution.");
    expect(ASK_USER_QUESTION_NON_INTERACTIVE_TEXT).toBe(
      "Cannot ask user questions in non-interactive mode without ACP support. Please run in interactive mode or enable ACP mode to use this tool.",
    );
    expect(ASK_USER_QUESTION_DECLINED_TEXT).toBe("User declined to answer the questions.");
  });
});

describe("formatAskUserQuestionAnswers", () => {
  it("formats one answer", () => {
    expect(formatAskUserQuestionAnswers({ questions: [q("Library")] }, { "0": "date-fns" })).toBe(
      "User has provided the following answers:\n\n**Library**: date-fns",
    );
  });
  it("joins several answers with a single newline, in question order", () => {
    expect(formatAskUserQuestionAnswers(two, { "1": "zod", "0": "OAuth" })).toBe(
      "User has provided the following answers:\n\n**Auth method**: OAuth\n**Library**: zod",
    );
  });
  it("skips unanswered questions", () => {
    expect(formatAskUserQuestionAnswers(two, { "1": "zod" })).toBe(
      "User has provided the following answers:\n\n**Library**: zod",
    );
  });
  it("keeps an answer containing ** or newlines intact", () => {
    expect(formatAskUserQuestionAnswers(two, { "0": "**bold** and\nmore**" })).toBe(
      "User has provided the following answers:\n\n**Auth method**: **bold** and\nmore**",
    );
  });
  it("keeps an empty answer, as the reference does", () => {
    expect(formatAskUserQuestionAnswers(two, { "0": "" })).toBe(
      "User has provided the following answers:\n\n**Auth method**: ",
    );
  });
  it.each([
    ["leading zero", { "01": "x" }],
    ["leading space", { " 1": "x" }],
    ["trailing space", { "1 ": "x" }],
    ["decimal", { "1.0": "x" }],
    ["exponent", { "1e0": "x" }],
    ["negative", { "-1": "x" }],
    ["negative zero", { "-0": "x" }],
    ["out of range", { "2": "x" }],
    ["far out of range", { "9007199254740993": "x" }],
    ["a word", { first: "x" }],
    ["empty key", { "": "x" }],
    ["no answers at all", {}],
  ])("ignores %s", (_name, answers) => {
    expect(formatAskUserQuestionAnswers(two, answers)).toBe(
      "User has provided the following answers:\n\nNo valid answers were provided.",
    );
  });
  it("keeps the valid answers beside ignored keys", () => {
    expect(formatAskUserQuestionAnswers(two, { "01": "no", "1": "yes", "5": "no" })).toBe(
      "User has provided the following answers:\n\n**Library**: yes",
    );
  });
  it("ignores non-string values and inherited keys", () => {
    const answers = Object.create({ "0": "inherited" }) as Record<string, string>;
    (answers as Record<string, unknown>)["1"] = 42;
    expect(formatAskUserQuestionAnswers(two, answers)).toBe(
      "User has provided the following answers:\n\nNo valid answers were provided.",
    );
  });
  it("treats missing answers as none", () => {
    expect(formatAskUserQuestionAnswers(two, undefined)).toBe(
      "User has provided the following answers:\n\nNo valid answers were provided.",
    );
  });
  it("falls back to `Question N` for an empty or missing header", () => {
    const params = { questions: [{ question: "a?", header: "" }, { question: "b?" }, { header: " " }] };
    expect(formatAskUserQuestionAnswers(params, { "0": "x", "1": "y", "2": "z" })).toBe(
      "User has provided the following answers:\n\n**Question 1**: x\n**Question 2**: y\n** **: z",
    );
  });
});

describe("answer keys", () => {
  it("answerKey is the decimal index", () => {
    expect([0, 1, 2, 3].map(answerKey)).toEqual(["0", "1", "2", "3"]);
  });
  it("parseAnswerKey accepts canonical in-range keys only", () => {
    expect(parseAnswerKey("0", 1)).toBe(0);
    expect(parseAnswerKey("3", 4)).toBe(3);
    expect(parseAnswerKey("4", 4)).toBeUndefined();
    expect(parseAnswerKey("01", 4)).toBeUndefined();
    expect(parseAnswerKey("0x1", 4)).toBeUndefined();
    expect(parseAnswerKey("", 4)).toBeUndefined();
    expect(parseAnswerKey("Infinity", 4)).toBeUndefined();
  });
});

describe("askUserQuestionTitle", () => {
  it.each([
    [1, "Ask user 1 question"],
    [2, "Ask user 2 questions"],
    [4, "Ask user 4 questions"],
    [0, "Ask user 0 question"],
  ])("%i question(s)", (count, title) => {
    expect(askUserQuestionTitle({ questions: Array.from({ length: count }, () => q("h")) })).toBe(title);
  });
});
