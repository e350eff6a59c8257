// The views listening to the session controller. A broken view must not stop the session's state from
// moving on: its failure is logged and the other views are still told.
import type { ControllerEvent, Listener } from "./controller-types.js";

export class ViewListeners {
  readonly #listeners = new Set<Listener>();

  add(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: ControllerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error(`qwen web: a view failed on ${event.type}`, error);
      }
    }
  }
}
