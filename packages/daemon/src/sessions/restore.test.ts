// docs/restore.md "How a restore runs", step 4 through the HTTP routes, against a scripted ACP peer.
import type { LedgerEntry } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { coreSessionStore } from "../persisted/core-session-store.js";
import { questionRequest } from "../testing/question.js";
import { loadS1, restoringAgent as restoringAgentOf, userSaid } from "../testing/restoring-agent.js";
import { StoredSessions } from "../testing/stored-sessions.js";
import {
  createTestDaemon,
  readSseUntil,
  TEST_WORKSPACE,
  type TestDaemon,
  waitFor,
} from "../testing/test-daemon.js";

const HINT_KEY = "qwen.daemon.restoreAskUserQuestion";
const HINT = { [HINT_KEY]: true };
const SUPPRESS = "qwen.daemon.suppressRestoreAskUserQuestion";
const history = userSaid("pick a color");

/** A child that re-asks the trailing question when it gets the restore prompt. */
const restoringAgent = (answers: Array<Record<string, unknown>>) =>
  restoringAgentOf(HINT_KEY, history, questionRequest, answers);

describe("restore admission (switch on)", () => {
  it("admits a tracked restore prompt when the child hints and the loader sent a client id", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: true, agent: restoringAgent(answers) });
    const res = await loadS1(d, "client_before_restart");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.hasActivePrompt).toBe(true);
    expect(body.clientId).toMatch(/^client_/);
    expect(body.clientId).not.toBe("client_before_restart");
    // No suppress key: the child may leave the question unfinalized and hint.
    expect(d.agent.callsOf("session/load")[0]?.params._meta ?? {}).not.toHaveProperty(SUPPRESS);

    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");
    const prompt = d.agent.callsOf("session/prompt")[0]?.params;
    expect(prompt?.prompt).toEqual([]);
    const promptId = (prompt?._meta as Record<string, unknown> | undefined)?.["qwen.daemon.promptId"];
    expect(prompt?._meta).toEqual({
      "qwen.daemon.restoreAskUserQuestion": true,
      "qwen.daemon.promptId": promptId,
    });

    const status = await (await d.request("GET", "/session/s1/status")).json();
    expect(status).toMatchObject({
      isWaitingForUserQuestion: true,
      isWaitingForPermission: false,
      hasActivePrompt: true,
    });
    const [interaction] = status.pendingInteractions;
    expect(interaction).toMatchObject({
      kind: "user_question",
      title: "Ask user 1 question(s)",
      questions: [{ question: "Which color?", header: "Color", multiSelect: false, answerKey: "0" }],
      options: [
        { optionId: "proceed_once", label: "Submit", kind: "allow_once" },
        { optionId: "cancel", label: "Cancel", kind: "reject_once" },
      ],
    });

    // A late subscriber without a cursor still learns of the waiting question.
    const events = await d.request("GET", "/session/s1/events");
    const snapshot = await readSseUntil(events, (f) => f.some((x) => x.event === "permission_request"));
    const request = snapshot.find((x) => x.event === "permission_request");
    expect(request?.id).toBeUndefined();
    expect(request?.data).toMatchObject({
      type: "permission_request",
      promptId,
      originatorClientId: body.clientId,
    });

    const vote = await d.request("POST", `/session/s1/permission/${interaction.requestId}`, {
      body: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
      headers: { "X-Qwen-Client-Id": body.clientId },
    });
    expect(vote.status).toBe(200);
    expect(await vote.json()).toEqual({});
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "Blue" },
    });
    await waitFor(() => !d.sessions.require("s1").queue.promptActive, "restore turn to end");
  });

  it("under designated, only the client that loaded may answer the restored question", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      permissionPolicy: "designated",
      agent: restoringAgent(answers),
    });
    const loader = await (await loadS1(d, "client_x")).json();
    const other = await (await loadS1(d)).json();
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");
    const [pending] = d.sessions.mediator.pending("s1");
    const forbidden = await d.request("POST", `/session/s1/permission/${pending?.requestId}`, {
      body: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Red" } },
      headers: { "X-Qwen-Client-Id": other.clientId },
    });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).reason).toBe("designated_mismatch");
    const ok = await d.request("POST", `/session/s1/permission/${pending?.requestId}`, {
      body: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Red" } },
      headers: { "X-Qwen-Client-Id": loader.clientId },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses without a client id: sends the suppress key, admits nothing, the load succeeds", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: true, agent: restoringAgent(answers) });
    const res = await loadS1(d);
    expect(res.status).toBe(200);
    expect((await res.json()).hasActivePrompt).toBe(false);
    expect(d.agent.callsOf("session/load")[0]?.params._meta).toEqual({ [SUPPRESS]: true });
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);
    expect(d.logs.some((l) => l.includes("refused") && l.includes("no_client"))).toBe(true);
  });

  it("a live session loaded first without a client id is restored by a later load that has one", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: true, agent: restoringAgent(answers) });
    expect((await loadS1(d)).status).toBe(200);
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);

    const again = await loadS1(d, "client_from_before");
    expect(again.status).toBe(200);
    expect((await again.json()).hasActivePrompt).toBe(true);
    // The child was asked again (a resume: it re-reads the session, no replay), without the suppress key.
    const resume = d.agent.callsOf("session/resume");
    expect(resume).toHaveLength(1);
    expect(resume[0]?.params._meta ?? {}).not.toHaveProperty(SUPPRESS);
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");

    // While it waits, another load does not ask the child again.
    await loadS1(d, "client_x");
    expect(d.agent.callsOf("session/resume")).toHaveLength(1);
  });

  it("reads the prompt ledger before the restore prompt starts, so the original prompt is still in flight", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const promptsSentAtRead: number[] = [];
    const ledger: LedgerEntry[] = [
      { promptId: "done", state: "completed", timestamp: "2025-01-01T00:00:01.000Z", stopReason: "end_turn" },
      { promptId: "asked", state: "in_flight", timestamp: "2025-01-01T00:00:02.000Z" },
    ];
    const store = coreSessionStore((await new StoredSessions().ledger(TEST_WORKSPACE, "s1", ledger)).storage);
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      agent: restoringAgent(answers),
      store: {
        ...store,
        readPromptLedger: (cwd, sessionId) => {
          promptsSentAtRead.push(d.agent.callsOf("session/prompt").length);
          return store.readPromptLedger(cwd, sessionId);
        },
      },
    });
    const body = await (await loadS1(d, "client_a")).json();
    expect(body.hasActivePrompt).toBe(true);
    expect(promptsSentAtRead).toEqual([0]);
    expect(body.promptTerminals).toEqual([
      {
        v: 1,
        promptId: "done",
        terminal: "completed",
        stopReason: "end_turn",
        at: Date.parse(ledger[0]!.timestamp),
      },
    ]);
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");
  });

  it("resume follows the same rules", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: true, agent: restoringAgent(answers) });
    const res = await d.request("POST", "/session/s1/resume", {
      body: {},
      headers: { "X-Qwen-Client-Id": "client_a" },
    });
    expect((await res.json()).hasActivePrompt).toBe(true);
    expect(d.agent.callsOf("session/resume")[0]?.params._meta ?? {}).not.toHaveProperty(SUPPRESS);
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");
  });
});

