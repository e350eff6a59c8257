import { describe, expect, it } from "vitest";
import type { KeyValueStorage } from "../net/client-ids.js";
import { FakeApi, ManualClock, memoryStorage, settle } from "../testing/fake-daemon.js";
import { SessionDirectory } from "./session-directory.js";
import { WaitingMemory } from "./waiting-memory.js";

const LIST = "GET /workspace/%2Fws/sessions?size=30";

/** A directory of workspace /ws over a fake daemon, a manual clock and a waiting memory (in memory, or none). */
function directory(storage?: KeyValueStorage) {
  const api = new FakeApi();
  const clock = new ManualClock();
  const memory = new WaitingMemory(storage, () => clock.now());
  return { api, clock, memory, dir: new SessionDirectory(api, memory, clock, () => "/ws") };
}

/** The next listing hangs until the returned function answers it (a slow daemon, answering late). */
function stallListing(api: FakeApi): (page: unknown) => void {
  let answer: (page: unknown) => void = () => {};
  api.on(LIST, () => new Promise((resolve) => (answer = resolve)));
  return (page) => answer(page);
}

describe("SessionDirectory", () => {
  it("lists pages, keeps names it saw and remembers waiting sessions", async () => {
    const { api, clock, memory, dir } = directory(memoryStorage());
    api.on(LIST, () => ({
      sessions: [
        { sessionId: "a", displayName: "Plan my week", live: true, isWaitingForUserQuestion: true },
        { sessionId: "b", live: false },
      ],
      nextCursor: "c1",
    }));
    api.on(`${LIST}&cursor=c1`, () => ({ sessions: [{ sessionId: "c" }, { sessionId: "a" }] }));
    await dir.refresh();
    await dir.refresh(true);
    expect(dir.sessions.map((s) => s.sessionId)).toEqual(["a", "b", "c"]);
    expect(dir.nextCursor).toBeUndefined();
    // After a restart the live session comes back without its name, and on disk only.
    api.on(LIST, () => ({
      sessions: [{ sessionId: "a", live: false, updatedAt: new Date(clock.now()).toISOString() }],
    }));
    await dir.refresh();
    expect(dir.find("a")?.displayName).toBe("Plan my week");
    expect(memory.wasWaiting(dir.find("a")!)).toBe(true);
  });

  it("debounces refreshes and reports failures in words", async () => {
    const { api, clock, dir } = directory();
    const changes: string[] = [];
    dir.subscribe((e) => changes.push(e.type));
    dir.scheduleRefresh();
    dir.scheduleRefresh();
    dir.scheduleRefresh();
    clock.advance(500);
    await settle();
    expect(api.calls).toHaveLength(1);
    expect(dir.error).toMatch(/^Could not list sessions: /);
    expect(changes).toEqual(["changed"]);
    // While the daemon is away the list keeps what it knew and says nothing (the banner does).
    api.on(LIST, () => ({ sessions: [{ sessionId: "a" }] }));
    await dir.refresh();
    api.down = true;
    await dir.refresh();
    expect(dir.sessions.map((s) => s.sessionId)).toEqual(["a"]);
    expect(dir.error).toBeUndefined();
  });

  it("never lets a listing answered late replace a newer one (the open session stays listed)", async () => {
    const { api, dir } = directory();
    // The first listing (at boot, before the session existed) is slow and answers last.
    const answerStale = stallListing(api);
    const stale = dir.refresh();
    await settle();
    api.on(LIST, () => ({ sessions: [{ sessionId: "new", live: true }] }));
    await dir.refresh();
    answerStale({ sessions: [] });
    await stale;
    expect(dir.sessions.map((s) => s.sessionId)).toEqual(["new"]);
  });

  it("lists a session this page just created at once, before the next listing", async () => {
    const { api, dir } = directory();
    api.on(LIST, () => ({ sessions: [{ sessionId: "old", live: false }] }));
    await dir.refresh();
    const answerStale = stallListing(api);
    const inFlight = dir.refresh();
    await settle();
    const changes: string[] = [];
    dir.subscribe((e) => changes.push(e.type));
    dir.noteCreated({ sessionId: "new", workspaceCwd: "/ws", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(dir.sessions.map((s) => s.sessionId)).toEqual(["new", "old"]);
    expect(dir.find("new")).toMatchObject({ live: true, clientCount: 1 });
    expect(changes).toEqual(["changed"]);
    // A listing asked before the session existed does not take it away again.
    answerStale({ sessions: [{ sessionId: "old", live: false }] });
    await inFlight;
    expect(dir.sessions.map((s) => s.sessionId)).toEqual(["new", "old"]);
  });
});
