// While the daemon cannot be reached: ask `GET /health` now and then (quickly at first, then every few
// seconds) and say when it answers, so the page comes back as soon as the daemon does rather than at the
// event stream's next backoff (which grows to 30 s).
import type { Api } from "../net/api.js";
import { callRoute } from "../net/routes.js";
import type { Clock } from "./controller-types.js";

export const PROBE_DELAYS_MS = [500, 1000, 2000, 3000, 5000];

export class DaemonWatch {
  #timer: unknown;
  #attempt = 0;
  #running = false;
  #generation = 0;

  constructor(
    readonly api: Api,
    readonly clock: Clock,
    readonly onBack: () => void,
  ) {}

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#attempt = 0;
    this.#schedule();
  }

  stop(): void {
    this.#running = false;
    this.#generation += 1;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Probes at once (the person pressed "Retry now"). */
  probeNow(): void {
    if (!this.#running) return;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    void this.#probe(this.#generation);
  }

  #schedule(): void {
    const delay = PROBE_DELAYS_MS[Math.min(this.#attempt, PROBE_DELAYS_MS.length - 1)] as number;
    this.#attempt += 1;
    const generation = this.#generation;
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.#probe(generation);
    }, delay);
  }

  async #probe(generation: number): Promise<void> {
    try {
      await callRoute(this.api, "health", { params: {} });
    } catch {
      // Still away (or answering oddly): try again later; the banner already says so.
      if (this.#running && generation === this.#generation) this.#schedule();
      return;
    }
    if (!this.#running || generation !== this.#generation) return;
    this.stop();
    this.onBack();
  }
}