describe("the re-check of a live session (its child is asked again)", () => {
  it("is skipped for a session created here and never prompted: nothing could wait in it, and a child may be unable to reload it", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: true });
    const { sessionId, clientId } = await d.createSession();
    for (const action of ["load", "resume"]) {
      const res = await d.request("POST", `/session/${sessionId}/${action}`, {
        body: {},
        headers: { "X-Qwen-Client-Id": clientId },
      });
      expect(res.status).toBe(200);
    }
    expect(d.agent.callsOf("session/resume")).toHaveLength(0);
    expect(d.agent.callsOf("session/load")).toHaveLength(0);
    expect(d.logs.filter((l) => l.includes("re-checking"))).toEqual([]);
    // The session still works on its child.
    const prompt = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "hi" }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(prompt.status).toBe(202);
    await waitFor(() => d.agent.callsOf("session/prompt").length === 1, "prompt sent to the child");
  });

  it("/continue waits for a resume reloading the session before asking the child", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      agent: {
        persisted: { s1: history },
        resume: async () => {
          order.push("resume started");
          await gate;
          order.push("resume answered");
          return {};
        },
      },
    });
    const loaded = await (await loadS1(d, "client_a")).json();
    const own = { "X-Qwen-Client-Id": loaded.clientId };
    const resumed = d.request("POST", "/session/s1/resume", { body: {}, headers: own });
    await waitFor(() => order.length === 1, "resume reaching the child");
    const continued = d.request("POST", "/session/s1/continue", { body: {}, headers: own });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(d.agent.callsOf("qwen/control/session/continue")).toHaveLength(0);
    release();
    expect((await resumed).status).toBe(200);
    const answer = await continued;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ accepted: false, interruption: "none" });
    expect(order).toEqual(["resume started", "resume answered"]);
    expect(d.agent.callsOf("qwen/control/session/continue")).toHaveLength(1);
  });
});

