import type { Content, TranscriptRecord } from "@qwen-daemon/core";
import { DEFAULT_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { continueDecision, restoreHintMeta, shouldHintRestore } from "./restore.js";

const questionArgs = { questions: [DEFAULT_QUESTION] };
const askEntry: Content = {
  role: "model",
  parts: [{ functionCall: { id: "q1", name: "ask_user_question", args: questionArgs } }],
};

let n = 0;
function record(message: Content, type: "user" | "assistant" | "tool_result"): TranscriptRecord {
  n++;
  return {
    uuid: `r${n}`,
    parentUuid: n > 1 ? `r${n - 1}` : null,
    sessionId: "s",
    timestamp: "t",
    cwd: "/w",
    version: "v",
    type,
    message,
  } as TranscriptRecord;
}
const userText = (text: string): Content => ({ role: "user", parts: [{ text }] });

describe("shouldHintRestore", () => {
  const on = { restoreSwitch: true, suppress: false, promptActive: false, restorable: () => true };
  it("hints only with the switch on, not suppressed, idle, and a restorable question", () => {
    expect(shouldHintRestore(on)).toBe(true);
    expect(shouldHintRestore({ ...on, restoreSwitch: false })).toBe(false);
    expect(shouldHintRestore({ ...on, suppress: true })).toBe(false);
    expect(shouldHintRestore({ ...on, promptActive: true })).toBe(false);
    expect(shouldHintRestore({ ...on, restorable: () => false })).toBe(false);
  });

  it("never calls the restore-only check with the switch off", () => {
    const restorable = () => {
      throw new Error("must not be called");
    };
    expect(shouldHintRestore({ ...on, restoreSwitch: false, restorable })).toBe(false);
  });
});

describe("restoreHintMeta", () => {
  const QUESTION = { "qwen.daemon.restoreAskUserQuestion": true };
  const APPROVALS = { "qwen.daemon.restorePendingApprovals": true };
  const hint = (
    answered: "question" | "approvals" | undefined,
    over: {
      switches?: { question: boolean; approvals: boolean };
      suppress?: { question: boolean; approvals: boolean };
      promptActive?: boolean;
    } = {},
  ) =>
    restoreHintMeta({
      switches: over.switches ?? { question: true, approvals: true },
      suppress: over.suppress ?? { question: false, approvals: false },
      promptActive: over.promptActive ?? false,
      restorable: () => false,
      answeredTail: () => answered,
    });

  it("hints an answered tail under the switch of its answers", () => {
    expect(hint("question")).toEqual(QUESTION);
    expect(hint("approvals")).toEqual(APPROVALS);
    expect(hint(undefined)).toBeUndefined();
  });

  it("never hints it with its switch off, suppressed, or a prompt running", () => {
    expect(hint("question", { switches: { question: false, approvals: true } })).toBeUndefined();
    expect(hint("approvals", { switches: { question: true, approvals: false } })).toBeUndefined();
    expect(hint("question", { suppress: { question: true, approvals: false } })).toBeUndefined();
    expect(hint("approvals", { suppress: { question: false, approvals: true } })).toBeUndefined();
    expect(hint("question", { promptActive: true })).toBeUndefined();
  });
});

describe("continueDecision", () => {
  const dangling = [record(userText("do it"), "user"), record(askEntry, "assistant")];

  it("refuses while a restorable question trails and the switch is on", () => {
    expect(
      continueDecision({
        restoreSwitch: true,
        restorable: () => true,
        promptActive: false,
        records: dangling,
      }),
    ).toEqual({
      accepted: false,
      interruption: "none",
    });
  });

  it("classifies from the persisted history otherwise", () => {
    expect(
      continueDecision({
        restoreSwitch: false,
        restorable: () => true,
        promptActive: false,
        records: dangling,
      }),
    ).toEqual({
      accepted: true,
      interruption: "interrupted_turn",
    });
    expect(
      continueDecision({
        restoreSwitch: false,
        restorable: () => false,
        promptActive: false,
        records: [record(userText("hi"), "user")],
      }),
    ).toEqual({ accepted: true, interruption: "interrupted_prompt" });
    const clean = [
      record(userText("hi"), "user"),
      record({ role: "model", parts: [{ text: "hello" }] }, "assistant"),
    ];
    expect(
      continueDecision({
        restoreSwitch: false,
        restorable: () => false,
        promptActive: false,
        records: clean,
      }),
    ).toEqual({
      accepted: false,
      interruption: "none",
    });
  });

  it("does not accept while a prompt runs", () => {
    expect(
      continueDecision({
        restoreSwitch: false,
        restorable: () => false,
        promptActive: true,
        records: dangling,
      }),
    ).toEqual({
      accepted: false,
      interruption: "interrupted_turn",
    });
  });
});
