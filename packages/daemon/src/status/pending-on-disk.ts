// `pendingOnDisk` of the workspace session list: what a session that is only on disk would ask a person
// again when it is loaded. Computed when the list is asked for, for the sessions of the page being answered
// only, from each transcript's trailing turn (read backwards from the end of the file), never by a scan at
// boot. A kind is listed only when this daemon would really ask it: its restore switch for that kind is on,
// and a question whose answer the daemon acknowledged and journaled before a crash (which the restore
// answers from the journal, asking nobody) is not listed. `[]` says "checked: nothing waits"; the field is
// left out when the daemon does not know (its switches are off, or the tail is missing, uncertain or cannot
// be read: logged, and the list itself never fails for it).
import { type PendingOnDiskCall, pendingOnDiskCalls } from "@qwen-daemon/core";
import {
  ASK_USER_QUESTION_TOOL,
  RESTORE_KIND_NAMES,
  type RestoreKindSwitches,
  type SessionListPage,
  type SessionSummary,
  toolCallMeta,
} from "@qwen-daemon/core/protocol";
import type { AnswerJournal } from "../answers/answer-journal.js";
import { findJournaledAnswer, questionsKeyOf } from "../answers/journaled-answer.js";
import type { SessionStore } from "../persisted/session-store.js";

export type PendingOnDiskDeps = {
  store: SessionStore;
  journal: AnswerJournal;
  switches: RestoreKindSwitches;
  log: (line: string) => void;
};

/** `page` with `pendingOnDisk` set on each session that is not live whose trailing turn could be judged. */
export async function markPendingOnDisk(
  page: SessionListPage,
  cwd: string,
  deps: PendingOnDiskDeps,
): Promise<SessionListPage> {
  if (!RESTORE_KIND_NAMES.some((kind) => deps.switches[kind])) return page;
  const sessions = await Promise.all(page.sessions.map((s) => (s.live ? s : withPending(s, cwd, deps))));
  return { ...page, sessions };
}

async function withPending(
  session: SessionSummary,
  cwd: string,
  deps: PendingOnDiskDeps,
): Promise<SessionSummary> {
  try {
    const tail = await deps.store.readTrailingTurn(cwd, session.sessionId);
    // Not knowing (no transcript, or an end that cannot be trusted) is said by leaving the field out.
    if (tail === undefined || !tail.certain) return session;
    let calls = pendingOnDiskCalls(tail, deps.switches);
    if (calls.some((c) => c.kind === "user_question")) {
      calls = await withoutJournaledAnswers(calls, session.sessionId, cwd, deps, tail.records);
    }
    return { ...session, pendingOnDisk: calls.map((c) => c.kind) };
  } catch (error) {
    deps.log(`qwen serve: what waits in ${session.sessionId} on disk could not be read: ${String(error)}`);
    return session;
  }
}

/** Drops the questions the restore would answer from the answer journal (answer-replay.ts) instead of asking. */
async function withoutJournaledAnswers(
  calls: PendingOnDiskCall[],
  sessionId: string,
  cwd: string,
  deps: PendingOnDiskDeps,
  transcript: Parameters<typeof findJournaledAnswer>[1]["transcript"],
): Promise<PendingOnDiskCall[]> {
  const { entries } = await deps.journal.read(cwd, sessionId);
  if (!entries.some((e) => e.type === "answer")) return calls;
  return calls.filter((c) => {
    if (c.kind !== "user_question") return true;
    const toolCall = {
      toolCallId: c.call.id,
      rawInput: c.call.args ?? {},
      _meta: toolCallMeta(ASK_USER_QUESTION_TOOL),
    };
    const lookup = findJournaledAnswer(entries, {
      sessionId,
      toolCallId: c.call.id,
      questionsKey: questionsKeyOf(toolCall),
      transcript,
    });
    return lookup.answer === undefined;
  });
}
