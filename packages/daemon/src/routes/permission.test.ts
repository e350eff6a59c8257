import { describe, expect, it } from "vitest";
import type { PermissionPolicy } from "../permission/policy.js";
import { editRequest } from "../testing/question.js";
import { createTestDaemon, readSseUntil, waitFor } from "../testing/test-daemon.js";

const select = (optionId = "proceed_once") => ({ outcome: { outcome: "selected", optionId } });

/** A daemon whose child asks one edit permission per prompt; returns the request id once pending. */
async function pendingPermission(options: { policy?: PermissionPolicy; clients?: number } = {}) {
  const answers: Array<Record<string, unknown>> = [];
  const d = createTestDaemon({
    permissionPolicy: options.policy ?? "first-responder",
    agent: {
      prompt: async (params, peer) => {
        answers.push(await peer.requestPermission(editRequest(String(params.sessionId))));
        return { stopReason: "end_turn" };
      },
    },
  });
  const first = await d.createSession();
  const clients = [first.clientId];
  for (let i = 1; i < (options.clients ?? 1); i += 1) clients.push((await d.createSession()).clientId);
  await d.request("POST", `/session/${first.sessionId}/prompt`, {
    body: { prompt: [{ type: "text", text: "edit it" }] },
    headers: { "X-Qwen-Client-Id": first.clientId },
  });
  await waitFor(() => d.sessions.mediator.hasPending(first.sessionId), "permission request");
  const requestId = d.sessions.mediator.pending(first.sessionId)[0]?.requestId as string;
  return { d, sessionId: first.sessionId, clients, requestId, answers };
}

describe("POST /session/:id/permission/:requestId", () => {
  it("200 {} resolves the request; the child gets the option; a second vote is 404 + already_resolved", async () => {
    const { d, sessionId, clients, requestId, answers } = await pendingPermission();
    const events = await d.request("GET", `/session/${sessionId}/events`, {
      headers: { "Last-Event-ID": "0" },
    });
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      headers: { "X-Qwen-Client-Id": clients[0] as string, "X-Qwen-Client-Device": "web_laptop" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({ outcome: { outcome: "selected", optionId: "proceed_once" } });
    const again = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: "No pending permission request for session",
      sessionId,
      requestId,
    });
    const frames = await readSseUntil(events, (f) =>
      f.some((x) => x.event === "permission_already_resolved"),
    );
    expect(frames.find((f) => f.event === "permission_resolved")?.data?.data).toMatchObject({
      requestId,
      outcome: { outcome: "selected", optionId: "proceed_once" },
      voterClientId: clients[0],
      // The device the voter named, for clients to tell "you, on another device" from another client.
      voterDevice: "web_laptop",
    });
  });

  it("404 for an unknown request id and for a request of another session", async () => {
    const { d, requestId } = await pendingPermission();
    const other = await (await d.request("POST", "/session", { body: { sessionScope: "thread" } })).json();
    const res = await d.request("POST", `/session/${other.sessionId}/permission/${requestId}`, {
      body: select(),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: "No pending permission request for session",
      sessionId: other.sessionId,
      requestId,
    });
    const unknown = await d.request("POST", `/session/${other.sessionId}/permission/nope`, {
      body: select(),
    });
    expect(unknown.status).toBe(404);
  });

  it.each([
    [{}],
    [{ outcome: { outcome: "maybe" } }],
    [{ outcome: { outcome: "selected" } }],
    [{ outcome: "selected" }],
  ])("400 for the malformed vote %o, naming the two allowed shapes", async (body) => {
    const { d, sessionId, requestId } = await pendingPermission();
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, { body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: '`outcome` must be `{ outcome: "cancelled" }` or `{ outcome: "selected", optionId: string }`',
    });
  });

  it("400 for answers that are not strings, 400 invalid_option_id for an option not offered", async () => {
    const { d, sessionId, requestId } = await pendingPermission();
    const badAnswers = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: { ...select(), answers: { "0": 3 } },
    });
    expect(badAnswers.status).toBe(400);
    const notOffered = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select("delete_everything"),
    });
    expect(notOffered.status).toBe(400);
    expect(await notOffered.json()).toMatchObject({
      code: "invalid_option_id",
      requestId,
      optionId: "delete_everything",
    });
  });

  it("an option id not offered is echoed cut short, however long it was", async () => {
    const { d, sessionId, requestId } = await pendingPermission();
    const huge = `x${"y".repeat(2_000_000)}`;
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(huge),
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(1024);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ code: "invalid_option_id", requestId });
    expect(body.optionId).toBe(`x${"y".repeat(127)}…`);
    expect(body.error).toContain("(2000001 characters)");
  });

  it("400 invalid_client_id for a voter not registered on the session", async () => {
    const { d, sessionId, requestId } = await pendingPermission();
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      headers: { "X-Qwen-Client-Id": "client_stranger" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("invalid_client_id");
  });

  it("403 designated_mismatch when another client votes under designated", async () => {
    const { d, sessionId, clients, requestId } = await pendingPermission({
      policy: "designated",
      clients: 2,
    });
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      headers: { "X-Qwen-Client-Id": clients[1] as string },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: "permission_forbidden",
      reason: "designated_mismatch",
      requestId,
    });
  });

  it("local-only judges the socket address, never headers", async () => {
    const { d, sessionId, requestId } = await pendingPermission({ policy: "local-only" });
    const remote = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      headers: { "X-Forwarded-For": "127.0.0.1" },
      env: { incoming: { socket: { remoteAddress: "10.1.2.3" } } },
    });
    expect(remote.status).toBe(403);
    expect((await remote.json()).reason).toBe("remote_not_allowed");
    const local = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      env: { incoming: { socket: { remoteAddress: "::ffff:127.0.0.1" } } },
    });
    expect(local.status).toBe(200);
  });

  it("a consensus vote short of the quorum answers 200 and emits permission_partial_vote", async () => {
    const { d, sessionId, clients, requestId } = await pendingPermission({ policy: "consensus", clients: 3 });
    const events = await d.request("GET", `/session/${sessionId}/events`, {
      headers: { "Last-Event-ID": "0" },
    });
    const res = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: select(),
      headers: { "X-Qwen-Client-Id": clients[0] as string },
    });
    expect(res.status).toBe(200);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "permission_partial_vote"));
    expect(frames.find((f) => f.event === "permission_partial_vote")?.data?.data).toMatchObject({
      requestId,
      votesReceived: 1,
      votesNeeded: 1,
      quorum: 2,
    });
    expect(d.sessions.mediator.hasPending(sessionId)).toBe(true);
  });
});

describe("POST /permission/:requestId (legacy)", () => {
  it("resolves a pending request by id alone, and 404s without a session in the body", async () => {
    const { d, requestId, answers, clients } = await pendingPermission();
    const res = await d.request("POST", `/permission/${requestId}`, {
      body: { outcome: { outcome: "cancelled" } },
      headers: { "X-Qwen-Client-Id": clients[0] as string },
    });
    expect(res.status).toBe(200);
    await waitFor(() => answers.length === 1, "answer at the child");
    // A user's cancel is a decline: no unattended reason attached.
    expect(answers[0]).toEqual({ outcome: { outcome: "cancelled" } });
    const gone = await d.request("POST", `/permission/${requestId}`, { body: select() });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: "No pending permission request", requestId });
  });

  it("checks the voter against the session that holds the request", async () => {
    const { d, requestId } = await pendingPermission();
    const res = await d.request("POST", `/permission/${requestId}`, {
      body: select(),
      headers: { "X-Qwen-Client-Id": "client_stranger" },
    });
    expect(res.status).toBe(400);
  });
});
