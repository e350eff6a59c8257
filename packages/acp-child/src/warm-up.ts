// The first prompt's cold costs, paid while the child is idle: once its first session is open (its answer
// written; after a load, a second later: a load that restores a question re-asks it right away, and that
// must not wait behind the warm-up), the tool declarations are built (every tool's zod schema converted to JSON Schema, cached for
// every later session) and the model provider warms up (HTTP stack loaded, request building and stream
// parsing run on sample data). Each step is its own macrotask, so a prompt that arrives meanwhile waits for
// at most one step, and finds the code it needs already compiled.
import type { ModelProvider, ToolRegistry } from "@qwen-daemon/core";
import type { Logger } from "./logger.js";

/** How long after a session/load the warm-up starts. */
export const WARM_UP_AFTER_LOAD_MS = 1000;

/** A function to call after each session opens; only its first call does anything. */
export function firstSessionWarmUp(
  provider: ModelProvider,
  log: Logger,
): (tools: ToolRegistry, opened: "new" | "load") => void {
  let started = false;
  return (tools, opened) => {
    if (started) return;
    started = true;
    // After the microtasks that answer session/new (the answer goes out first), or later after a load.
    const later = (step: () => void) => {
      if (opened === "new") setImmediate(step);
      else setTimeout(step, WARM_UP_AFTER_LOAD_MS).unref();
    };
    later(() => {
      let declarations: ReturnType<ToolRegistry["declarations"]>;
      try {
        declarations = tools.declarations();
      } catch (error) {
        log.warn(`warm-up: tool declarations failed: ${String(error)}`);
        return;
      }
      setImmediate(() => {
        provider.warmUp?.(declarations).catch((error: unknown) => {
          log.warn(`warm-up: model provider failed: ${String(error)}`);
        });
      });
    });
  };
}
