// Messages the daemon holds in its queue behind the running prompt (or behind a question that waits on the
// person), in the daemon's order, so the page can show them at once with their place in line and let the
// person take one back. Pure: fed by the 202 of a prompt (`queuePosition`) and the pending_prompt_* events.

export type QueuedMessage = {
  promptId: string;
  text: string;
  /** 1 = next to start. */
  position: number;
  /** Sent from this page (the others came from another window or client). */
  mine: boolean;
};

export class QueuedPrompts {
  readonly #items: Omit<QueuedMessage, "position">[] = [];
  /**
   * Messages that left the queue (started, ended, taken back). The stream can say so before the page reads
   * the 202 that said the message was queued (a loaded machine), and that late 202 must not queue it again.
   */
  readonly #left = new Set<string>();

  /** Adds a waiting message at `position` (1-based, as the daemon said), else last. False if known or gone. */
  add(promptId: string, text: string, position: number | undefined, mine: boolean): boolean {
    if (this.#left.has(promptId) || this.#items.some((m) => m.promptId === promptId)) return false;
    const at =
      position === undefined ? this.#items.length : Math.min(Math.max(position - 1, 0), this.#items.length);
    this.#items.splice(at, 0, { promptId, text, mine });
    return true;
  }

  /** It started, ended or was withdrawn: the ones behind it move up. False if it was not here. */
  remove(promptId: string): boolean {
    this.#left.add(promptId);
    const index = this.#items.findIndex((m) => m.promptId === promptId);
    if (index === -1) return false;
    this.#items.splice(index, 1);
    return true;
  }

  get(promptId: string): QueuedMessage | undefined {
    return this.list().find((m) => m.promptId === promptId);
  }

  clear(): boolean {
    const had = this.#items.length > 0;
    for (const m of this.#items) this.#left.add(m.promptId);
    this.#items.length = 0;
    return had;
  }

  list(): QueuedMessage[] {
    return this.#items.map((m, i) => ({ ...m, position: i + 1 }));
  }
}

/** "next in line", "2nd in line", ... */
export function placeInLine(position: number): string {
  if (position <= 1) return "next in line";
  const tens = position % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][position % 10] ?? "th");
  return `${position}${suffix} in line`;
}
