// Keeps this daemon's session leases (shared storage, docs/storage.md "Leases and fencing"): renews them all
// in one statement a few times per lease period, and drops every session of this daemon whose lease another
// daemon holds now. That is how a daemon that was frozen (SIGSTOP, a paused VM) or cut off from the database
// learns, as soon as it runs again, that its sessions were taken over: its timers fire late, the renewal finds
// the session missing, and its clients are told who owns it now.
import type { SessionKey, SessionLeases } from "@qwen-daemon/core";
import type { Clock, TimerHandle } from "../events/clock.js";
import type { Sessions } from "./sessions.js";

/** Renewals per lease period: a lease survives two missed renewals (a slow query, a GC pause). */
const RENEWALS_PER_LEASE = 3;

export class LeaseKeeper {
  #timer: TimerHandle | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      sessions: Sessions;
      leases: SessionLeases;
      leaseMs: number;
      clock: Clock;
      log: (line: string) => void;
      /** After each renewal (the notifier takes over a dead daemon's notifications). Must not reject. */
      afterRenewal?: () => Promise<void>;
    },
  ) {}

  start(): void {
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.deps.clock.clearTimeout(this.#timer);
  }

  /**
   * Renews every lease, then drops the sessions another owner holds now. Never rejects: a database that
   * cannot be reached is logged, and the sessions stay (their writes are fenced if someone takes over).
   */
  check(): Promise<void> {
    this.#running ??= this.#check().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #check(): Promise<void> {
    const { sessions, leases, log } = this.deps;
    try {
      const held = new Set((await leases.renew()).map(keyText));
      for (const session of sessions.registry.all()) {
        const key = { cwd: session.workspaceCwd, sessionId: session.sessionId };
        if (held.has(keyText(key))) continue;
        // Not renewed: a session nothing was written to yet has no lease (none to lose); one whose lease
        // names another owner was taken over.
        const lease = await leases.read(key);
        if (lease !== undefined && lease.ownerId !== leases.owner.id)
          sessions.lost(session.sessionId, lease.ownerUrl);
      }
    } catch (error) {
      log(
        `qwen serve: renewing the session leases failed: ${error instanceof Error ? error.message : error}`,
      );
      return;
    }
    await this.deps.afterRenewal?.();
  }

  #schedule(): void {
    if (this.#stopped) return;
    const every = Math.max(1, Math.floor(this.deps.leaseMs / RENEWALS_PER_LEASE));
    this.#timer = this.deps.clock.setTimeout(() => {
      void this.check().then(() => this.#schedule());
    }, every);
  }
}

function keyText(key: SessionKey): string {
  return `${key.cwd}\u0000${key.sessionId}`;
}
