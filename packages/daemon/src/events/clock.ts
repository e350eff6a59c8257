/**
 * Time as the daemon's pure logic sees it. Timers and "now" are injected so the mediator's
 * timeouts and the SSE heartbeat can be driven by a {@link ManualClock} in tests instead of
 * real waits.
 */
export type TimerHandle = unknown;

export type Clock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
};

/**
 * The real clock. Globals are looked up on every call (not captured at import) so that
 * `vi.useFakeTimers()` also drives code that was given `systemClock`. Timers are unref'd:
 * a pending permission timeout or an SSE heartbeat must never keep a stopping daemon alive.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = globalThis.setTimeout(fn, ms);
    if (typeof handle === "object" && handle !== null && "unref" in handle) handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};
