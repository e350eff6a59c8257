// What an answer link's page shows of its question, and how an answer reads, built from what the daemon has:
// the waiting request's tool call, or (after a restart, before the question is asked again) the call in the
// transcript's last model entry. Pure.
import {
  type FunctionCall,
  functionCallsOf,
  functionResponsesOf,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import {
  ASK_USER_QUESTION_TOOL,
  isQuestionToolCall,
  type PermissionVoteBody,
  toolCallQuestions,
} from "@qwen-daemon/core/protocol";
import type { LinkView } from "./link-pages.js";

/** The view of a waiting request's tool call. */
export function viewOfToolCall(toolCall: Record<string, unknown>): LinkView {
  if (isQuestionToolCall(toolCall)) return questionView(toolCallQuestions(toolCall));
  const input = record(toolCall.rawInput);
  const command = text(input.command);
  const meta = record(toolCall._meta);
  const tool = text(meta.toolName);
  const title = command
    ? `Run: ${command}`
    : (text(toolCall.title) ?? (tool ? `Allow ${tool}` : "Allow a tool call"));
  return { kind: "approval", title, questions: [] };
}

/** The view of a call read from the transcript (the same call, before it is asked again). */
export function viewOfCall(call: FunctionCall): LinkView {
  const args = record(call.args);
  if (call.name === ASK_USER_QUESTION_TOOL) {
    return questionView(Array.isArray(args.questions) ? args.questions : undefined);
  }
  const command = text(args.command);
  const path = text(args.file_path) ?? text(args.path);
  const title = command
    ? `Run: ${command}`
    : path
      ? `${call.name ?? "Edit"}: ${path}`
      : `Allow ${call.name ?? "a tool"}`;
  return { kind: "approval", title, questions: [] };
}

/**
 * The call `toolCallId` when it is in the transcript's last model entry and has no result yet (a question
 * that can be asked again); `answered` when a result follows its last occurrence; `absent` otherwise.
 */
export function callStateInTranscript(
  records: readonly TranscriptRecord[],
  toolCallId: string,
): { state: "waiting"; call: FunctionCall } | { state: "answered" | "absent" } {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as TranscriptRecord;
    if (r.type === "system" || !("message" in r)) continue;
    if (functionResponsesOf(r.message).some((res) => res.id === toolCallId)) return { state: "answered" };
    const call = functionCallsOf(r.message).find((c) => c.id === toolCallId);
    if (call !== undefined) {
      const trailing = records
        .slice(i + 1)
        .every((later) => later.type === "system" || later.type === "tool_result");
      return trailing ? { state: "waiting", call } : { state: "absent" };
    }
  }
  return { state: "absent" };
}

/** How a vote reads to a person: the answers given, else the option's meaning. */
export function answerText(
  vote: { outcome: PermissionVoteBody["outcome"]; answers?: Record<string, string> | undefined },
  view?: LinkView,
): string {
  if (vote.outcome.outcome === "cancelled") return view?.kind === "approval" ? "Rejected" : "Declined";
  const answers = Object.entries(vote.answers ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, value]) => value);
  if (answers.length > 0) return answers.join("; ");
  const id = vote.outcome.optionId;
  if (/always/i.test(id)) return "Allowed always";
  if (/reject|cancel|deny/i.test(id)) return "Rejected";
  if (/proceed|allow|once/i.test(id)) return "Allowed once";
  return id;
}

/**
 * The answers of an answer page's form (`q<i>` picks, `q<i>_other` text): a multi-select answer is its
 * labels in the question's order joined with ", " plus the Other text, a single answer the Other text when
 * given, else the pick (the web client's rule). `missing`: the questions left unanswered.
 */
export function answersFromForm(
  view: LinkView,
  form: URLSearchParams,
): { answers: Record<string, string>; missing: number[] } {
  const answers: Record<string, string> = {};
  const missing: number[] = [];
  view.questions.forEach((q, i) => {
    const picked = new Set(form.getAll(`q${i}`));
    const labels = q.options.map((o) => o.label).filter((label) => picked.has(label));
    const other = (form.get(`q${i}_other`) ?? "").trim();
    const parts = other ? [...labels, other] : labels;
    if (parts.length === 0) missing.push(i);
    else answers[String(i)] = q.multiSelect ? parts.join(", ") : (parts[parts.length - 1] as string);
  });
  return { answers, missing };
}

function questionView(raw: unknown[] | undefined): LinkView {
  const questions = (raw ?? []).flatMap((value) => {
    const q = record(value);
    const question = text(q.question);
    if (question === undefined) return [];
    const options = (Array.isArray(q.options) ? q.options : []).flatMap((o) => {
      const label = text(record(o).label);
      return label === undefined ? [] : [{ label, description: text(record(o).description) }];
    });
    return [{ question, header: text(q.header), options, multiSelect: q.multiSelect === true }];
  });
  const title = questions.map((q) => q.question).join(" ") || "The agent asks you a question";
  return { kind: "question", title, questions };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
