// One line of a session's answer journal (`<sessionId>.answers.jsonl`, docs/restore.md "The guarantees"). The daemon
// writes an `answer` before it acknowledges a vote that resolves a question, so the answer survives a crash
// that takes the daemon and its child down before the child has written the tool result. A `withdrawn` line
// cancels an answer the daemon journaled but could not apply (the question ended some other way meanwhile).

import { VoteAnswers, VoteOutcome } from "@qwen-daemon/core/protocol";
import { z } from "zod";

export const AnswerEntry = z.object({
  v: z.literal(1),
  type: z.literal("answer"),
  sessionId: z.string().min(1),
  /** The question's `toolCall.toolCallId`: the functionCall id, which a re-hung question keeps. */
  toolCallId: z.string().min(1),
  /** Fingerprint of the questions asked (see questionsKeyOf): an old answer never fits a different question. */
  questionsKey: z.string().optional(),
  outcome: VoteOutcome,
  answers: VoteAnswers.optional(),
  /** The request the answer was given to (a re-hung question gets a new one). */
  requestId: z.string().min(1),
  voterClientId: z.string().optional(),
  /** When the daemon journaled it (ISO); orders it against the transcript's records. */
  at: z.string().min(1),
});
export type AnswerEntry = z.infer<typeof AnswerEntry>;

export const WithdrawnEntry = z.object({
  v: z.literal(1),
  type: z.literal("withdrawn"),
  sessionId: z.string().min(1),
  toolCallId: z.string().min(1),
  /** The request whose answer is withdrawn. */
  requestId: z.string().min(1),
  at: z.string().min(1),
});
export type WithdrawnEntry = z.infer<typeof WithdrawnEntry>;

export const JournalEntry = z.discriminatedUnion("type", [AnswerEntry, WithdrawnEntry]);
export type JournalEntry = z.infer<typeof JournalEntry>;

/** A journal as read: its entries, and what was skipped to get them. */
export type JournalRead = {
  entries: JournalEntry[];
  /** Whole lines that were not JSON or not an entry: damage, which the reader reports. */
  corruptLines: number;
  /** The file ended in a line cut short by a crash mid-write (expected after a crash, not damage). */
  tornTail: boolean;
};

/**
 * The entries of a journal file's text, in file order. Blank lines are ignored; lines that are not JSON or of
 * another shape are skipped and counted, so one bad line never hides the rest and never goes unnoticed.
 */
export function parseAnswerJournal(text: string): JournalRead {
  const read: JournalRead = { entries: [], corruptLines: 0, tornTail: false };
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const last = index === lines.length - 1; // no newline after it
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last) read.tornTail = true;
      else read.corruptLines += 1;
      return;
    }
    const parsed = JournalEntry.safeParse(value);
    if (parsed.success) read.entries.push(parsed.data);
    else read.corruptLines += 1;
  });
  return read;
}
