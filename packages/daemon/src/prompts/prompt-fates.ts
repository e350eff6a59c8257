// What became of the prompts a session's journal holds, as pure rules over its entries, the agent's transcript
// and its prompt ledger. A prompt the daemon accepted and nothing closed is either still with this daemon
// (queued or running) or was cut off by a crash: a load from disk tells which, and reports the ones the agent
// never started, with their text, so a client can offer to send them again (never rerun by itself).
import type { LedgerEntry, TranscriptRecord } from "@qwen-daemon/core";
import type { PromptTerminal } from "@qwen-daemon/core/protocol";
import type { AcceptedPrompt, NeverStartedPrompt, PromptJournalEntry } from "./prompt-record.js";

/** Reported never-started prompts kept in a compacted journal (and in a load's promptTerminals). */
export const NEVER_STARTED_KEPT = 64;

export const NEVER_STARTED_CODE = "never_started";

/** Accepted prompts no entry has closed yet, in order of acceptance. */
export function openPrompts(entries: readonly PromptJournalEntry[]): AcceptedPrompt[] {
  const closed = new Set(entries.flatMap((e) => (e.type === "accepted" ? [] : [e.promptId])));
  return entries.filter((e): e is AcceptedPrompt => e.type === "accepted" && !closed.has(e.promptId));
}

/**
 * The prompts the agent started, as far as disk tells. Started means the model could have seen it: its user
 * message is in the transcript (our agent records it, with the prompt id, before the model is called). A
 * transcript that holds no user message at all had nothing started; one whose user messages carry no prompt
 * ids (another agent's), or none the daemon can read, leaves it to the agent's ledger, which has an entry for
 * every prompt the agent began (a prompt cut off between that entry and its user message then counts as started).
 */
export function startedPromptIds(disk: {
  records: readonly TranscriptRecord[] | undefined;
  ledger: readonly LedgerEntry[];
}): ReadonlySet<string> {
  const users = (disk.records ?? []).filter((r) => r.type === "user");
  if (disk.records !== undefined && users.length === 0) return new Set();
  const recorded = users.flatMap((r) => (r.type === "user" && r.promptId !== undefined ? [r.promptId] : []));
  if (recorded.length > 0) return new Set(recorded);
  return new Set(disk.ledger.map((e) => e.promptId));
}

/**
 * The lines a load from disk appends for the prompts still open (the session is not live, so none is queued
 * here): `settled` for each the agent started (it ran; the ledger says how it ended), `never_started` for the
 * others.
 */
export function closingsAtLoad(
  entries: readonly PromptJournalEntry[],
  started: ReadonlySet<string>,
  at: string,
): PromptJournalEntry[] {
  return openPrompts(entries).map((p) => ({
    v: 1 as const,
    type: started.has(p.promptId) ? ("settled" as const) : ("never_started" as const),
    sessionId: p.sessionId,
    promptId: p.promptId,
    at,
  }));
}

/**
 * The never-started prompts as load/resume `promptTerminals` (docs/protocol.md shape plus ours: `text`, `queuedAt`):
 * `{v:1, promptId, terminal:"interrupted", code:"never_started", text, queuedAt, at}`, oldest first.
 */
export function neverStartedTerminals(entries: readonly PromptJournalEntry[]): PromptTerminal[] {
  const accepted = new Map(entries.flatMap((e) => (e.type === "accepted" ? [[e.promptId, e] as const] : [])));
  return entries.flatMap((e) => {
    const prompt = e.type === "never_started" ? accepted.get(e.promptId) : undefined;
    const at = Date.parse((e as NeverStartedPrompt).at);
    if (prompt === undefined || !Number.isFinite(at)) return [];
    const queuedAt = Date.parse(prompt.queuedAt);
    return [
      {
        v: 1 as const,
        promptId: prompt.promptId,
        terminal: "interrupted" as const,
        code: NEVER_STARTED_CODE,
        text: prompt.text,
        ...(Number.isFinite(queuedAt) ? { queuedAt } : {}),
        at,
      },
    ];
  });
}

/**
 * What a compaction keeps: every open prompt (queued or running here, or not yet judged by a load), and the
 * newest NEVER_STARTED_KEPT reported never-started ones with their accepted lines. Prompts that ran or were
 * withdrawn are dropped. File order is kept.
 */
export function compactedPromptJournal(entries: readonly PromptJournalEntry[]): PromptJournalEntry[] {
  const open = new Set(openPrompts(entries).map((p) => p.promptId));
  const reported = entries.flatMap((e) => (e.type === "never_started" ? [e.promptId] : []));
  const kept = new Set([...open, ...reported.slice(-NEVER_STARTED_KEPT)]);
  return entries.filter((e) => kept.has(e.promptId) && (e.type === "accepted" || e.type === "never_started"));
}
