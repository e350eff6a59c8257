// The fake model's behaviour for the e2e suite, decided by the request's last message so one server can
// serve every test of a file. A user message containing
//   ASK_INVALID  asks a question with a single option (invalid),
//   ASK_TWO      asks two questions in one ask_user_question call,
//   ASK_BATCH    makes two ask_user_question calls in one reply,
//   ASK_MIXED    lists the workspace and asks the default question in one reply (a mixed batch),
//   ASK          asks the default question (Color),
//   STALL        never answers;
// anything else gets PLAIN_ANSWER, and a tool result gets `answerText(result)`.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeHandler,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";

export const QUESTION_PREAMBLE = "I have a question first.";
export const PLAIN_ANSWER = "Plain answer.";
export const answerText = (toolResult: string): string => `Noted: ${toolResult}`;

/** The one-option question the model "mistakenly" asks for ASK_INVALID. */
export const INVALID_QUESTION = {
  question: "Proceed with the only option?",
  header: "Only",
  options: [{ label: "Yes", description: "The only choice." }],
};

/** The second question of ASK_TWO and ASK_BATCH. */
export const SIZE_QUESTION = {
  question: "Which size should the button be?",
  header: "Size",
  options: [
    { label: "Small", description: "Fits the toolbar." },
    { label: "Large", description: "Easier to hit." },
  ],
};

/** What the model sees for a one-option question (docs/protocol.md "What the model is told"). */
export const INVALID_OPTIONS_TEXT = 'Question 1: "options" must contain between 2 and 4 options.';

export function conversationHandler(options: { stallOnToolResult?: boolean } = {}): FakeHandler {
  return (request: OpenAIChatRequest): FakeReply => {
    const last = lastMessage(request);
    if (last?.role === "tool") {
      return options.stallOnToolResult ? reply.stall() : reply.text(answerText(messageText(last)));
    }
    const text = messageText(last);
    if (text.includes("ASK_INVALID")) {
      return askUserQuestionCall([INVALID_QUESTION], { text: QUESTION_PREAMBLE });
    }
    if (text.includes("ASK_TWO")) {
      return askUserQuestionCall([DEFAULT_QUESTION, SIZE_QUESTION], { text: QUESTION_PREAMBLE });
    }
    if (text.includes("ASK_BATCH")) {
      return reply.toolCalls(
        [
          { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } },
          { name: "ask_user_question", args: { questions: [{ ...SIZE_QUESTION, multiSelect: false }] } },
        ],
        { text: QUESTION_PREAMBLE },
      );
    }
    if (text.includes("ASK_MIXED")) {
      return reply.toolCalls(
        [
          { name: "list_directory", args: { path: "." } },
          { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } },
        ],
        { text: QUESTION_PREAMBLE },
      );
    }
    if (text.includes("ASK")) return askUserQuestionCall([DEFAULT_QUESTION], { text: QUESTION_PREAMBLE });
    if (text.includes("STALL")) return reply.stall();
    return reply.text(PLAIN_ANSWER);
  };
}
