import { RequestError } from "@agentclientprotocol/sdk";
import type { LedgerEntry } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { systemClock } from "../events/clock.js";
import { emptySessionStore } from "../persisted/core-session-store.js";
import { StoredSessions } from "../testing/stored-sessions.js";
import { createTestDaemon, readSseUntil, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

const history = [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hello" } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi there" } },
  { sessionUpdate: "tool_call", toolCallId: "call-1", title: "ls", kind: "read", status: "completed" },
];

describe("a load the agent fails", () => {
  it("is a 502 with a generic message and an error id; the agent's own text goes to the log only", async () => {
    const d = createTestDaemon({
      agent: {
        persisted: { old: history },
        load: async () => {
          throw new RequestError(-32603, "Internal error", {
            details: "EACCES: open '/home/alice/.qwen/x.jsonl'",
          });
        },
      },
    });
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toMatch(/alice|EACCES|Internal error/);
    const body = JSON.parse(text);
    expect(body).toEqual({
      error: `The agent could not complete the request (see the daemon log for error ${body.errorId})`,
      code: "agent_error",
      errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const logged = d.logs.filter((l) => l.includes(body.errorId));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("POST /session/old/load");
    expect(logged[0]).toContain("EACCES: open '/home/alice/.qwen/x.jsonl'");
  });
});

describe("POST /session/:id/load", () => {
  it("returns the replayed history as compactedReplay ids 1..n and continues live ids at n+1", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      sessionId: "old",
      workspaceCwd: TEST_WORKSPACE,
      attached: false,
      hasActivePrompt: false,
      lastEventId: 3,
    });
    expect(body.clientId).toMatch(/^client_/);
    expect(typeof body.eventEpoch).toBe("string");
    expect(body.compactedReplay.map((e: { id: number }) => e.id)).toEqual([1, 2, 3]);
    expect(body.compactedReplay[1]).toMatchObject({
      id: 2,
      v: 1,
      type: "session_update",
      data: { sessionId: "old", update: history[1] },
    });
    expect(typeof body.compactedReplay[0]._meta.serverTimestamp).toBe("number");
    expect(d.agent.callsOf("session/load")[0]?.params).toMatchObject({
      sessionId: "old",
      cwd: TEST_WORKSPACE,
    });

    const events = await d.request("GET", "/session/old/events", { headers: { "Last-Event-ID": "3" } });
    expect(events.headers.get("X-Qwen-Event-Epoch")).toBe(body.eventEpoch);
    await d.request("POST", "/session/old/prompt", { body: { prompt: [{ type: "text", text: "next" }] } });
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "session_update"));
    expect(frames.find((f) => f.event === "session_update")?.id).toBe(4);
  });

  it("a second load of a live session attaches without asking the child again", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const first = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    const second = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    expect(second).toMatchObject({ sessionId: "old", attached: true, lastEventId: 3 });
    expect(second.compactedReplay).toEqual(first.compactedReplay);
    expect(second.clientId).not.toBe(first.clientId);
    expect(d.agent.callsOf("session/load")).toHaveLength(1);
  });

  it("concurrent loads of one id make one child call", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const [a, b] = await Promise.all([
      d.request("POST", "/session/old/load", { body: {} }),
      d.request("POST", "/session/old/load", { body: {} }),
    ]);
    const bodies = [await a.json(), await b.json()];
    expect(bodies.map((x) => x.attached).sort()).toEqual([false, true]);
    expect(d.agent.callsOf("session/load")).toHaveLength(1);
  });

  it("validates the session id before any lookup (400), and 404s unknown ones", async () => {
    const d = createTestDaemon();
    const bad = await d.request("POST", "/session/bad..id/load", { body: {} });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("invalid_session_id");
    expect(d.agent.callsOf("session/load")).toHaveLength(0);
    const missing = await d.request("POST", "/session/missing/load", { body: {} });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: 'No session with id "missing"',
      code: "session_not_found",
      sessionId: "missing",
    });
    // A failed load leaves nothing behind and holds no session slot.
    expect(d.sessions.registry.liveCount).toBe(0);
  });

  it("rejects another workspace with 400 workspace_mismatch", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/load", { body: { cwd: "/other" } });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("workspace_mismatch");
  });
});

describe("POST /session/:id/resume", () => {
  it("restores without replay: no compactedReplay, lastEventId 0", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/resume", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ sessionId: "old", attached: false, lastEventId: 0, hasActivePrompt: false });
    expect(body.compactedReplay).toBeUndefined();
    expect(d.agent.callsOf("session/resume")).toHaveLength(1);
    await waitFor(() => d.sessions.registry.get("old") !== undefined, "live session");
  });
});

