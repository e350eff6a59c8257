import type { AgentContext, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { formatAskUserQuestionAnswers } from "@qwen-daemon/core";
import { PermissionResponse } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import { answersFromForm } from "./elicitation.js";
import { answersFromLabels, askByChoices, choiceSteps, readStepAnswer } from "./question-choices.js";
import { APPROACH, call, FEATURES, params, request } from "./testing/question-fixtures.js";

const selected = (optionId: string) =>
  PermissionResponse.parse({ outcome: { outcome: "selected", optionId } });
const cancelled = (reason?: string) =>
  PermissionResponse.parse({
    outcome: { outcome: "cancelled" },
    ...(reason ? { _meta: { "qwen.daemon.permissionCancelReason": reason } } : {}),
  });

describe("choiceSteps", () => {
  const steps = choiceSteps("s1", call, params);

  it("a single choice is one request: one allow_once per option named by its label, then Decline", () => {
    const [first] = steps;
    expect(first?.questionIndex).toBe(0);
    expect(first?.optionIndex).toBeUndefined();
    expect(first?.request).toEqual({
      sessionId: "s1",
      options: [
        { optionId: "choice_0", name: "A", kind: "allow_once" },
        { optionId: "choice_1", name: "B", kind: "allow_once" },
        { optionId: "decline", name: "Decline", kind: "reject_once" },
      ],
      toolCall: {
        toolCallId: "call_7",
        status: "pending",
        title: "Approach: Which approach? (question 1 of 2)",
        kind: "think",
        content: [
          {
            type: "content",
            content: { type: "text", text: "Which approach?\n\nA: the first\nB: the second" },
          },
        ],
        rawInput: params,
        _meta: { toolName: "ask_user_question" },
      },
    });
  });

  it("a multi-select is one Include/Skip request per option, in order, each naming its option; no Other", () => {
    const multi = steps.slice(1);
    expect(multi.map((s) => [s.questionIndex, s.optionIndex, s.request.toolCall.title])).toEqual([
      [1, 0, 'Features: include "Auth"? (question 2 of 2)'],
      [1, 1, 'Features: include "Search"? (question 2 of 2)'],
      [1, 2, 'Features: include "Export"? (question 2 of 2)'],
    ]);
    expect(multi[2]?.request.options).toEqual([
      { optionId: "include", name: "Include", kind: "allow_once" },
      { optionId: "skip", name: "Skip", kind: "reject_once" },
    ]);
    expect(JSON.stringify(multi[2]?.request.toolCall.content)).toContain("Export: csv");
    const names = steps.flatMap((s) => s.request.options.map((o) => o.name));
    expect(names.some((n) => /other/i.test(n))).toBe(false);
  });

  it("a lone question says no position", () => {
    const [only] = choiceSteps("s1", call, { questions: [APPROACH] });
    expect(only?.request.toolCall.title).toBe("Approach: Which approach?");
  });
});

describe("readStepAnswer", () => {
  const [single, include] = choiceSteps("s1", call, params);
  const one = single as NonNullable<typeof single>;
  const multi = include as NonNullable<typeof include>;

  it("reads the label of the option picked, Include as its option's label, Skip as nothing", () => {
    expect(readStepAnswer(one, APPROACH, selected("choice_1"))).toEqual({ kind: "label", label: "B" });
    expect(readStepAnswer(multi, FEATURES, selected("include"))).toEqual({ kind: "label", label: "Auth" });
    expect(readStepAnswer(multi, FEATURES, selected("skip"))).toEqual({ kind: "skipped" });
  });

  it("Decline, a plain cancel and options not offered are the user's no; timeout/session_closed nobody's", () => {
    expect(readStepAnswer(one, APPROACH, selected("decline"))).toEqual({ kind: "declined" });
    expect(readStepAnswer(one, APPROACH, selected("choice_9"))).toEqual({ kind: "declined" });
    expect(readStepAnswer(one, APPROACH, selected("include"))).toEqual({ kind: "declined" });
    expect(readStepAnswer(multi, FEATURES, selected("choice_0"))).toEqual({ kind: "declined" });
    expect(readStepAnswer(one, APPROACH, cancelled())).toEqual({ kind: "declined" });
    expect(readStepAnswer(one, APPROACH, cancelled("agent_cancelled"))).toEqual({ kind: "declined" });
    expect(readStepAnswer(one, APPROACH, cancelled("timeout"))).toEqual({
      kind: "unattended",
      reason: "timeout",
    });
  });
});

describe("answersFromLabels", () => {
  it("gives exactly what the form gives for the same choices", () => {
    const picked = [["B"], ["Export", "Auth"]];
    const answers = answersFromLabels(params, picked);
    expect(answers).toEqual({ "0": "B", "1": "Auth, Export" });
    expect(answers).toEqual(answersFromForm(params, { "0": "B", "1": ["Auth", "Export"] }));
    expect(formatAskUserQuestionAnswers(params, answers)).toBe(
      "User has provided the following answers:\n\n**Approach**: B\n**Features**: Auth, Export",
    );
    expect(answersFromLabels(params, [[], []])).toEqual({});
  });
});

describe("askByChoices", () => {
  /** A client answering each request with the next of `answers`; it records the requests it got. */
  const scriptedClient = (answers: unknown[], seen: RequestPermissionRequest[]) =>
    ({
      request: (method: string, p: RequestPermissionRequest) => {
        expect(method).toBe("session/request_permission");
        seen.push(p);
        return Promise.resolve(answers.shift());
      },
    }) as unknown as AgentContext;
  const ask = (client: AgentContext, signal = new AbortController().signal) =>
    askByChoices(client, "s1", request, {
      signal,
      connectionSignal: new AbortController().signal,
      log: () => {},
    });
  const pick = (optionId: string) => ({ outcome: { outcome: "selected", optionId } });

  it("asks one request at a time in order and answers with the labels picked", async () => {
    const seen: RequestPermissionRequest[] = [];
    const outcome = await ask(
      scriptedClient([pick("choice_0"), pick("include"), pick("skip"), pick("include")], seen),
    );
    expect(outcome).toEqual({ outcome: "approved", answers: { "0": "A", "1": "Auth, Export" } });
    expect(seen.map((r) => r.toolCall.title)).toEqual([
      "Approach: Which approach? (question 1 of 2)",
      'Features: include "Auth"? (question 2 of 2)',
      'Features: include "Search"? (question 2 of 2)',
      'Features: include "Export"? (question 2 of 2)',
    ]);
  });

  it("stops at the first decline (the batch is the user's no) and at an unattended end", async () => {
    const seen: RequestPermissionRequest[] = [];
    expect(await ask(scriptedClient([pick("decline")], seen))).toEqual({ outcome: "rejected" });
    expect(seen).toHaveLength(1);
    const timedOut = [
      pick("choice_1"),
      { outcome: { outcome: "cancelled" }, _meta: { "qwen.daemon.permissionCancelReason": "timeout" } },
    ];
    expect(await ask(scriptedClient(timedOut, []))).toEqual({ outcome: "unattended", reason: "timeout" });
    expect(await ask(scriptedClient([{ nonsense: true }], []))).toEqual({ outcome: "rejected" });
  });

  it("a cancelled prompt ends the batch unattended without asking further", async () => {
    const controller = new AbortController();
    const seen: RequestPermissionRequest[] = [];
    const client = {
      request: (_method: string, p: RequestPermissionRequest) => {
        seen.push(p);
        controller.abort();
        return Promise.reject(new Error("cancelled"));
      },
    } as unknown as AgentContext;
    expect(await ask(client, controller.signal)).toEqual({ outcome: "unattended", reason: "aborted" });
    expect(seen).toHaveLength(1);
  });
});
