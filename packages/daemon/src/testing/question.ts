// An ask_user_question permission request as the child sends it (docs/protocol.md "The agent process").
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";

export const QUESTIONS = [RED_BLUE_QUESTION];

export function questionRequest(sessionId: string, toolCallId = "call-q1"): Record<string, unknown> {
  return {
    sessionId,
    toolCall: {
      toolCallId,
      title: "Ask user 1 question(s)",
      kind: "think",
      rawInput: { questions: QUESTIONS },
      _meta: {
        toolName: "ask_user_question",
        qwenInteractionKind: "user_question",
        qwenQuestions: QUESTIONS,
      },
    },
    options: [
      { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
      { optionId: "cancel", name: "Cancel", kind: "reject_once" },
    ],
  };
}

export function editRequest(sessionId: string): Record<string, unknown> {
  return {
    sessionId,
    toolCall: {
      toolCallId: "call-e1",
      title: "Write notes.txt",
      kind: "edit",
      content: [{ type: "diff", path: "/w/notes.txt", oldText: null, newText: "hi" }],
      locations: [{ path: "/w/notes.txt" }],
      rawInput: { path: "notes.txt", content: "hi" },
      _meta: { toolName: "write_file" },
    },
    options: [
      { optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" },
      { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      { optionId: "cancel", name: "Reject", kind: "reject_once" },
    ],
  };
}