describe("promptTerminals on load and resume", () => {
  // What a daemon that died mid-prompt leaves behind once the child's load closed the dead prompt.
  const ledger: LedgerEntry[] = [
    { promptId: "p1", state: "in_flight", timestamp: "2025-01-01T00:00:01.000Z" },
    { promptId: "p1", state: "completed", timestamp: "2025-01-01T00:00:02.000Z", stopReason: "end_turn" },
    { promptId: "p2", state: "in_flight", timestamp: "2025-01-01T00:00:03.000Z" },
    { promptId: "p2", state: "interrupted", timestamp: "2025-01-01T00:00:09.000Z", code: "daemon_lost" },
  ];
  const terminals = [
    {
      v: 1,
      promptId: "p1",
      terminal: "completed",
      stopReason: "end_turn",
      at: Date.parse("2025-01-01T00:00:02.000Z"),
    },
    {
      v: 1,
      promptId: "p2",
      terminal: "interrupted",
      code: "daemon_lost",
      at: Date.parse("2025-01-01T00:00:09.000Z"),
    },
  ];
  const storageWithLedger = async () =>
    (await new StoredSessions().ledger(TEST_WORKSPACE, "old", ledger)).storage;

  it("a load answers the ledger's terminal entries, also when it attaches to the live session", async () => {
    const d = createTestDaemon({
      agent: { persisted: { old: history } },
      storage: await storageWithLedger(),
    });
    const first = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    expect(first.promptTerminals).toEqual(terminals);
    const second = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    expect(second.attached).toBe(true);
    expect(second.promptTerminals).toEqual(terminals);
  });

  it("a resume answers them too", async () => {
    const d = createTestDaemon({
      agent: { persisted: { old: history } },
      storage: await storageWithLedger(),
    });
    const body = await (await d.request("POST", "/session/old/resume", { body: {} })).json();
    expect(body.promptTerminals).toEqual(terminals);
  });

  it("is left out when no prompt has ended", async () => {
    const inFlight: LedgerEntry[] = [
      { promptId: "p1", state: "in_flight", timestamp: "2025-01-01T00:00:01.000Z" },
    ];
    const d = createTestDaemon({
      agent: { persisted: { old: history, fresh: history } },
      storage: (await new StoredSessions().ledger(TEST_WORKSPACE, "old", inFlight)).storage,
    });
    expect(await (await d.request("POST", "/session/old/load", { body: {} })).json()).not.toHaveProperty(
      "promptTerminals",
    );
    expect(await (await d.request("POST", "/session/fresh/resume", { body: {} })).json()).not.toHaveProperty(
      "promptTerminals",
    );
  });

  it("an unreadable ledger is logged and leaves the field out; the load still succeeds", async () => {
    const d = createTestDaemon({
      agent: { persisted: { old: history } },
      store: {
        ...emptySessionStore(),
        readPromptLedger: async () => {
          throw new Error("EACCES: ledger");
        },
      },
    });
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty("promptTerminals");
    expect(d.logs).toContainEqual(
      expect.stringContaining("prompt ledger of old failed: Error: EACCES: ledger"),
    );
  });
});

describe("a restored session keeps what its transcript says", () => {
  const onDisk = {
    sessionId: "old",
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-02T00:00:00.000Z",
    displayName: "make me a note",
  };
  const storedOld = async () =>
    (
      await new StoredSessions().transcript({
        sessionId: onDisk.sessionId,
        cwd: TEST_WORKSPACE,
        createdAt: onDisk.createdAt,
        updatedAt: onDisk.updatedAt,
        steps: [{ user: [{ text: onDisk.displayName }] }],
      })
    ).storage;

  for (const action of ["load", "resume"] as const) {
    it(`${action}: createdAt, displayName and updatedAt from disk in the response, status and list`, async () => {
      const d = createTestDaemon({ agent: { persisted: { old: history } }, storage: await storedOld() });
      const restored = await (await d.request("POST", `/session/old/${action}`, { body: {} })).json();
      expect(restored.createdAt).toBe(onDisk.createdAt);
      const status = await (await d.request("GET", "/session/old/status")).json();
      expect(status).toMatchObject({
        live: true,
        createdAt: onDisk.createdAt,
        updatedAt: onDisk.updatedAt,
        displayName: onDisk.displayName,
      });
      const list = await (
        await d.request("GET", `/workspace/${encodeURIComponent(TEST_WORKSPACE)}/sessions`)
      ).json();
      expect(list.sessions).toEqual([status]);
    });
  }

  it("a later turn moves updatedAt on and keeps the name from disk", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } }, storage: await storedOld() });
    const { clientId } = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    await d.request("POST", "/session/old/prompt", {
      body: { prompt: [{ type: "text", text: "another thing" }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    await waitFor(() => d.sessions.require("old").updatedAt !== onDisk.updatedAt, "turn end");
    const status = await (await d.request("GET", "/session/old/status")).json();
    expect(status.displayName).toBe(onDisk.displayName);
    expect(status.createdAt).toBe(onDisk.createdAt);
    expect(Date.parse(status.updatedAt)).toBeGreaterThan(Date.parse(onDisk.updatedAt));
  });

  it("without a transcript summary the restore time stands in for createdAt", async () => {
    const restoredAt = Date.parse("2030-06-01T12:00:00.000Z");
    const clock = { ...systemClock, now: () => restoredAt };
    const d = createTestDaemon({ agent: { persisted: { old: history } }, clock });
    const restored = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    expect(restored.createdAt).toBe("2030-06-01T12:00:00.000Z");
    const status = await (await d.request("GET", "/session/old/status")).json();
    expect(status).not.toHaveProperty("displayName");
    expect(status).not.toHaveProperty("updatedAt");
  });
});
