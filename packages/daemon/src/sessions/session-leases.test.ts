// What the daemon does with a shared store's session leases (docs/storage.md "Leases and fencing"): a load
// takes the lease first (409 naming the owner while it is live elsewhere, a takeover once it ran out), the
// lease keeper drops a session another daemon took over and tells its clients, and a fenced journal write
// drops the session too.
import { SessionFencedError } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { systemClock } from "../events/clock.js";
import { memoryPromptJournal } from "../prompts/prompt-journal.js";
import { MemoryLeaseTable } from "../testing/memory-leases.js";
import { createTestDaemon, readSseUntil, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";
import { LeaseKeeper } from "./lease-keeper.js";

const history = [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hello" } }];
const key = { cwd: TEST_WORKSPACE, sessionId: "old" };
const ME = { id: "daemon_me", url: "http://me.example:4170" };
const OTHER = { id: "daemon_other", url: "http://other.example:4170" };

/** This daemon's lease keeper, checked by hand (no timer). */
function keeperOf(d: ReturnType<typeof createTestDaemon>, table: MemoryLeaseTable): LeaseKeeper {
  return new LeaseKeeper({
    sessions: d.sessions,
    leases: table.leasesFor(ME),
    leaseMs: 15_000,
    clock: systemClock,
    log: () => {},
  });
}

function daemonWithLeases(table: MemoryLeaseTable) {
  return createTestDaemon({ agent: { persisted: { old: history } }, leases: table.leasesFor(ME) });
}

describe("loading a session from a shared store", () => {
  it("is refused with 409 naming the owner while another daemon's lease is live, and the agent is not asked", async () => {
    const table = new MemoryLeaseTable();
    await table.leasesFor(OTHER).acquire(key);
    const d = daemonWithLeases(table);
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: `Session "old" is owned by another daemon (${OTHER.url})`,
      code: "session_owned_elsewhere",
      sessionId: "old",
      owner: OTHER.url,
    });
    expect(d.agent.callsOf("session/load")).toEqual([]);
    expect(table.get(key)).toMatchObject({ ownerId: OTHER.id, epoch: 1 });
  });

  it("takes the session over once that lease ran out: a new epoch, and the load goes on", async () => {
    const table = new MemoryLeaseTable();
    await table.leasesFor(OTHER).acquire(key);
    table.expire(key);
    const d = daemonWithLeases(table);
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(200);
    expect(d.agent.callsOf("session/load")).toHaveLength(1);
    expect(table.get(key)).toMatchObject({ ownerId: ME.id, ownerUrl: ME.url, epoch: 2 });
    expect(d.logs.some((l) => l.includes("took session old over (epoch 2)"))).toBe(true);
  });
});

describe("a session created on a shared store", () => {
  it("is this daemon's at once: a load elsewhere is refused before anything was written to it", async () => {
    const table = new MemoryLeaseTable();
    const d = daemonWithLeases(table);
    const { sessionId } = await d.createSession();
    expect(table.get({ cwd: TEST_WORKSPACE, sessionId })).toMatchObject({ ownerId: ME.id, epoch: 1 });
    const other = createTestDaemon({ leases: table.leasesFor(OTHER) });
    const res = await other.request("POST", `/session/${sessionId}/load`, { body: {} });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "session_owned_elsewhere", owner: ME.url });
  });

  it("a load that fails lets the lease it took go", async () => {
    const table = new MemoryLeaseTable();
    const d = daemonWithLeases(table);
    const res = await d.request("POST", "/session/nothere/load", { body: {} });
    expect(res.status).toBe(404);
    expect(table.get({ cwd: TEST_WORKSPACE, sessionId: "nothere" })).toMatchObject({ live: false });
  });
});

describe("a session another daemon took over", () => {
  it("is dropped by the lease keeper: its clients are told who owns it, later requests get 409", async () => {
    const table = new MemoryLeaseTable();
    const d = daemonWithLeases(table);
    const loaded = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    const events = await d.request("GET", "/session/old/events");
    // This daemon was frozen past its lease; another took the session over meanwhile.
    table.expire(key);
    await table.leasesFor(OTHER).acquire(key);
    await keeperOf(d, table).check();
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "session_owned_elsewhere"));
    expect(frames.find((f) => f.event === "session_owned_elsewhere")?.data?.data).toEqual({
      sessionId: "old",
      owner: OTHER.url,
    });
    await waitFor(() => d.agent.callsOf("session/close").length === 1, "the child told to close it");
    const status = await d.request("GET", "/session/old/status");
    expect(status.status).toBe(409);
    expect(await status.json()).toMatchObject({ code: "session_owned_elsewhere", owner: OTHER.url });
    const prompt = await d.request("POST", "/session/old/prompt", {
      body: { prompt: [{ type: "text", text: "still mine?" }] },
      headers: { "x-qwen-client-id": loaded.clientId },
    });
    expect(prompt.status).toBe(409);
    // The lease stays the other daemon's: a renewal here takes nothing back.
    expect(table.get(key)).toMatchObject({ ownerId: OTHER.id, epoch: 2 });
  });

  it("keeps a session whose lease it still holds, and one that has no lease yet (nothing written)", async () => {
    const table = new MemoryLeaseTable();
    const d = daemonWithLeases(table);
    await d.request("POST", "/session/old/load", { body: {} });
    const created = await d.createSession();
    await keeperOf(d, table).check();
    expect((await d.request("GET", "/session/old/status")).status).toBe(200);
    expect((await d.request("GET", `/session/${created.sessionId}/status`)).status).toBe(200);
  });

  it("is dropped when a journal write is fenced: the prompt is answered 409 naming the new owner", async () => {
    const table = new MemoryLeaseTable();
    const journal = memoryPromptJournal();
    const d = createTestDaemon({
      agent: { persisted: { old: history } },
      leases: table.leasesFor(ME),
      promptJournal: {
        ...journal,
        append: async () => {
          throw new SessionFencedError(key, OTHER);
        },
      },
    });
    const loaded = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    const prompt = await d.request("POST", "/session/old/prompt", {
      body: { prompt: [{ type: "text", text: "hello again" }] },
      headers: { "x-qwen-client-id": loaded.clientId },
    });
    expect(prompt.status).toBe(409);
    expect(await prompt.json()).toMatchObject({ code: "session_owned_elsewhere", owner: OTHER.url });
    expect((await d.request("GET", "/session/old/status")).status).toBe(409);
    expect(d.agent.callsOf("session/prompt")).toEqual([]);
  });
});
