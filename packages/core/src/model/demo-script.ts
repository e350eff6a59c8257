// What the built-in demo model says, decided purely from the request: ask a clarifying question, act on the
// answer with a real tool (write a file: an edit permission), then summarise. Deterministic, so tests and
// first-time users see the same flow every time.
import { type Content, type FunctionResponse, functionResponsesOf } from "../content.js";
import { functionResponseText } from "./openai-messages.js";
import type { GenerateRequest } from "./provider.js";

export const DEMO_LABEL = "[demo model]";
export const DEMO_NOTES_FILE = "demo-notes.md";
export const DEMO_QUESTION_HEADER = "Format";

const ASK = "ask_user_question";
const WRITE = "write_file";
const LIST = "list_directory";

export const DEMO_OPTIONS = [
  { label: "Short note", description: "One line that quotes your request." },
  { label: "Detailed note", description: "Your request plus the steps a real model would take." },
  { label: "Checklist", description: "Your request as a to-do checklist." },
] as const;

export interface DemoReply {
  text: string;
  toolCall?: { id: string; name: string; args: Record<string, unknown> };
}

export interface DemoAnswer {
  header: string;
  answer: string;
}

/** `**Header**: answer` lines of an ask_user_question result; empty when it was cancelled or unanswered. */
export function parseAnswers(text: string): DemoAnswer[] {
  const out: DemoAnswer[] = [];
  for (const line of text.split("\n")) {
    const match = /^\*\*(.+?)\*\*: (.*)$/.exec(line.trim());
    if (match) out.push({ header: match[1]!, answer: match[2]!.trim() });
  }
  return out;
}

function userText(content: Content): string {
  return content.parts
    .filter((p) => !p.thought && p.text)
    .map((p) => p.text)
    .join("\n")
    .trim();
}

/** The latest plain user message, i.e. the request the flow is about. */
function requestText(contents: readonly Content[]): string {
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i]!;
    if (content.role !== "user") continue;
    const text = userText(content);
    if (text) return text;
  }
  return "";
}

function lastResponseNamed(contents: readonly Content[], name: string): FunctionResponse | undefined {
  for (let i = contents.length - 1; i >= 0; i--) {
    const found = functionResponsesOf(contents[i]).find((r) => r.name === name);
    if (found) return found;
  }
  return undefined;
}

function answersOf(response: FunctionResponse | undefined): DemoAnswer[] {
  if (!response || typeof response.response.output !== "string") return [];
  return parseAnswers(response.response.output);
}

