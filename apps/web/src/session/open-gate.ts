// One load of a session at a time: a double click or a recovery racing a click must not attach twice. A
// second open of the session being opened joins the one in flight; an open of another session waits for it
// to settle, then runs (the last pick wins).
export class OpenGate {
  #current: Promise<void> | undefined;
  #currentId: string | undefined;

  run(sessionId: string, open: () => Promise<void>): Promise<void> {
    if (this.#current && this.#currentId === sessionId) return this.#current;
    const previous = this.#current;
    let opening: Promise<void> | undefined;
    opening = (async () => {
      await previous;
      try {
        await open();
      } finally {
        if (this.#current === opening) {
          this.#current = undefined;
          this.#currentId = undefined;
        }
      }
    })();
    this.#current = opening;
    this.#currentId = sessionId;
    return opening;
  }
}
