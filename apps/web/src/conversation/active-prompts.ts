// Whether the session is busy (a prompt running or queued), from the events the daemon sends. Decides
// when "Stop" makes sense. Pure: feed it events, ask `busy`.
import type { DaemonEvent } from "../net/daemon-event.js";
import { record, text } from "../net/read.js";

// Event types of the contract (a misspelt one does not compile); read as plain strings below, because a newer
// daemon may send types this page does not know.
const TERMINAL: ReadonlySet<string> = new Set<DaemonEvent["type"]>([
  "turn_complete",
  "turn_error",
  "prompt_cancelled",
  "pending_prompt_completed",
]);
const STARTING: ReadonlySet<string> = new Set<DaemonEvent["type"]>([
  "pending_prompt_added",
  "pending_prompt_started",
]);

export class ActivePrompts {
  readonly #ids = new Set<string>();
  /**
   * Prompts whose turn ended. The stream can tell the end of a turn before the page reads the prompt's 202
   * (a short turn on a loaded machine), and that late 202 must not make the session busy again.
   */
  readonly #ended = new Set<string>();
  /** Busy with a prompt we do not know the id of (the load response said `hasActivePrompt`). */
  #anonymous = false;

  get busy(): boolean {
    return this.#anonymous || this.#ids.size > 0;
  }

  reset(active: boolean): void {
    this.#endAll();
    this.#anonymous = active;
  }

  /** The daemon took the prompt (its 202); nothing if its turn already ended. */
  started(promptId: string): void {
    if (!this.#ended.has(promptId)) this.#ids.add(promptId);
  }

  /** @returns busy afterwards */
  observe(event: {
    type: DaemonEvent["type"] | string;
    promptId?: string | undefined;
    data?: unknown;
  }): boolean {
    const promptId = event.promptId ?? text(record(event.data)?.promptId);
    if (TERMINAL.has(event.type)) {
      if (typeof promptId === "string") this.#end(promptId);
      // Turns end one at a time; an id-less terminal (or one for the prompt we only knew as "active")
      // clears the anonymous flag.
      this.#anonymous = false;
      if (event.type === "turn_error" && typeof promptId !== "string") this.#endAll();
    } else if (
      event.type === "session_died" ||
      event.type === "session_closed" ||
      event.type === "session_owned_elsewhere"
    ) {
      this.reset(false);
    } else if (
      typeof promptId === "string" &&
      (STARTING.has(event.type) || event.type === "session_update")
    ) {
      this.started(promptId);
    }
    return this.busy;
  }

  #end(promptId: string): void {
    this.#ids.delete(promptId);
    this.#ended.add(promptId);
  }

  #endAll(): void {
    for (const promptId of [...this.#ids]) this.#end(promptId);
  }
}
