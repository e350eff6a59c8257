// Getting the open session back after its live events stopped: what each end of the stream means (closed,
// token needed, the daemon restarted, our cursor fell out of its ring, refused), bounded automatic reloads
// (RecoveryBudget: a daemon that keeps failing leaves the person a button, not a reload loop), and the
// catch-up from the saved transcript when a reload could not help.
import type { Api } from "../net/api.js";
import { describe, isUnreachable } from "../net/api-errors.js";
import type { DaemonEvent } from "../net/daemon-event.js";
import type { StreamEnd } from "../net/event-stream.js";
import { callRoute } from "../net/routes.js";
import type { ConnectionStatus } from "./connection-status.js";
import type { Clock, ControllerEvent, OpenReason } from "./controller-types.js";
import { RecoveryBudget } from "./recovery-budget.js";

/** What recovery reads of the controller and asks of it. */
export type RecoveryHost = {
  readonly api: Api;
  readonly clock: Clock;
  readonly status: ConnectionStatus;
  sessionId(): string | undefined;
  clientId(): string | undefined;
  title(): string;
  /** The session's agent stopped or it was closed: a vanished stream is its end, not a restart. */
  dead(): boolean;
  open(sessionId: string, title: string, reason: OpenReason): Promise<void>;
  /** Starts the open session over from these events (a transcript) and follows it from now. */
  rebuild(events: DaemonEvent[]): void;
  enterOutage(detail: string | undefined): void;
  emit(event: ControllerEvent): void;
};

export class SessionRecovery {
  readonly #host: RecoveryHost;
  readonly #budget = new RecoveryBudget();

  constructor(host: RecoveryHost) {
    this.#host = host;
  }

  /** The live event stream ended (see event-stream.ts for the kinds). */
  streamEnded(end: StreamEnd): void {
    const { status } = this.#host;
    if (end.kind === "closed") status.set("closed");
    else if (end.kind === "unauthorized") this.#host.emit({ type: "token-needed" });
    else if (end.kind === "gone" && this.#host.dead()) status.set("ended");
    else if (end.kind === "gone") void this.recover(true);
    else if (end.kind === "resync" && end.reason === "ring_evicted") void this.#catchUpFromTranscript();
    else if (end.kind === "resync") void this.recover(end.reason === "epoch_changed");
    else {
      status.set("ended");
      status.setBanner({
        tone: "error",
        text: `Live updates stopped: ${end.reason ?? end.status ?? "refused"}.`,
        action: { label: "Reconnect", run: () => this.reload() },
      });
    }
  }

  /** Reloads the open session after something a reconnect cannot fix; bounded (see RecoveryBudget). */
  async recover(restarted: boolean): Promise<void> {
    const sessionId = this.#host.sessionId();
    if (!sessionId) return;
    if (!this.#budget.take(this.#host.clock.now())) {
      this.#host.status.set("ended");
      this.#host.status.setBanner({
        tone: "error",
        text: "Lost this session's live updates several times in a row.",
        action: { label: "Reload session", run: () => this.reload() },
      });
      return;
    }
    await this.#host.open(sessionId, this.#host.title(), { kind: "recover", restarted });
  }

  /** The person asked for a reload: the budget starts over. */
  reload(): void {
    this.#budget.reset();
    const sessionId = this.#host.sessionId();
    if (sessionId) void this.#host.open(sessionId, this.#host.title(), { kind: "reload" });
  }

  /**
   * Our cursor fell out of the daemon's event ring: a reload would hand back the same cursor, so rebuild
   * from the saved transcript and follow from now. Without a cursor the daemon sends the pending requests
   * first, so no card is lost.
   */
  async #catchUpFromTranscript(): Promise<void> {
    const host = this.#host;
    const sessionId = host.sessionId();
    if (!sessionId) return;
    try {
      const res = await callRoute(host.api, "transcript", {
        params: { id: sessionId },
        clientId: host.clientId(),
      });
      if (host.sessionId() !== sessionId) return;
      host.rebuild(replayFrames(res.events));
    } catch (error) {
      if (isUnreachable(error)) host.enterOutage(describe(error));
      else await this.recover(false);
    }
  }
}

/** A replay's frames (a load's `compactedReplay`, a transcript's `events`): session events, typed loosely there. */
export function replayFrames(frames: unknown): DaemonEvent[] {
  return Array.isArray(frames) ? (frames as DaemonEvent[]) : [];
}
