// Waiting for a question to be asked: an answer link used after a restart loads the session, and the restore
// asks the question again with a new request id; this tells the link which one. It watches the events the
// sessions publish (wired beside the notifier) and never holds a timer past its wait.
import { DaemonEventType } from "@qwen-daemon/core/protocol";
import type { Clock } from "../events/clock.js";
import type { DaemonEvent } from "../events/daemon-event.js";

type Waiter = { sessionId: string; toolCallId: string; resolve: (requestId: string) => void };

export class RequestWaits {
  readonly #waiters = new Set<Waiter>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Every session event passes here; synchronous and never throws. */
  observe(sessionId: string, event: DaemonEvent): void {
    if (event.type !== DaemonEventType.permissionRequest || this.#waiters.size === 0) return;
    const call = event.data.toolCall as { toolCallId?: unknown } | undefined;
    const requestId = event.data.requestId;
    if (typeof requestId !== "string" || typeof call?.toolCallId !== "string") return;
    for (const w of [...this.#waiters]) {
      if (w.sessionId === sessionId && w.toolCallId === call.toolCallId) w.resolve(requestId);
    }
  }

  /**
   * Starts listening now (before the load that will ask); `next` resolves with the request id once asked, or
   * undefined after `timeoutMs`. `cancel` stops listening.
   */
  expect(sessionId: string, toolCallId: string, timeoutMs: number) {
    let settle!: (requestId: string | undefined) => void;
    const next = new Promise<string | undefined>((resolve) => {
      settle = resolve;
    });
    const waiter: Waiter = { sessionId, toolCallId, resolve: (id) => done(id) };
    const timer = this.#clock.setTimeout(() => done(undefined), timeoutMs);
    const done = (id: string | undefined) => {
      this.#waiters.delete(waiter);
      this.#clock.clearTimeout(timer);
      settle(id);
    };
    this.#waiters.add(waiter);
    return { next, cancel: () => done(undefined) };
  }
}
