// The fake OpenAI-compatible model every daemon benchmark talks to: a user prompt gets one
// ask_user_question call, the question's answer gets a short text (the turn ends). Requests that do not
// offer the tool (the reference's side requests: follow-up suggestions, memory extraction) get plain text,
// so the same script drives our daemon and the reference.
import { FAKE_OPENAI } from "./qwen-serve.mjs";

export async function startBenchModel() {
  const { startFakeOpenAIServer, askUserQuestionCall, DEFAULT_QUESTION, lastMessage, reply } = await import(
    FAKE_OPENAI.href
  );
  return startFakeOpenAIServer({
    handler: (request) => {
      if (lastMessage(request)?.role === "tool") return reply.text("Thanks, noted.");
      const offersQuestion = request.tools?.some((tool) => tool.function?.name === "ask_user_question");
      if (!offersQuestion) return reply.text("ok");
      return askUserQuestionCall([DEFAULT_QUESTION], { text: "One question first." });
    },
  });
}

/** The vote that answers the fake model's question (core/testing DEFAULT_QUESTION). */
export const ANSWER_VOTE = {
  outcome: { outcome: "selected", optionId: "proceed_once" },
  answers: { 0: "Blue" },
};
