// The question batch the child's question tests ask (a single choice, then a multi-select of three), as the
// tool's arguments and as the confirmation request core's turn loop hands the ACP layer. Test-only.
import type { AskUserQuestionParams, ConfirmationRequest } from "@qwen-daemon/core";

export const APPROACH = {
  question: "Which approach?",
  header: "Approach",
  options: [
    { label: "A", description: "the first" },
    { label: "B", description: "the second" },
  ],
};

export const FEATURES = {
  question: "Which features?",
  header: "Features",
  options: [
    { label: "Auth", description: "log in" },
    { label: "Search", description: "find things" },
    { label: "Export", description: "csv" },
  ],
  multiSelect: true,
};

export const params: AskUserQuestionParams = { questions: [APPROACH, FEATURES] };
export const call: ConfirmationRequest["call"] = { id: "call_7", name: "ask_user_question", args: params };
export const request: ConfirmationRequest = {
  call,
  kind: "user_question",
  description: { title: "Ask user 2 questions", uiKind: "think" },
};
