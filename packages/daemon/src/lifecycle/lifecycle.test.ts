import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../events/manual-clock.js";
import { createTestDaemon, waitFor } from "../testing/test-daemon.js";
import { reapIntervalMs, startIdleReaper } from "./idle-reaper.js";
import { installSignalHandlers } from "./signals.js";

describe("installSignalHandlers", () => {
  function fakeProcess() {
    const emitter = new EventEmitter();
    return { proc: { on: emitter.on.bind(emitter), off: emitter.off.bind(emitter) }, emitter };
  }

  it("shuts down gracefully on the first signal and exits 0", async () => {
    const { proc, emitter } = fakeProcess();
    const exits: number[] = [];
    let closed = 0;
    installSignalHandlers(
      {
        close: async () => {
          closed += 1;
        },
        kill: () => undefined,
      },
      { process: proc, exit: (c) => exits.push(c), log: () => undefined },
    );
    emitter.emit("SIGTERM");
    await waitFor(() => exits.length === 1, "exit");
    expect(closed).toBe(1);
    expect(exits).toEqual([0]);
  });

  it("exits at once (after killing children) on a second signal", () => {
    const { proc, emitter } = fakeProcess();
    const exits: number[] = [];
    let killed = 0;
    installSignalHandlers(
      {
        close: () => new Promise(() => undefined),
        kill: () => {
          killed += 1;
        },
      },
      { process: proc, exit: (c) => exits.push(c), log: () => undefined },
    );
    emitter.emit("SIGINT");
    emitter.emit("SIGINT");
    expect(killed).toBe(1);
    expect(exits).toEqual([130]);
  });

  it("exits 1 when the graceful shutdown fails, and can be uninstalled", async () => {
    const { proc, emitter } = fakeProcess();
    const exits: number[] = [];
    const uninstall = installSignalHandlers(
      { close: () => Promise.reject(new Error("stuck")), kill: () => undefined },
      { process: proc, exit: (c) => exits.push(c), log: () => undefined },
    );
    emitter.emit("SIGINT");
    await waitFor(() => exits.length === 1, "exit");
    expect(exits).toEqual([1]);
    uninstall();
    expect(emitter.listenerCount("SIGINT")).toBe(0);
  });
});

describe("idle reaper", () => {
  it("checks every quarter of the timeout within [1 s, 60 s]", () => {
    expect(reapIntervalMs(400)).toBe(1000);
    expect(reapIntervalMs(20_000)).toBe(5000);
    expect(reapIntervalMs(3_600_000)).toBe(60_000);
  });

  it("closes sessions idle past the timeout, but not busy or watched ones", async () => {
    const clock = new ManualClock(0);
    const d = createTestDaemon({ clock });
    const idle = await d.createSession();
    const watched = await (await d.request("POST", "/session", { body: { sessionScope: "thread" } })).json();
    const events = await d.request("GET", `/session/${watched.sessionId}/events`);
    const reaper = startIdleReaper((ms) => d.sessions.reapIdle(ms), 10_000, clock);
    clock.advance(9_000);
    expect(d.sessions.registry.liveCount).toBe(2);
    clock.advance(3_000);
    await waitFor(() => d.sessions.registry.get(idle.sessionId) === undefined, "idle session reaped");
    expect(d.sessions.registry.get(watched.sessionId)).toBeDefined();
    reaper.stop();
    expect(clock.pendingTimers).toBe(0);
    await events.body?.cancel();
  });

  it("is disabled with a 0 timeout", () => {
    const clock = new ManualClock(0);
    startIdleReaper(() => expect.unreachable(), 0, clock);
    expect(clock.pendingTimers).toBe(0);
  });
});
