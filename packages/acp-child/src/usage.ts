// A session's token usage as ACP `usage_update` payloads. The provider reports counts per model request; the
// update says how full the context is now (`used`: the last request's prompt plus its reply) against the
// context window (`size`), and carries the counts added up over the session in `_meta` (core/protocol).
// Pure: the session feeds it the provider's counts.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Usage } from "@qwen-daemon/core";
import { SESSION_USAGE_META_KEY } from "@qwen-daemon/core/protocol";

/**
 * The context window reported as `size` when the model's own is unknown: 128 Ki tokens, the token limit
 * qwen-code assumes for a model it does not know.
 */
export const DEFAULT_CONTEXT_WINDOW = 131_072;

export interface SessionUsageTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export class SessionUsage {
  #totals: SessionUsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

  constructor(private readonly contextWindow = DEFAULT_CONTEXT_WINDOW) {}

  get totals(): SessionUsageTotals {
    return { ...this.#totals };
  }

  /** Adds one request's counts; the update to send. A count the provider left out counts as 0. */
  add(usage: Usage): SessionUpdate {
    const input = usage.promptTokens ?? 0;
    const output = usage.completionTokens ?? 0;
    const total = usage.totalTokens ?? input + output;
    this.#totals = {
      inputTokens: this.#totals.inputTokens + input,
      outputTokens: this.#totals.outputTokens + output,
      totalTokens: this.#totals.totalTokens + total,
    };
    return {
      sessionUpdate: "usage_update",
      used: total,
      size: this.contextWindow,
      _meta: { [SESSION_USAGE_META_KEY]: this.totals },
    };
  }
}
