import type { AgentContext } from "@agentclientprotocol/sdk";
import type { ConfirmationRequest } from "@qwen-daemon/core";
import { PermissionResponse } from "@qwen-daemon/core/protocol";
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import {
  askClient,
  buildPermissionRequest,
  interpretPermissionResponse,
  permissionOptions,
} from "./permissions.js";

const questions = [
  RED_BLUE_QUESTION,
  {
    question: "Size?",
    header: "Size",
    options: [
      { label: "S", description: "s" },
      { label: "L", description: "l" },
    ],
    multiSelect: false,
  },
];

const questionRequest: ConfirmationRequest = {
  call: { id: "call_1", name: "ask_user_question", args: { questions } },
  kind: "user_question",
  description: { title: "whatever core says", uiKind: "think" },
};

const parse = (value: unknown) => PermissionResponse.parse(value);

describe("buildPermissionRequest", () => {
  it("builds the question shape of docs/protocol.md", () => {
    expect(buildPermissionRequest("s1", questionRequest)).toEqual({
      sessionId: "s1",
      options: [
        { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
        { optionId: "cancel", name: "Cancel", kind: "reject_once" },
      ],
      toolCall: {
        toolCallId: "call_1",
        status: "pending",
        title: "Ask user 2 questions",
        kind: "think",
        content: [],
        locations: [],
        rawInput: { questions },
        _meta: {
          toolName: "ask_user_question",
          qwenInteractionKind: "user_question",
          qwenQuestions: questions,
        },
      },
    });
  });

  it("offers allow always / allow / reject for edits, with the diff and locations", () => {
    const request = buildPermissionRequest("s1", {
      call: { id: "e1", name: "edit", args: { path: "a.txt" } },
      kind: "edit",
      description: {
        title: "Edit a.txt",
        uiKind: "edit",
        locations: [{ path: "/w/a.txt" }],
        diff: { path: "/w/a.txt", oldText: "x", newText: "y" },
      },
    });
    expect(request.options.map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ["proceed_always", "Allow All Edits", "allow_always"],
      ["proceed_once", "Allow", "allow_once"],
      ["cancel", "Reject", "reject_once"],
    ]);
    expect(request.toolCall).toMatchObject({
      title: "Edit a.txt",
      kind: "edit",
      content: [{ type: "diff", path: "/w/a.txt", oldText: "x", newText: "y" }],
      locations: [{ path: "/w/a.txt" }],
      _meta: { toolName: "edit" },
    });
    expect(request.toolCall._meta).not.toHaveProperty("qwenInteractionKind");
  });

  it("offers the same three choices for commands", () => {
    expect(permissionOptions("exec").map((o) => o.optionId)).toEqual([
      "proceed_always",
      "proceed_once",
      "cancel",
    ]);
  });
});

describe("interpretPermissionResponse", () => {
  const offered = permissionOptions("user_question");

  it("returns the top-level answers of a submitted question", () => {
    const outcome = interpretPermissionResponse(
      parse({
        outcome: { outcome: "selected", optionId: "proceed_once" },
        answers: { "0": "Blue", "1": "L", x: 3 },
      }),
      offered,
    );
    expect(outcome).toEqual({ outcome: "approved", answers: { "0": "Blue", "1": "L" } });
  });

  it("reads a plain cancel as the user's decline", () => {
    expect(interpretPermissionResponse(parse({ outcome: { outcome: "cancelled" } }), offered)).toEqual({
      outcome: "rejected",
    });
  });

  it.each([
    ["timeout", { outcome: "unattended", reason: "timeout" }],
    ["session_closed", { outcome: "unattended", reason: "session_closed" }],
    // The reference daemon's Cancel vote: a decline (a prompt cancel is read from the turn's signal).
    ["agent_cancelled", { outcome: "rejected" }],
    ["something_else", { outcome: "rejected" }],
  ])("maps cancel reason %s", (reason, expected) => {
    const response = parse({
      outcome: { outcome: "cancelled" },
      _meta: { "qwen.daemon.permissionCancelReason": reason },
    });
    expect(interpretPermissionResponse(response, offered)).toEqual(expected);
  });

  it("also finds the cancel reason on the outcome's _meta", () => {
    const response = parse({
      outcome: { outcome: "cancelled", _meta: { "qwen.daemon.permissionCancelReason": "timeout" } },
    });
    expect(interpretPermissionResponse(response, offered)).toEqual({
      outcome: "unattended",
      reason: "timeout",
    });
  });

  it("maps allow always, and refuses an option that was not offered", () => {
    const edit = permissionOptions("edit");
    expect(
      interpretPermissionResponse(
        parse({ outcome: { outcome: "selected", optionId: "proceed_always" } }),
        edit,
      ),
    ).toEqual({
      outcome: "approved_always",
    });
    expect(
      interpretPermissionResponse(
        parse({ outcome: { outcome: "selected", optionId: "proceed_always" } }),
        offered,
      ),
    ).toEqual({
      outcome: "rejected",
    });
    expect(
      interpretPermissionResponse(parse({ outcome: { outcome: "selected", optionId: "cancel" } }), offered),
    ).toEqual({
      outcome: "rejected",
    });
  });

  it("rejects a malformed response at the schema", () => {
    expect(PermissionResponse.safeParse({ outcome: { outcome: "maybe" } }).success).toBe(false);
  });
});

describe("askClient", () => {
  const cancelledBy = (reason: string) => ({
    outcome: { outcome: "cancelled" },
    _meta: { "qwen.daemon.permissionCancelReason": reason },
  });
  /** A client whose answer is `response`, and whose request gives up when the turn is aborted. */
  const clientAnswering = (response: unknown) =>
    ({
      request: (_method: string, _params: unknown, options: { cancellationSignal: AbortSignal }) =>
        options.cancellationSignal.aborted
          ? Promise.reject(new Error("cancelled"))
          : Promise.resolve(response),
    }) as unknown as AgentContext;
  const ask = (client: AgentContext, signal: AbortSignal) =>
    askClient(client, buildPermissionRequest("s1", questionRequest), {
      signal,
      connectionSignal: new AbortController().signal,
      log: () => {},
    });

  it("reads agent_cancelled while the turn runs as the user's decline (the reference daemon's Cancel vote)", async () => {
    expect(await ask(clientAnswering(cancelledBy("agent_cancelled")), new AbortController().signal)).toEqual({
      outcome: "rejected",
    });
  });

  it("keeps timeout and session_closed unattended", async () => {
    const live = new AbortController().signal;
    expect(await ask(clientAnswering(cancelledBy("timeout")), live)).toEqual({
      outcome: "unattended",
      reason: "timeout",
    });
    expect(await ask(clientAnswering(cancelledBy("session_closed")), live)).toEqual({
      outcome: "unattended",
      reason: "session_closed",
    });
  });

  it("reads a cancel as an abort when the turn was cancelled before the request", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await ask(clientAnswering(cancelledBy("agent_cancelled")), controller.signal)).toEqual({
      outcome: "unattended",
      reason: "aborted",
    });
  });

  it("reads a cancel as an abort when session/cancel lands just after the response (same read)", async () => {
    const controller = new AbortController();
    const answer = ask(clientAnswering(cancelledBy("agent_cancelled")), controller.signal);
    // The SDK's notification handler chain: several microtasks, no macrotask.
    let chain = Promise.resolve();
    for (let i = 0; i < 20; i++) chain = chain.then(() => undefined);
    void chain.then(() => controller.abort());
    expect(await answer).toEqual({ outcome: "unattended", reason: "aborted" });
  });
});
