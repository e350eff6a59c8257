import type { RestoreTail } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { restoreReportOf } from "./restore-report.js";

const idle = { promptActive: false, pendingPromptCount: 0 };
const busy = { promptActive: true, pendingPromptCount: 1 };
const ON = { question: true, approvals: true };
const answered = (needs: { question: boolean; approvals: boolean }): RestoreTail => ({
  kind: "answered_unseen",
  needs,
  covered: true,
  callIds: ["c1"],
});
const question: RestoreTail = { kind: "restorable_question", calls: [] };
const approvals = (withQuestion: boolean): RestoreTail => ({
  kind: "restorable_approvals",
  found: {
    calls: [
      ...(withQuestion
        ? [
            {
              call: { id: "q1", name: "ask_user_question" },
              kind: "user_question" as const,
              decision: "re_ask" as const,
            },
          ]
        : []),
      { call: { id: "c1", name: "run_shell_command" }, kind: "exec", decision: "re_ask" },
    ],
    reAsk: [],
    closedAsStarted: [],
    answeredCallIds: [],
  },
});
const report = (tail: RestoreTail, over: Partial<Parameters<typeof restoreReportOf>[0]> = {}) =>
  restoreReportOf({
    tail,
    switches: ON,
    requestedClientId: "client_1",
    activity: idle,
    admittedPromptId: undefined,
    ...over,
  });

describe("restoreReportOf", () => {
  it("says nothing for an end no restore concerns", () => {
    expect(report({ kind: "idle" })).toBeUndefined();
    expect(report({ kind: "interrupted" })).toBeUndefined();
  });

  it("names the admitted restore: asked again, or the answered turn continued", () => {
    expect(report(question, { admittedPromptId: "p9" })).toEqual({
      tail: "user_question",
      action: "asked_again",
      promptId: "p9",
    });
    expect(report(approvals(false), { admittedPromptId: "p9" })).toMatchObject({
      tail: "pending_approvals",
      action: "asked_again",
    });
    expect(report(answered({ question: true, approvals: false }), { admittedPromptId: "p9" })).toEqual({
      tail: "answered",
      action: "continued",
      promptId: "p9",
    });
  });

  it("says why not: the switch its answers need, no client, a busy session, else the agent did not offer it", () => {
    const a = answered({ question: true, approvals: true });
    const notRestored = (reason: string) => ({ tail: "answered", action: "not_restored", reason });
    expect(report(a, { switches: { question: true, approvals: false } })).toEqual(notRestored("switch_off"));
    expect(report(a, { switches: { question: false, approvals: true } })).toEqual(notRestored("switch_off"));
    expect(report(a, { requestedClientId: undefined })).toEqual(notRestored("no_client"));
    expect(report(a, { activity: busy })).toEqual(notRestored("busy"));
    expect(report(a)).toEqual(notRestored("not_offered"));
    expect(report(question, { switches: { question: false, approvals: true } })).toMatchObject({
      reason: "switch_off",
    });
    // A batch mixing an approval with a question needs both switches.
    expect(report(approvals(true), { switches: { question: false, approvals: true } })).toMatchObject({
      reason: "switch_off",
    });
    expect(report(approvals(false), { switches: { question: false, approvals: true } })).toMatchObject({
      reason: "not_offered",
    });
  });
});