function quote(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

function answerSummary(answers: DemoAnswer[]): string {
  return answers.map((a) => a.answer).join("; ");
}

function noteContent(request: string, answers: DemoAnswer[]): string {
  const choice = answerSummary(answers);
  const lines = [`# Demo notes`, "", `Request: ${quote(request, 500)}`];
  for (const a of answers) lines.push(`${a.header}: ${a.answer}`);
  lines.push("");
  if (/checklist/i.test(choice)) {
    lines.push(
      "- [ ] Read the request",
      "- [ ] Ask what is unclear",
      "- [ ] Do the work",
      "- [ ] Report back",
    );
  } else if (/detailed/i.test(choice)) {
    lines.push("A real model would now read the workspace, plan the change, edit files and report back.");
  } else {
    lines.push(`Noted: ${quote(request)}.`);
  }
  lines.push("", "Written by the built-in demo model (no real model is configured).", "");
  return lines.join("\n");
}

export function planDemoReply(request: GenerateRequest): DemoReply {
  const { contents } = request;
  const offered = new Set(request.tools.map((t) => t.name));
  // Ids derive from the history length: unique within a conversation, identical on every run.
  const callId = (name: string) => `call_demo_${contents.length}_${name}`;
  const last = contents[contents.length - 1];

  if (last?.role !== "user") {
    return {
      text: `${DEMO_LABEL} Send me a message and I will show you the flow: a question, a tool call, a summary.`,
    };
  }

  // A plain message wins over tool results in the same entry: that is a new request (a repaired, dangling
  // question may ride along in front of it).
  const text = userText(last);
  const responses = functionResponsesOf(last);
  if (text || responses.length === 0) return onRequest(text, offered, callId);

  const written = responses.find((r) => r.name === WRITE);
  if (written) return onWritten(contents, written);
  const asked = responses.find((r) => r.name === ASK);
  if (asked) return onAnswered(contents, asked, offered, callId);
  const listed = responses.find((r) => r.name === LIST);
  if (listed) return onListed(contents, listed);
  const names = responses.map((r) => r.name).join(", ");
  return { text: `${DEMO_LABEL} I got results from ${names}; there is nothing more for me to do.` };
}

function onRequest(text: string, offered: Set<string>, callId: (name: string) => string): DemoReply {
  const request = text || "(empty message)";
  const intro = `${DEMO_LABEL} You asked: ${quote(request)}. I am the built-in demo model, so I will not really solve it, but I will walk through the real flow.`;
  if (offered.has(ASK)) {
    return {
      text: `${intro} First, a question.`,
      toolCall: {
        id: callId(ASK),
        name: ASK,
        args: {
          questions: [
            {
              question: `How should I record your request ${quote(request, 80)}?`,
              header: DEMO_QUESTION_HEADER,
              options: DEMO_OPTIONS.map((o) => ({ ...o })),
              multiSelect: false,
            },
          ],
        },
      },
    };
  }
  if (offered.has(LIST)) {
    return {
      text: `${intro} I cannot ask you questions here, so I will just look at the workspace.`,
      toolCall: { id: callId(LIST), name: LIST, args: { path: "." } },
    };
  }
  return { text: `${intro} No tools are available here, so that is all I can do.` };
}

function onAnswered(
  contents: readonly Content[],
  asked: FunctionResponse,
  offered: Set<string>,
  callId: (name: string) => string,
): DemoReply {
  const answers = answersOf(asked);
  if (answers.length === 0) {
    const said = functionResponseText(asked.response);
    return {
      text: `${DEMO_LABEL} The question was not answered (${quote(said, 200)}), so I stopped here. Send a new message to start again.`,
    };
  }
  const choice = answerSummary(answers);
  const request = requestText(contents);
  if (!offered.has(WRITE)) {
    return {
      text: `${DEMO_LABEL} You chose "${choice}" for ${quote(request)}. I cannot write files here, so I stop.`,
    };
  }
  return {
    text: `${DEMO_LABEL} You chose "${choice}". I will write ${DEMO_NOTES_FILE} with a note about your request.`,
    toolCall: {
      id: callId(WRITE),
      name: WRITE,
      args: { file_path: DEMO_NOTES_FILE, content: noteContent(request, answers) },
    },
  };
}

function onWritten(contents: readonly Content[], written: FunctionResponse): DemoReply {
  const choice = answerSummary(answersOf(lastResponseNamed(contents, ASK))) || "(no answer)";
  const request = requestText(contents);
  const error = written.response.error;
  if (error !== undefined) {
    const why = typeof error === "string" ? error : JSON.stringify(error);
    return {
      text: `${DEMO_LABEL} You chose "${choice}" for ${quote(request)}, but ${DEMO_NOTES_FILE} was not written: ${why}. Nothing was changed.`,
    };
  }
  return {
    text: `${DEMO_LABEL} Done. You chose "${choice}" for ${quote(request)}. write_file said: ${functionResponseText(written.response)}`,
  };
}

function onListed(contents: readonly Content[], listed: FunctionResponse): DemoReply {
  const request = requestText(contents);
  return {
    text: `${DEMO_LABEL} For ${quote(request)} I listed the workspace. list_directory said:\n${functionResponseText(listed.response)}`,
  };
}
