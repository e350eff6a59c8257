import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SESSION_CREATED_SUBTYPE } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { questionRequest } from "../testing/question.js";
import { scriptedConfigOptions } from "../testing/scripted-agent.js";
import { StoredSessions } from "../testing/stored-sessions.js";
import { createTestDaemon, readSseUntil, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

describe("POST /session", () => {
  it("creates a session with a daemon-minted client id", async () => {
    const d = createTestDaemon();
    const res = await d.request("POST", "/session", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ sessionId: "sess-1", workspaceCwd: TEST_WORKSPACE, attached: false });
    expect(body.clientId).toMatch(/^client_[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
    expect(d.agent.callsOf("session/new")[0]?.params).toMatchObject({ cwd: TEST_WORKSPACE, mcpServers: [] });
  });

  it("default scope attaches to the workspace's live session; thread always creates", async () => {
    const d = createTestDaemon();
    const first = await d.createSession();
    const attached = await (await d.request("POST", "/session", { body: { cwd: TEST_WORKSPACE } })).json();
    expect(attached).toMatchObject({ sessionId: first.sessionId, attached: true });
    expect(attached.clientId).not.toBe(first.clientId);
    const thread = await (await d.request("POST", "/session", { body: { sessionScope: "thread" } })).json();
    expect(thread).toMatchObject({ sessionId: "sess-2", attached: false });
    expect(d.agent.callsOf("session/new")).toHaveLength(2);
  });

  it("concurrent default creates share one session", async () => {
    const d = createTestDaemon();
    const [a, b] = await Promise.all([d.createSession(), d.createSession()]);
    expect(a.sessionId).toBe(b.sessionId);
    expect(d.agent.callsOf("session/new")).toHaveLength(1);
  });

  it("reuses a supplied client id only when it is registered on the session", async () => {
    const d = createTestDaemon();
    const first = await d.createSession();
    const again = await (
      await d.request("POST", "/session", { body: {}, headers: { "X-Qwen-Client-Id": first.clientId } })
    ).json();
    expect(again.clientId).toBe(first.clientId);
    const forged = await (
      await d.request("POST", "/session", { body: {}, headers: { "X-Qwen-Client-Id": "client_forged" } })
    ).json();
    expect(forged.clientId).not.toBe("client_forged");
  });

  it("rejects a relative cwd, another workspace and a bad scope with 400", async () => {
    const d = createTestDaemon();
    const relative = await d.request("POST", "/session", { body: { cwd: "relative/dir" } });
    expect(relative.status).toBe(400);
    expect(await relative.json()).toEqual({ error: "`cwd` must be an absolute path when provided" });
    const other = await d.request("POST", "/session", { body: { cwd: "/somewhere/else" } });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      error: `Workspace mismatch: daemon is bound to "${TEST_WORKSPACE}"`,
      code: "workspace_mismatch",
      boundWorkspace: TEST_WORKSPACE,
      requestedWorkspace: "/somewhere/else",
    });
    const scope = await d.request("POST", "/session", { body: { sessionScope: "global" } });
    expect(scope.status).toBe(400);
    expect((await scope.json()).code).toBe("invalid_session_scope");
  });

  it("creates with a requested session id, and answers 409 when it is live", async () => {
    const d = createTestDaemon();
    const res = await d.request("POST", "/session", { body: { sessionId: "my-session" } });
    expect(await res.json()).toMatchObject({ sessionId: "my-session", attached: false });
    expect(d.agent.callsOf("session/new")[0]?.params._meta).toEqual({ "qwen-code/sessionId": "my-session" });
    const conflict = await d.request("POST", "/session", { body: { sessionId: "my-session" } });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      error: 'Session "my-session" already exists or is being created.',
      code: "session_id_conflict",
      sessionId: "my-session",
    });
    const invalid = await d.request("POST", "/session", { body: { sessionId: "../etc" } });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).code).toBe("invalid_session_id");
  });

  it("a requested session id that is not a string is 400 invalid_session_id, whatever it holds", async () => {
    const d = createTestDaemon();
    for (const sessionId of [{ toString: 1 }, { toString: "x", valueOf: 2 }, [1, 2], 12, true, null, {}]) {
      const res = await d.request("POST", "/session", { body: { sessionId } });
      expect(res.status, JSON.stringify(sessionId)).toBe(400);
      expect(await res.json()).toEqual({
        error: "Invalid session id: expected 1-128 characters of [A-Za-z0-9._-]",
        code: "invalid_session_id",
      });
    }
    expect(d.agent.callsOf("session/new")).toHaveLength(0);
  });

  it("answers 409 for a requested id that exists only on disk", async () => {
    const stored = await new StoredSessions().transcript({
      sessionId: "on-disk",
      cwd: TEST_WORKSPACE,
      steps: [{ system: SESSION_CREATED_SUBTYPE }],
    });
    const d = createTestDaemon({ storage: stored.storage });
    const res = await d.request("POST", "/session", { body: { sessionId: "on-disk" } });
    expect(res.status).toBe(409);
  });

  it("refuses sessions beyond --max-sessions with 503 and Retry-After", async () => {
    const d = createTestDaemon({ maxSessions: 2 });
    await d.request("POST", "/session", { body: { sessionScope: "thread" } });
    await d.request("POST", "/session", { body: { sessionScope: "thread" } });
    const res = await d.request("POST", "/session", { body: { sessionScope: "thread" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
    expect(await res.json()).toEqual({
      error: "Session limit reached (2)",
      code: "session_limit_exceeded",
      limit: 2,
      scope: "workspace",
    });
  });

  it("takes any number of sessions with --max-sessions 0 (no cap)", async () => {
    const d = createTestDaemon({ maxSessions: 0 });
    for (let i = 0; i < 40; i++) {
      const res = await d.request("POST", "/session", { body: { sessionScope: "thread" } });
      expect(res.status).toBe(200);
    }
  });

  it("answers 503 agent_unavailable when the child cannot initialize", async () => {
    const d = createTestDaemon({ agent: { failInitialize: true } });
    const res = await d.request("POST", "/session", { body: {} });
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe("agent_unavailable");
  });
});

/** A daemon whose agent asks a question on every prompt, and what the question was answered. */
function askingDaemon() {
  const answers: Array<Record<string, unknown>> = [];
  const d = createTestDaemon({
    agent: {
      prompt: async (params, peer) => {
        answers.push(await peer.requestPermission(questionRequest(String(params.sessionId))));
        return { stopReason: "end_turn" };
      },
    },
  });
  return { d, answers };
}

describe("heartbeat, detach, DELETE", () => {
  it("heartbeat answers sessionId, clientId and lastSeenAt", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/heartbeat`, {
      body: {},
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ sessionId, clientId });
    expect(typeof body.lastSeenAt).toBe("number");
    const anonymous = await (await d.request("POST", `/session/${sessionId}/heartbeat`, { body: {} })).json();
    expect(anonymous.clientId).toBeUndefined();
  });

  it("heartbeat with an unregistered client id is 400 invalid_client_id", async () => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/heartbeat`, {
      body: {},
      headers: { "X-Qwen-Client-Id": "client_nobody" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: `Client id "client_nobody" is not registered for session ${sessionId}`,
      code: "invalid_client_id",
      sessionId,
      clientId: "client_nobody",
    });
  });

  it("detach answers 204 and unregisters the client", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/detach`, {
      body: {},
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(204);
    expect(d.sessions.require(sessionId).clients.has(clientId)).toBe(false);
  });

  it("DELETE answers 204, emits session_closed, closes the child session, then 404", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const del = await d.request("DELETE", `/session/${sessionId}`, {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(del.status).toBe(204);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "session_closed"));
    expect(frames.find((f) => f.event === "session_closed")?.data?.data).toEqual({
      sessionId,
      reason: "client",
    });
    expect(d.agent.callsOf("session/close")).toHaveLength(1);
    const after = await d.request("GET", `/session/${sessionId}/status`);
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      error: `No session with id "${sessionId}"`,
      code: "session_not_found",
      sessionId,
    });
    expect(
      (await d.request("DELETE", `/session/${sessionId}`, { headers: { "X-Qwen-Client-Id": clientId } }))
        .status,
    ).toBe(404);
  });

  it("DELETE resolves the session's waiting permission requests as session_closed", async () => {
    const { d, answers } = askingDaemon();
    const { sessionId, clientId } = await d.createSession();
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "q" }] },
    });
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
    const del = await d.request("DELETE", `/session/${sessionId}`, {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(del.status).toBe(204);
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({
      outcome: { outcome: "cancelled" },
      _meta: { "qwen.daemon.permissionCancelReason": "session_closed" },
    });
    // A close is not a user's cancel: session/cancel would make the child record the question as cancelled.
    await waitFor(() => d.agent.callsOf("session/close").length === 1, "session/close at the child");
    expect(d.agent.callsOf("session/cancel")).toHaveLength(0);
  });

  it("DELETE naming a client that is not attached to the session closes nothing", async () => {
    const { d, answers } = askingDaemon();
    const { sessionId, clientId } = await d.createSession();
    const other = await d.createSession({ sessionScope: "thread" });
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "q" }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
    for (const id of ["client_nobody", other.clientId]) {
      const refused = await d.request("DELETE", `/session/${sessionId}`, {
        headers: { "X-Qwen-Client-Id": id },
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).code).toBe("invalid_client_id");
    }
    // Nothing of the refused closes took effect: the session is live and its question still waits.
    expect(d.sessions.registry.get(sessionId)).toBeDefined();
    expect(d.sessions.mediator.hasPending(sessionId)).toBe(true);
    expect(d.agent.callsOf("session/close")).toHaveLength(0);
    expect(answers).toHaveLength(0);
    const del = await d.request("DELETE", `/session/${sessionId}`, {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(del.status).toBe(204);
  });

  it("DELETE without a client id is accepted, like prompt, vote and cancel (the reference's clients send none)", async () => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const del = await d.request("DELETE", `/session/${sessionId}`);
    expect(del.status).toBe(204);
    expect(d.sessions.registry.get(sessionId)).toBeUndefined();
  });

  it("every session route answers the exact 404 for an unknown session", async () => {
    const d = createTestDaemon();
    const routes: Array<[string, string]> = [
      ["POST", "/session/nope/prompt"],
      ["POST", "/session/nope/cancel"],
      ["POST", "/session/nope/continue"],
      ["GET", "/session/nope/status"],
      ["POST", "/session/nope/permission/req-1"],
      ["GET", "/session/nope/events"],
      ["GET", "/session/nope/pending-prompts"],
      ["GET", "/session/nope/transcript"],
      ["POST", "/session/nope/heartbeat"],
      ["POST", "/session/nope/detach"],
      ["DELETE", "/session/nope"],
      ["POST", "/session/nope/load"],
      ["POST", "/session/nope/resume"],
    ];
    for (const [method, path] of routes) {
      const res = await d.request(
        method,
        path,
        method === "POST" ? { body: { prompt: [{ type: "text", text: "x" }] } } : {},
      );
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.json()).toEqual({
        error: 'No session with id "nope"',
        code: "session_not_found",
        sessionId: "nope",
      });
    }
  });
});

describe("workspace identity", () => {
  it("accepts the workspace reached through a symlink and reports the bound path", async () => {
    const root = mkdtempSync(join(tmpdir(), "qwen-ws-"));
    const link = join(tmpdir(), `qwen-ws-link-${process.pid}-${Date.now()}`);
    symlinkSync(root, link);
    const d = createTestDaemon({ workspace: root });
    const res = await d.request("POST", "/session", { body: { cwd: link } });
    expect(res.status).toBe(200);
    expect((await res.json()).workspaceCwd).toBe(root);
  });
});

describe("DELETE /session/:id?purge=true", () => {
  it("closes the live session first, then asks the agent to delete it; the session is gone", async () => {
    const d = createTestDaemon({ agent: { stableSurface: true } });
    const { sessionId, clientId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const res = await d.request("DELETE", `/session/${sessionId}?purge=true`, {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(204);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "session_closed"));
    expect(frames.find((f) => f.event === "session_closed")?.data?.data).toEqual({
      sessionId,
      reason: "deleted",
    });
    const order = d.agent.calls.map((c) => c.method).filter((m) => m.startsWith("session/"));
    expect(order.slice(-2)).toEqual(["session/close", "session/delete"]);
    expect(d.agent.callsOf("session/delete")[0]?.params).toMatchObject({ sessionId });
    expect((await d.request("GET", `/session/${sessionId}/status`)).status).toBe(404);
  });

  it("404s a session neither live nor stored, 400s a bad purge value, 501s an agent without delete", async () => {
    const d = createTestDaemon({ agent: { stableSurface: true } });
    const missing = await d.request("DELETE", "/session/nobody?purge=true");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "session_not_found" });
    const { sessionId } = await d.createSession();
    expect((await d.request("DELETE", `/session/${sessionId}?purge=yes`)).status).toBe(400);

    const plain = createTestDaemon();
    const other = await plain.createSession();
    const refused = await plain.request("DELETE", `/session/${other.sessionId}?purge=true`);
    expect(refused.status).toBe(501);
    expect(await refused.json()).toMatchObject({ code: "agent_unsupported" });
    expect(plain.agent.callsOf("session/delete")).toEqual([]);
  });

  it("a plain DELETE still only closes (the transcript stays)", async () => {
    const d = createTestDaemon({ agent: { stableSurface: true } });
    const { sessionId } = await d.createSession();
    expect((await d.request("DELETE", `/session/${sessionId}`)).status).toBe(204);
    expect(d.agent.callsOf("session/delete")).toEqual([]);
  });
});

describe("POST /session/:id/config", () => {
  it("sets an option through session/set_config_option and reports the options on later attaches", async () => {
    const d = createTestDaemon({ agent: { stableSurface: true } });
    const created = await d.createSession();
    expect((await d.request("POST", "/session", { body: {} }).then((r) => r.json())).configOptions).toEqual(
      scriptedConfigOptions("default"),
    );
    const res = await d.request("POST", `/session/${created.sessionId}/config`, {
      body: { configId: "mode", value: "yolo" },
      headers: { "X-Qwen-Client-Id": created.clientId },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sessionId: created.sessionId,
      configOptions: scriptedConfigOptions("yolo"),
    });
    expect(d.agent.callsOf("session/set_config_option")[0]?.params).toMatchObject({
      sessionId: created.sessionId,
      configId: "mode",
      value: "yolo",
    });
    const attached = await (await d.request("POST", "/session", { body: {} })).json();
    expect(attached.configOptions).toEqual(scriptedConfigOptions("yolo"));
  });

  it("400s a malformed body and a value the agent refuses, 404s an unknown session", async () => {
    const d = createTestDaemon({ agent: { stableSurface: true } });
    const { sessionId } = await d.createSession();
    const malformed = await d.request("POST", `/session/${sessionId}/config`, { body: { configId: "mode" } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "invalid_config_option" });
    const refused = await d.request("POST", `/session/${sessionId}/config`, {
      body: { configId: "mode", value: "reckless" },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toContain("Unknown mode: reckless");
    expect(
      (await d.request("POST", "/session/nobody/config", { body: { configId: "mode", value: "plan" } }))
        .status,
    ).toBe(404);
  });
});
