// The fake OpenAI-compatible model shared by the interop tests. It must behave for both children: the
// reference also sends side requests (follow-up suggestions, memory extraction) to the same endpoint, so
// a tool call is emitted only for the main request of a prompt: the one offering ask_user_question whose
// last message is the user's prompt. Tool results may arrive as a string (ours) or an array of parts
// (the reference); messageText reads both.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeQuestion,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  toolCallFor,
} from "@qwen-daemon/core/testing";

/** The prompt that makes the model ask (sdk-client-flow.mjs's default prompt). */
export const ASK_PROMPT = "ASK which database";
/** The prompt that makes the model run SHELL_COMMAND. */
export const SHELL_PROMPT = "SHELL make the marker";
export const SHELL_MARKER_FILE = "guarded-marker.txt";
/** Writes the marker and prints whether the private capability reached the tool's subprocess. */
export const SHELL_COMMAND = `echo ran > ${SHELL_MARKER_FILE}; echo "cap=\${QWEN_CODE_PRIVATE_ACP_CAPABILITY:-unset}"`;

/** The prompt that makes the model write WRITE_FILE with write_file. */
export const WRITE_PROMPT = "WRITE the note";
export const WRITE_FILE = "interop-note.txt";
export const WRITE_CONTENT = "written through the client\n";

export const DATABASE_QUESTION: FakeQuestion = {
  question: "Which database should we use?",
  header: "Database",
  options: [
    { label: "Postgres", description: "relational" },
    { label: "SQLite", description: "embedded" },
  ],
};
/** What the model must receive once "SQLite" was voted (exact text, docs/protocol.md "What the model is told"). */
export const SQLITE_ANSWER_TEXT = "User has provided the following answers:\n\n**Database**: SQLite";
/** Prefix of the model's reply to any tool result, followed by the result text. */
export const TOOL_RESULT_REPLY_PREFIX = "Noted: ";

function offers(request: OpenAIChatRequest, tool: string): boolean {
  return (request.tools ?? []).some((t) => t.function.name === tool);
}

export function interopModel(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool" && toolCallFor(request, last.tool_call_id) !== undefined) {
    return reply.text(`${TOOL_RESULT_REPLY_PREFIX}${messageText(last)}`);
  }
  if (last?.role === "user" && offers(request, "ask_user_question")) {
    const text = messageText(last);
    if (text.includes(ASK_PROMPT)) return askUserQuestionCall([DATABASE_QUESTION]);
    if (text.includes(SHELL_PROMPT)) return reply.toolCall("run_shell_command", { command: SHELL_COMMAND });
    if (text.includes(WRITE_PROMPT))
      return reply.toolCall("write_file", { file_path: WRITE_FILE, content: WRITE_CONTENT });
  }
  return reply.text("OK.");
}

/** Every tool-result text the model received, over all requests. */
export function toolResultsSeen(requests: readonly OpenAIChatRequest[]): string[] {
  const seen = new Set<string>();
  for (const request of requests) {
    for (const message of request.messages) if (message.role === "tool") seen.add(messageText(message));
  }
  return [...seen];
}
