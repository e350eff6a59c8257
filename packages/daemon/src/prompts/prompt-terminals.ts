// `promptTerminals` of a load/resume response (docs/protocol.md "Sessions"): how the session's recent prompts ended, read from
// the prompt ledger the child writes. A client that was waiting for a prompt when the daemon died learns from
// the load whether it completed, was cancelled, or was interrupted (`daemon_lost`, or `restored` by a restore
// prompt). The wire shape is the reference daemon's (`{v:1, promptId, terminal, code?, stopReason?, at}`, at
// most the last 64, absent when there are none; the contract's PromptTerminal); `restoredBy` is ours, added so
// the client can follow the restore prompt that took over.
import type { LedgerEntry } from "@qwen-daemon/core";
import type { PromptTerminal, PromptTerminalState } from "@qwen-daemon/core/protocol";

/** As many as the reference returns: a long-lived session's ledger is not replayed in full. */
export const PROMPT_TERMINALS_LIMIT = 64;

/**
 * The ledger's terminal entries (in file order) with `others` (the prompt journal's never-started prompts)
 * merged in by time, the last PROMPT_TERMINALS_LIMIT, or undefined when there are none so the response omits
 * the field. `failed` (our ledger's name) is the reference's `error`.
 */
export function promptTerminalsOf(
  entries: readonly LedgerEntry[],
  others: readonly PromptTerminal[] = [],
): PromptTerminal[] | undefined {
  const terminals = entries.flatMap((entry) => {
    const terminal = wireState(entry.state);
    const at = Date.parse(entry.timestamp);
    if (terminal === undefined || !Number.isFinite(at)) return [];
    return [
      {
        v: 1 as const,
        promptId: entry.promptId,
        terminal,
        ...(entry.code !== undefined ? { code: entry.code } : {}),
        ...(entry.stopReason !== undefined ? { stopReason: entry.stopReason } : {}),
        ...(entry.restoredBy !== undefined ? { restoredBy: entry.restoredBy } : {}),
        at,
      },
    ];
  });
  // A prompt `others` reports (never started) may have a ledger entry too (begun, cut off before its first
  // record): the report with its text stands for it. A stable sort keeps the ledger's order where times tie.
  const reported = new Set(others.map((t) => t.promptId));
  const all =
    others.length === 0
      ? terminals
      : [...terminals.filter((t) => !reported.has(t.promptId)), ...others].sort((a, b) => a.at - b.at);
  return all.length === 0 ? undefined : all.slice(-PROMPT_TERMINALS_LIMIT);
}

function wireState(state: LedgerEntry["state"]): PromptTerminalState | undefined {
  switch (state) {
    case "in_flight":
      return undefined;
    case "failed":
      return "error";
    default:
      return state;
  }
}
