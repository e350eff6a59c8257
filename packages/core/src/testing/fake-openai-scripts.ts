// Ready-made handlers for the common e2e conversation: the model asks a question, then answers once the
// question's tool result arrives. Decides by the last message, so it works for any client (ours, the reference).
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeQuestion,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  toolCallFor,
} from "./fake-openai-replies.js";
import type { FakeHandler } from "./fake-openai-server.js";

export interface QuestionFlowOptions {
  questions?: FakeQuestion[];
  /** Text streamed with the question call. */
  preamble?: string;
  /** The reply once the question's result arrives; gets the tool message text (answer, cancel or error text). */
  onAnswer?: (resultText: string) => FakeReply;
  /** The reply to a tool result of any other tool (default: a short text). */
  onOtherTool?: (name: string, resultText: string) => FakeReply;
}

/** A user message → ask_user_question; its result → `onAnswer` (default: text quoting the result). */
export function questionFlowHandler(options: QuestionFlowOptions = {}): FakeHandler {
  return (request) => {
    const last = lastMessage(request);
    if (last?.role === "tool") {
      const name = toolCallFor(request, last.tool_call_id)?.name ?? "unknown";
      const text = messageText(last);
      if (name === "ask_user_question") return options.onAnswer?.(text) ?? reply.text(`Got it. ${text}`);
      return options.onOtherTool?.(name, text) ?? reply.text(`${name} finished: ${text}`);
    }
    return askUserQuestionCall(options.questions ?? [DEFAULT_QUESTION], {
      text: options.preamble ?? "I have a question first.",
    });
  };
}
