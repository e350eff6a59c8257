// Periodically closes sessions idle for longer than `--session-idle-timeout-ms` (0 disables it).
import type { Clock, TimerHandle } from "../events/clock.js";

export type IdleReaper = { stop(): void };

/** Checks every quarter of the timeout, at least once a second and at most once a minute. */
export function reapIntervalMs(idleTimeoutMs: number): number {
  return Math.min(60_000, Math.max(1_000, Math.floor(idleTimeoutMs / 4)));
}

export function startIdleReaper(
  reap: (idleMs: number) => void,
  idleTimeoutMs: number,
  clock: Clock,
): IdleReaper {
  if (idleTimeoutMs <= 0) return { stop() {} };
  let timer: TimerHandle | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    reap(idleTimeoutMs);
    timer = clock.setTimeout(tick, reapIntervalMs(idleTimeoutMs));
  };
  timer = clock.setTimeout(tick, reapIntervalMs(idleTimeoutMs));
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
