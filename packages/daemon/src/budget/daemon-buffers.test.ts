// The daemon's one buffer budget, wired as `qwen serve` wires it (startDaemon on a real socket, over a scripted
// agent): many sessions' event rings together stay within `--buffer-budget-mb`, the oldest session's replay
// goes first, and its client's old cursor gets state_resync_required.
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedAgent } from "../testing/scripted-agent.js";
import { closeSocketDaemons, startSocketDaemon } from "../testing/socket-daemon.js";
import { jsonOf, readSseUntil, waitFor } from "../testing/test-daemon.js";

afterEach(closeSocketDaemons);

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
});
