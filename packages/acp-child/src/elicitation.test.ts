import { type AgentContext, CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { formatAskUserQuestionAnswers } from "@qwen-daemon/core";
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import {
  answersFromForm,
  askByElicitation,
  buildQuestionElicitation,
  ElicitationResponse,
  interpretElicitationResponse,
} from "./elicitation.js";
import { APPROACH, call, FEATURES, params, request } from "./testing/question-fixtures.js";

const response = (value: unknown) => ElicitationResponse.parse(value);
const enumOption = (o: { label: string; description: string }) => ({
  const: o.label,
  title: o.label,
  description: o.description,
});

describe("buildQuestionElicitation", () => {
  it("is a session- and tool-call-scoped form: a choice and an 'other' text per question", () => {
    const built = buildQuestionElicitation("s1", call, params);
    expect(built).toEqual({
      mode: "form",
      sessionId: "s1",
      toolCallId: "call_7",
      message: "Ask user 2 questions",
      requestedSchema: {
        type: "object",
        title: "Ask user 2 questions",
        properties: {
          "0": {
            type: "string",
            title: "Approach",
            description: "Which approach?",
            oneOf: APPROACH.options.map(enumOption),
          },
          "0_other": {
            type: "string",
            title: "Approach: other answer",
            description: "Optional: your own answer, used instead of the option you picked.",
          },
          "1": {
            type: "array",
            title: "Features",
            description: "Which features? (choose any)",
            items: { anyOf: FEATURES.options.map(enumOption) },
          },
          "1_other": {
            type: "string",
            title: "Features: other answer",
            description: "Optional: your own answer, added to the options you picked.",
          },
        },
      },
      _meta: {
        toolName: "ask_user_question",
        qwenInteractionKind: "user_question",
        qwenQuestions: params.questions,
      },
    });
    // The SDK's own guard agrees it is a valid form elicitation.
    expect(CreateElicitationRequest.isForm(built)).toBe(true);
  });

  it("uses the question itself as the message of a single question", () => {
    expect(buildQuestionElicitation("s1", call, { questions: [{ ...RED_BLUE_QUESTION }] }).message).toBe(
      "Which color?",
    );
  });
});

describe("answersFromForm", () => {
  it("takes a single select's label, and 'other' text instead of it", () => {
    expect(answersFromForm(params, { "0": "B" })).toEqual({ "0": "B" });
    expect(answersFromForm(params, { "0": "B", "0_other": "  neither, C  " })).toEqual({ "0": "neither, C" });
    expect(answersFromForm(params, { "0_other": "C" })).toEqual({ "0": "C" });
  });

  it("joins a multi-select in the question's order, with 'other' last", () => {
    expect(answersFromForm(params, { "1": ["Export", "Auth"] })).toEqual({ "1": "Auth, Export" });
    expect(answersFromForm(params, { "1": ["Search"], "1_other": "Dark mode" })).toEqual({
      "1": "Search, Dark mode",
    });
  });

  it("ignores labels not offered, wrong types and blank text; an unanswered question is missing", () => {
    expect(answersFromForm(params, { "0": "Z", "1": "Auth", "0_other": 3, "1_other": "   " })).toEqual({
      "1": "Auth",
    });
    expect(answersFromForm(params, { "1": [] })).toEqual({});
    expect(answersFromForm(params, null)).toEqual({});
  });
});

describe("interpretElicitationResponse", () => {
  it("accept gives exactly the answer text of the permission path", () => {
    const outcome = interpretElicitationResponse(
      response({ action: "accept", content: { "0": "B", "1": ["Auth", "Search"] } }),
      params,
    );
    expect(outcome).toEqual({ outcome: "approved", answers: { "0": "B", "1": "Auth, Search" } });
    expect(formatAskUserQuestionAnswers(params, outcome.outcome === "approved" ? outcome.answers : {})).toBe(
      "User has provided the following answers:\n\n**Approach**: B\n**Features**: Auth, Search",
    );
  });

  it("accept with nothing usable is answered, with no valid answers (as a Submit without answers)", () => {
    expect(interpretElicitationResponse(response({ action: "accept" }), params)).toEqual({
      outcome: "approved",
      answers: {},
    });
  });

  it("decline and cancel are the user's no; cancel with the daemon's timeout/session_closed is unattended", () => {
    expect(interpretElicitationResponse(response({ action: "decline" }), params)).toEqual({
      outcome: "rejected",
    });
    expect(interpretElicitationResponse(response({ action: "cancel" }), params)).toEqual({
      outcome: "rejected",
    });
    expect(
      interpretElicitationResponse(
        response({ action: "cancel", _meta: { "qwen.daemon.permissionCancelReason": "timeout" } }),
        params,
      ),
    ).toEqual({ outcome: "unattended", reason: "timeout" });
    expect(interpretElicitationResponse(response({ action: "_custom" }), params)).toEqual({
      outcome: "rejected",
    });
  });
});

describe("askByElicitation", () => {
  const clientAnswering = (answer: unknown, seen: { method?: string; params?: unknown } = {}) =>
    ({
      request: (method: string, p: unknown, options: { cancellationSignal: AbortSignal }) => {
        seen.method = method;
        seen.params = p;
        return options.cancellationSignal.aborted
          ? Promise.reject(new Error("cancelled"))
          : Promise.resolve(answer);
      },
    }) as unknown as AgentContext;
  const ask = (client: AgentContext, signal = new AbortController().signal) =>
    askByElicitation(client, "s1", request, {
      signal,
      connectionSignal: new AbortController().signal,
      log: () => {},
    });

  it("sends elicitation/create and maps the answer", async () => {
    const seen: { method?: string; params?: unknown } = {};
    expect(await ask(clientAnswering({ action: "accept", content: { "0": "A" } }, seen))).toEqual({
      outcome: "approved",
      answers: { "0": "A" },
    });
    expect(seen.method).toBe("elicitation/create");
    expect(seen.params).toMatchObject({ mode: "form", sessionId: "s1", toolCallId: "call_7" });
  });

  it("a malformed answer is declined; a cancel right behind a prompt cancel is the prompt's abort", async () => {
    expect(await ask(clientAnswering({ content: {} }))).toEqual({ outcome: "rejected" });
    const controller = new AbortController();
    const answer = ask(clientAnswering({ action: "cancel" }), controller.signal);
    void Promise.resolve().then(() => controller.abort());
    expect(await answer).toEqual({ outcome: "unattended", reason: "aborted" });
  });
});
