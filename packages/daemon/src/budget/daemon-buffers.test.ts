// The daemon's one buffer budget, wired as `qwen serve` wires it (startDaemon on a real socket, over a scripted
// agent): many sessions' event rings together stay within `--buffer-budget-mb`, the oldest session's replay
// goes first, and its client's old cursor gets state_resync_required.
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedAgent } from "../testing/scripted-agent.js";
import { closeSocketDaemons, startSocketDaemon } from "../testing/socket-daemon.js";
import { jsonOf, readSseUntil, waitFor } from "../testing/test-daemon.js";

afterEach(closeSocketDaemons);

/** Polls an asynchronous condition (a status request) until it holds. */
async function until(predicate: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const MiB = 1024 * 1024;
const SESSIONS = 24;
/** Each prompt streams 8 chunks of 16 KB: ~130 KB of replay per session, ~3 MB over all, 3x the budget. */
const CHUNKS = 8;
const CHUNK = "y".repeat(16 * 1024);

describe("--buffer-budget-mb", () => {
  it("holds every session's ring together within the budget, evicting the daemon's oldest replay first", async () => {
    const agent = new ScriptedAgent({
      prompt: async (params, peer) => {
        for (let i = 0; i < CHUNKS; i += 1) {
          await peer.update(params.sessionId as string, {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: CHUNK },
          });
        }
        return { stopReason: "end_turn" };
      },
    });
    const { daemon } = await startSocketDaemon({ bufferBudgetMb: 1, maxSessions: 0 }, agent);
    const post = (path: string, body: unknown, clientId?: string) =>
      fetch(`${daemon.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(clientId !== undefined ? { "x-qwen-client-id": clientId } : {}),
        },
        body: JSON.stringify(body),
      });

    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i += 1) {
      const created = await jsonOf(await post("/session", { sessionScope: "thread" }));
      ids.push(created.sessionId);
      const prompt = await post(
        `/session/${created.sessionId}/prompt`,
        { prompt: [{ type: "text", text: `turn ${i}` }] },
        created.clientId,
      );
      expect(prompt.status).toBe(202);
      const bus = daemon.sessions.require(created.sessionId).bus;
      // One session at a time, so the order of their replay data is the order of the sessions.
      await waitFor(
        () => bus.eventsAfter(0).some((e) => e.type === "turn_complete"),
        `turn ${i} to end`,
        5000,
      );
      const rings = ids.reduce((sum, id) => sum + daemon.sessions.require(id).bus.ringBytes, 0);
      expect(rings).toBeLessThanOrEqual(MiB);
    }

    const status = await jsonOf(await fetch(`${daemon.url}/daemon/status`));
    expect(status.buffers).toMatchObject({ capacity: MiB, heldBytes: 0 });
    expect(status.buffers.replayBytes).toBeLessThanOrEqual(MiB);
    expect(status.buffers.replayBytes).toBeGreaterThan(MiB / 2);
    expect(status.buffers.evictedEntries).toBeGreaterThan(0);

    // The first session's replay went first: a client resuming it from its first event must resync.
    const first = await fetch(`${daemon.url}/session/${ids[0]}/events`, {
      headers: { "last-event-id": "1" },
    });
    const frames = await readSseUntil(first, (f) => f.some((x) => x.event === "replay_complete"));
    expect(frames.find((f) => f.event !== undefined)?.event).toBe("state_resync_required");
    // The newest session's ring is whole: its client replays from its first event without a resync.
    const last = await fetch(`${daemon.url}/session/${ids.at(-1)}/events`, {
      headers: { "last-event-id": "0" },
    });
    const newest = await readSseUntil(last, (f) => f.some((x) => x.event === "replay_complete"));
    expect(newest.map((f) => f.event)).not.toContain("state_resync_required");
    expect(newest.some((f) => f.event === "turn_complete")).toBe(true);
  });

  it("counts prompt bodies waiting or running in a queue, until each leaves it", async () => {
    let finish: () => void = () => {};
    const agent = new ScriptedAgent({
      prompt: () =>
        new Promise((resolve) => {
          finish = () => resolve({ stopReason: "end_turn" });
        }),
    });
    const { daemon } = await startSocketDaemon({ bufferBudgetMb: 8 }, agent);
    const created = await jsonOf(
      await fetch(`${daemon.url}/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({}),
      }),
    );
    const body = (i: number) =>
      JSON.stringify({ prompt: [{ type: "text", text: `${i}${"z".repeat(100_000)}` }] });
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${daemon.url}/session/${created.sessionId}/prompt`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-qwen-client-id": created.clientId },
        body: body(i),
      });
      expect(res.status).toBe(202);
    }
    const held = async () => (await jsonOf(await fetch(`${daemon.url}/daemon/status`))).buffers.heldBytes;
    // One running and two waiting, ~100 KB each: the request bodies themselves were given back at the 202s.
    expect(await held()).toBeGreaterThan(300_000);
    expect(await held()).toBeLessThan(310_000);
    for (let left = 3; left > 0; left -= 1) {
      await waitFor(
        () => agent.callsOf("session/prompt").length === 4 - left,
        "the next prompt to start",
        5000,
      );
      finish();
    }
    await until(async () => (await held()) === 0, "every body to leave the budget");
  });

  it("counts the history a load replays while it arrives and while the live session keeps it", async () => {
    const chunk = (i: number) => ({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${i}${"h".repeat(50_000)}` },
    });
    let answer: () => void = () => {};
    const replayed = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let sent = false;
    const agent = new ScriptedAgent({
      persisted: { old: [] },
      load: async (params, peer) => {
        for (let i = 0; i < 4; i += 1) await peer.update(params.sessionId as string, chunk(i));
        sent = true;
        await replayed;
        return {};
      },
    });
    const { daemon } = await startSocketDaemon({ bufferBudgetMb: 8 }, agent);
    const held = async () => (await jsonOf(await fetch(`${daemon.url}/daemon/status`))).buffers.heldBytes;
    const loading = fetch(`${daemon.url}/session/old/load`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    // Still loading: the updates received so far are held.
    await until(async () => sent && (await held()) > 200_000, "the replayed updates to be counted");
    answer();
    const loaded = await jsonOf(await loading);
    expect(loaded.compactedReplay).toHaveLength(4);
    // Loaded: the replay the session keeps for later loads is held instead, about as big.
    expect(await held()).toBeGreaterThan(200_000);
    expect(await held()).toBeLessThan(210_000);
    const closed = await fetch(`${daemon.url}/session/old`, { method: "DELETE" });
    expect(closed.status).toBeLessThan(300);
    await until(async () => (await held()) === 0, "the replay to leave the budget");
  });
});