describe("restore admission on a busy session", () => {
  it("is refused and logged; the load still succeeds", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const agent = restoringAgent(answers);
    let releasePrompt!: () => void;
    const promptGate = new Promise<void>((resolve) => {
      releasePrompt = resolve;
    });
    const d: TestDaemon = createTestDaemon({
      restoreAskUserQuestion: true,
      agent: {
        ...agent,
        prompt: async (params, peer) => {
          const meta = params._meta as Record<string, unknown>;
          if (meta["qwen.daemon.restoreAskUserQuestion"] === true) return agent.prompt(params, peer);
          await promptGate;
          return { stopReason: "end_turn" };
        },
        // A live session is looked at again by a load with a client id; a client's prompt is admitted while
        // the child looks, so the session is busy when the hint arrives, which is what the admission guards.
        resume: async () => {
          const prompted = await d.request("POST", "/session/s1/prompt", {
            body: { prompt: [{ type: "text", text: "meanwhile" }] },
          });
          expect(prompted.status).toBe(202);
          return { _meta: HINT };
        },
      },
    });
    expect((await loadS1(d)).status).toBe(200);
    const res = await loadS1(d, "client_a");
    expect(res.status).toBe(200);
    expect(d.agent.callsOf("session/resume")).toHaveLength(1);
    // The client's prompt went to the child, and no restore prompt.
    const sent = d.agent
      .callsOf("session/prompt")
      .map((call) => call.params._meta as Record<string, unknown>);
    expect(sent.map((meta) => meta["qwen.daemon.restoreAskUserQuestion"])).toEqual([undefined]);
    expect(d.logs.some((l) => l.includes("refused") && l.includes("(busy)"))).toBe(true);
    releasePrompt();
  });
});

describe("restore admission (switch off)", () => {
  it("sends the suppress key and ignores a hint", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: false, agent: restoringAgent(answers) });
    const res = await loadS1(d, "client_a");
    expect(res.status).toBe(200);
    expect(d.agent.callsOf("session/load")[0]?.params._meta).toEqual({ [SUPPRESS]: true });
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);
    expect(d.logs.some((l) => l.includes("switch_off"))).toBe(true);
  });
});

describe("forged daemon meta", () => {
  it("is stripped from a client's POST /prompt (top level and content blocks)", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: true });
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: {
        prompt: [
          { type: "text", text: "hi", _meta: { "qwen.daemon.restoreAskUserQuestion": true, keep: 1 } },
        ],
        _meta: {
          "qwen.daemon.restoreAskUserQuestion": true,
          "qwen.daemon.promptId": "forged",
          "qwen.daemon.userMessageId": "forged",
          "qwen.daemon.continueLastTurn": true,
          "client.trace": "t-1",
        },
      },
    });
    expect(res.status).toBe(202);
    const { promptId, messageId } = await res.json();
    await waitFor(() => d.agent.callsOf("session/prompt").length === 1, "prompt at the child");
    const sent = d.agent.callsOf("session/prompt")[0]?.params;
    expect(sent?._meta).toEqual({
      "client.trace": "t-1",
      "qwen.daemon.promptId": promptId,
      "qwen.daemon.userMessageId": messageId,
    });
    expect(messageId).not.toBe("forged");
    expect(sent?.prompt).toEqual([{ type: "text", text: "hi", _meta: { keep: 1 } }]);
  });
});
