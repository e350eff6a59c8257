// The questions the ACP-client e2e tests have the fake model ask: a single choice and a multi-select of three.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";

export const APPROACH = {
  question: "Which approach should I take?",
  header: "Approach",
  options: [
    { label: "A", description: "Rewrite the module" },
    { label: "B", description: "Patch the bug only" },
  ],
  multiSelect: false,
};

export const FEATURES = {
  question: "Which features do you want?",
  header: "Features",
  options: [
    { label: "Auth", description: "Log in" },
    { label: "Search", description: "Find things" },
    { label: "Export", description: "Download CSV" },
  ],
  multiSelect: true,
};

export const ANSWERS = "User has provided the following answers:\n\n";

/**
 * The fake model of those tests: "ask approach" asks APPROACH, "ask both" asks APPROACH and FEATURES, a tool
 * result is echoed back as `model saw: <result>`, anything else as `echo: <text>`.
 */
export function questionModel(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  if (text === "ask approach") return askUserQuestionCall([APPROACH]);
  if (text === "ask both") return askUserQuestionCall([APPROACH, FEATURES]);
  return reply.text(`echo: ${text}`);
}
