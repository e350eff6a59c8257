// A session's token usage as ACP `usage_update` payloads. The provider reports counts per model request; the
// update says how full the context is now (`used`: the last request's prompt plus its reply) against the
// context window (`size`), and carries the counts added up over the session in `_meta` (core/protocol). The
// counts are kept with each reply in the transcript (`usageMetadata`), so a session loaded by another process
// goes on adding from where it was. Pure: the session feeds it the records and the provider's counts.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { TranscriptRecord, Usage } from "@qwen-daemon/core";
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

const NO_USAGE: SessionUsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The counts the transcript keeps with its replies, added up (a reply without them counts 0). */
export function usageTotalsOf(records: readonly TranscriptRecord[]): SessionUsageTotals {
  let totals = NO_USAGE;
  for (const record of records) {
    if (record.type !== "assistant" || !record.usageMetadata) continue;
    const { promptTokenCount, candidatesTokenCount, totalTokenCount } = record.usageMetadata;
    totals = addUsage(totals, {
      promptTokens: promptTokenCount,
      completionTokens: candidatesTokenCount,
      totalTokens: totalTokenCount,
    });
  }
  return totals;
}

function addUsage(totals: SessionUsageTotals, usage: Usage): SessionUsageTotals {
  const input = usage.promptTokens ?? 0;
  const output = usage.completionTokens ?? 0;
  return {
    inputTokens: totals.inputTokens + input,
    outputTokens: totals.outputTokens + output,
    totalTokens: totals.totalTokens + (usage.totalTokens ?? input + output),
  };
}

export class SessionUsage {
  #totals: SessionUsageTotals;

  /** `start`: the counts so far (usageTotalsOf the session's records). */
  constructor(
    start: SessionUsageTotals = NO_USAGE,
    private readonly contextWindow = DEFAULT_CONTEXT_WINDOW,
  ) {
    this.#totals = { ...start };
  }

  get totals(): SessionUsageTotals {
    return { ...this.#totals };
  }

  /** Adds one request's counts; the update to send. A count the provider left out counts as 0. */
  add(usage: Usage): SessionUpdate {
    this.#totals = addUsage(this.#totals, usage);
    return {
      sessionUpdate: "usage_update",
      used: usage.totalTokens ?? (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0),
      size: this.contextWindow,
      _meta: { [SESSION_USAGE_META_KEY]: this.totals },
    };
  }
}
