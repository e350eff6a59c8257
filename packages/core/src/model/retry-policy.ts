// When and how long to wait before retrying a failed model request. Pure: randomness is passed in.
import type { ModelError } from "./provider.js";

export interface RetryPolicy {
  /** Total tries including the first; 1 disables retries. */
  maxAttempts: number;
  /** Delay before the first retry; doubles each retry. */
  baseDelayMs: number;
  /** Cap of the exponential delay. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so concurrent clients spread
 * out without any of them retrying immediately. `attempt` is the 1-based number of the attempt that failed.
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * random());
}

/**
 * The delay before the next attempt, or undefined when the error must be reported now: not retryable, out of
 * attempts, or the server asks for a longer wait than we accept. The server's Retry-After wins over backoff.
 */
export function retryDelayMs(
  error: ModelError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!error.retryable || attempt >= policy.maxAttempts) return undefined;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  return backoffDelayMs(attempt, policy, random);
}
