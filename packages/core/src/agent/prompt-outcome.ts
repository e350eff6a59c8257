// How a prompt's end is written in the prompt ledger (pure): which terminal state, or none when the host is gone.
import type { LedgerEntryDetails, LedgerTerminalState } from "../transcript/ledger.js";
import { SessionClosedAbort } from "./contract.js";
import type { TurnOutcome } from "./turn-loop.js";

/**
 * True when the prompt was cut short because the host's connection ended (its daemon died or went away).
 * Nothing more is written about the turn then, neither a turn_result nor a ledger terminal, so the disk is the
 * same whether this process saw the end of its input or was killed first: the transcript ends in the
 * question's call and the prompt is in flight, which is exactly what a later load restores from.
 */
export function hostLost(signal: AbortSignal): boolean {
  return signal.reason instanceof SessionClosedAbort && signal.reason.code === "daemon_lost";
}

export function ledgerTerminal(
  outcome: TurnOutcome,
  signal: AbortSignal,
): [LedgerTerminalState, LedgerEntryDetails] {
  // The session was closed: nobody cancelled this prompt, it was cut short.
  if (signal.reason instanceof SessionClosedAbort) return ["interrupted", { code: signal.reason.code }];
  const { stopReason } = outcome;
  if (stopReason === "cancelled") return ["cancelled", { stopReason }];
  // The question was never answered: the prompt did not complete, and the call waits on disk for a restore.
  if (outcome.unattended) return ["interrupted", { stopReason, code: outcome.unattended }];
  return ["completed", { stopReason }];
}
