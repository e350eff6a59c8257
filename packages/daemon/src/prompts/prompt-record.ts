// One line of a session's prompt journal (`<sessionId>.prompts.jsonl`): the daemon's own record of the prompts
// it acknowledged with 202, so a prompt that was queued (or not yet started) when everything died is not silently
// gone. `accepted` is fsynced before the 202; it is closed by `settled` (the agent answered it: its turn ran),
// `withdrawn` (journaled, then refused: the queue filled up or the session ended before it was admitted) or
// `never_started` (a later load found no trace of it in the agent's prompt ledger, and reported it).
import { z } from "zod";

const Base = z.object({ v: z.literal(1), sessionId: z.string().min(1), promptId: z.string().min(1) });

export const AcceptedPrompt = Base.extend({
  type: z.literal("accepted"),
  /** The prompt's text blocks joined (what pending-prompts lists show), so a client can offer to send it again. */
  text: z.string(),
  /** When the daemon accepted it (ISO). */
  queuedAt: z.string().min(1),
  originatorClientId: z.string().optional(),
});
export type AcceptedPrompt = z.infer<typeof AcceptedPrompt>;

const Closing = (type: "settled" | "withdrawn" | "never_started") =>
  Base.extend({ type: z.literal(type), at: z.string().min(1) });

export const SettledPrompt = Closing("settled");
export const WithdrawnPrompt = Closing("withdrawn");
export const NeverStartedPrompt = Closing("never_started");
export type NeverStartedPrompt = z.infer<typeof NeverStartedPrompt>;

export const PromptJournalEntry = z.discriminatedUnion("type", [
  AcceptedPrompt,
  SettledPrompt,
  WithdrawnPrompt,
  NeverStartedPrompt,
]);
export type PromptJournalEntry = z.infer<typeof PromptJournalEntry>;

/** A parsed line as an entry, or undefined when it is not one (counted as corrupt by the reader). */
export function decodePromptJournalEntry(value: unknown): PromptJournalEntry | undefined {
  const parsed = PromptJournalEntry.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
