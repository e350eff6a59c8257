// The fake model of the crash suite, decided by the request's last message (one server serves every run of
// the file). The fake server itself answers 400 to any request whose tool messages do not pair with its tool
// calls (every call answered exactly once, in the next turn, no result without a call), so an invalid history
// shows up as a rejected request.
//   ASK_MIXED  lists the workspace and asks the question in one reply (a batch restore never re-asks),
//   ASK        asks the question,
//   SLOW       streams a long answer slowly (a kill lands mid-stream);
// anything else gets a short answer, and tool results get `Noted.`.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { DEFAULT_QUESTION, type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";

export const SLOW_TEXT = "A long answer that streams in many small pieces, one after another, for a while.";
export const DONE_TEXT = "Done.";
export const NOTED_TEXT = "Noted.";

export function crashModel(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(NOTED_TEXT);
  const text = messageText(last);
  const question = { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } };
  if (text.startsWith("ASK_MIXED")) {
    return reply.toolCalls([{ name: "list_directory", args: { path: "." } }, question], {
      text: "Looking, then asking.",
    });
  }
  if (text.startsWith("ASK")) return reply.toolCalls([question], { text: "One question." });
  if (text.startsWith("SLOW")) return reply.text(SLOW_TEXT, { deltas: 40, chunkDelayMs: 25 });
  return reply.text(DONE_TEXT);
}
