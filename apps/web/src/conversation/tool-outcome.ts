// How a tool call's end reads to a person. The agent's tool results are written for the model (docs/
// protocol.md, "What the model is told"): a declined question or a rejected edit comes back as
// `Tool "<name>" was canceled by the user.` with status failed, an answered question as markdown under a
// preamble. Here those become the person's choice ("you declined", "you said no") and the answer itself,
// so nobody reads a decline as a failure or a protocol sentence as news. Pure.
import { ASK_USER_QUESTION_TOOL } from "@qwen-daemon/core/protocol";
import { list, record, text } from "../net/read.js";
import type { ToolItem } from "./timeline.js";

/** `declined`: the person said no; `stopped`: the turn was stopped first; `interrupted`: a crash cut it. */
export type ToolShown = {
  status: "pending" | "in_progress" | "completed" | "failed" | "declined" | "stopped" | "interrupted";
  words: string;
  /** What unfolds under the row, if anything is worth reading; `markdown` when it is written as such. */
  body: string;
  markdown: boolean;
  title: string;
};

const DECLINED = /^Tool "[^"]*" was canceled by the user\.$/;
const STOPPED_BEFORE_RUN = "Tool call was cancelled before execution.";
const INTERRUPTED = ["Tool execution result was not recorded", "Tool result missing from saved history"];
const ANSWERS_PREAMBLE = "User has provided the following answers:";
const WORDS: Record<string, string> = {
  pending: "waiting",
  in_progress: "running",
  completed: "done",
  failed: "failed",
};

export function toolShown(item: ToolItem): ToolShown {
  const question = item.toolName === ASK_USER_QUESTION_TOOL;
  const output = item.output.trim();
  const title = question ? (questionTitle(item.rawInput) ?? "A question for you") : item.title;
  if (DECLINED.test(output)) {
    return {
      status: "declined",
      words: question ? "you declined" : "you said no",
      body: "",
      markdown: false,
      title,
    };
  }
  if (output === STOPPED_BEFORE_RUN) {
    return { status: "stopped", words: "stopped before it ran", body: "", markdown: false, title };
  }
  if (INTERRUPTED.some((start) => output.startsWith(start))) {
    return { status: "interrupted", words: "interrupted by a restart", body: "", markdown: false, title };
  }
  if (question && (item.status === "pending" || item.status === "in_progress")) {
    return { status: item.status, words: "waiting for you", body: "", markdown: false, title };
  }
  const body =
    question && output.startsWith(ANSWERS_PREAMBLE) ? output.slice(ANSWERS_PREAMBLE.length).trim() : output;
  return { status: item.status, words: WORDS[item.status] ?? item.status, body, markdown: question, title };
}

/** The question itself ("Which colour?"; the row's chip says it is a question), "Which parts? (and 1 more)". */
function questionTitle(rawInput: unknown): string | undefined {
  const questions = list(record(rawInput)?.questions).flatMap((q) => {
    const t = text(record(q)?.question);
    return t ? [t] : [];
  });
  if (questions.length === 0) return undefined;
  if (questions.length === 1) return questions[0];
  return `${questions[0]} (and ${questions.length - 1} more)`;
}
