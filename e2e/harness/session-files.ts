// The session's files on disk, read the way an operator would (docs/protocol.md "On disk"):
// $QWEN_HOME/projects/<cwd with "/" -> "-">/chats/<sessionId>.jsonl and <sessionId>.ledger.jsonl.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface LedgerLine {
  promptId: string;
  state: string;
  code?: string;
  restoredBy?: string;
  stopReason?: string;
}

export interface TranscriptLine {
  type: string;
  message?: { role: string; parts: Record<string, unknown>[] };
}

export function chatsDir(qwenHome: string, workspace: string): string {
  return join(qwenHome, "projects", workspace.replaceAll("/", "-"), "chats");
}

function readJsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

export function readLedger(qwenHome: string, workspace: string, sessionId: string): LedgerLine[] {
  return readJsonl<LedgerLine>(join(chatsDir(qwenHome, workspace), `${sessionId}.ledger.jsonl`));
}

export function readTranscript(qwenHome: string, workspace: string, sessionId: string): TranscriptLine[] {
  return readJsonl<TranscriptLine>(join(chatsDir(qwenHome, workspace), `${sessionId}.jsonl`));
}

/** Ledger lines of one prompt, reduced to the fields tests compare. */
export function ledgerOf(lines: readonly LedgerLine[], promptId: string): Omit<LedgerLine, "promptId">[] {
  return lines
    .filter((l) => l.promptId === promptId)
    .map(({ state, code, restoredBy, stopReason }) => ({
      state,
      ...(code !== undefined ? { code } : {}),
      ...(restoredBy !== undefined ? { restoredBy } : {}),
      ...(stopReason !== undefined ? { stopReason } : {}),
    }));
}
