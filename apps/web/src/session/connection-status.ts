// What the page shows about its link to the daemon: the connection state, why it is so, and the banner.
// The outage (the daemon cannot be reached) is entered and left here: while it lasts the daemon is watched
// (daemon-watch.ts) so the page reconnects as soon as /health answers again.
import type { StreamState } from "../net/event-stream.js";
import type { Banner, Connection, ControllerEvent } from "./controller-types.js";
import type { DaemonWatch } from "./daemon-watch.js";

const OUTAGE_TEXT =
  "The daemon cannot be reached. Sending and answering are paused until it is back; what you typed is kept.";
const OUTAGE_SHORT = "Daemon away. Your text is kept.";

export class ConnectionStatus {
  readonly #emit: (event: ControllerEvent) => void;
  readonly #watch: DaemonWatch;
  #connection: Connection = "idle";
  #detail: string | undefined;
  #banner: Banner | undefined;

  constructor(emit: (event: ControllerEvent) => void, watch: DaemonWatch) {
    this.#emit = emit;
    this.#watch = watch;
  }

  get connection(): Connection {
    return this.#connection;
  }

  /** Why the connection is what it is (an error message), if known. */
  get detail(): string | undefined {
    return this.#detail;
  }

  get banner(): Banner | undefined {
    return this.#banner;
  }

  get down(): boolean {
    return this.#connection === "down";
  }

  set(connection: Connection, detail?: string): void {
    this.#connection = connection;
    this.#detail = detail;
    this.#emit({ type: "status" });
  }

  setBanner(banner: Banner | undefined): void {
    this.#banner = banner;
    this.#emit({ type: "status" });
  }

  /** Another session (or the same one again) is entered: no banner, no reason left. Tells nobody. */
  clear(): void {
    this.#banner = undefined;
    this.#detail = undefined;
  }

  /** The outage banner goes (its cause is over); any other banner stays. Tells nobody. */
  dropOutageBanner(): void {
    if (this.#banner?.tone === "outage") this.#banner = undefined;
  }

  /** The daemon cannot be reached: say so once, and watch for it to come back. */
  enterOutage(detail: string | undefined, retry: () => void): void {
    this.#detail = detail;
    if (this.#connection !== "down") {
      this.#connection = "down";
      this.#banner = {
        tone: "outage",
        text: OUTAGE_TEXT,
        short: OUTAGE_SHORT,
        action: { label: "Retry now", run: retry },
      };
      this.#emit({ type: "announce", text: "The daemon cannot be reached." });
    }
    this.#watch.start();
    this.#emit({ type: "status" });
  }

  /** The daemon answers again; `next` is what the connection is then. */
  leaveOutage(next: Connection): void {
    this.#watch.stop();
    this.dropOutageBanner();
    this.#connection = next;
    this.#emit({ type: "status" });
  }

  /** What the live event stream says of itself; `retry` is the outage banner's button. */
  streamState(state: StreamState, detail: string | undefined, retry: () => void): void {
    if (state === "unreachable") this.enterOutage(detail, retry);
    else if (state === "live") {
      if (this.down) this.leaveOutage("reconnecting");
      this.set("live");
    } else if (!this.down) this.set(state, detail);
  }

  /** The live event stream ended: nothing is watched for it any more. Tells nobody. */
  streamGone(): void {
    this.#watch.stop();
    this.dropOutageBanner();
  }
}
