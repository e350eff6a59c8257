// The one timer the model providers use, injectable so tests never wait for real.
import { ModelError } from "./provider.js";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export function abortedError(): ModelError {
  return new ModelError("aborted", "The model request was aborted.");
}

/** Resolves after `ms`, or rejects with an `aborted` ModelError as soon as the signal fires. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
