// What the agent waits on, as the page shows it: a question, an edit, a command or another tool, with the
// identity that survives a restart. A re-asked question gets a new request id but is the same question
// (same tool call, same words), so drafts and "asked again" are matched by `key`, never by request id.

import { TOOL_NAME_META_KEY } from "@qwen-daemon/core/protocol";
import {
  type CommandInfo,
  commandOf,
  type FileDiff,
  locationsOf,
  toolDiffs,
  toolOutput,
} from "../conversation/tool-content.js";
import type { PermissionRequest } from "../net/daemon-event.js";
import { record } from "../net/read.js";
import { type Question, questionsOf } from "./answers.js";

export type InteractionKind = "question" | "edit" | "command" | "tool";

export type Interaction = {
  requestId: string;
  key: string;
  toolCallId: string | undefined;
  kind: InteractionKind;
  request: PermissionRequest;
  questions: Question[];
  title: string;
  diffs: FileDiff[];
  command: CommandInfo | undefined;
  locations: string[];
  output: string;
  /** Asked again after the daemon (or the agent) restarted: the person may have seen it before. */
  restored: boolean;
};

/** The identity of a question or approval across restarts: its tool call and what it asks. */
export function interactionKey(request: PermissionRequest): string {
  const call = request.toolCall ?? {};
  const questions = questionsOf(request);
  const what = questions.length > 0 ? questions.map((q) => q.question) : [String(call.title ?? "")];
  return [String(call.toolCallId ?? ""), ...what].join("\u001f");
}

export function interactionOf(
  request: PermissionRequest,
  workspace: string | undefined,
  restored = false,
): Interaction {
  const call = request.toolCall ?? {};
  const questions = questionsOf(request);
  const diffs = toolDiffs(call.content);
  const command = commandOf(call, workspace);
  const kind: InteractionKind =
    questions.length > 0 ? "question" : diffs.length > 0 ? "edit" : command ? "command" : "tool";
  return {
    requestId: request.requestId,
    key: interactionKey(request),
    toolCallId: typeof call.toolCallId === "string" ? call.toolCallId : undefined,
    kind,
    request,
    questions,
    title: String(call.title ?? record(call._meta)?.[TOOL_NAME_META_KEY] ?? "A tool call"),
    diffs,
    command,
    locations: locationsOf(call),
    output: toolOutput(call.content),
    restored,
  };
}

/** One line saying what is waiting (a notification's body, the page title). */
export function waitingText(interaction: Interaction): string {
  switch (interaction.kind) {
    case "question":
      return interaction.questions.map((q) => q.question).join(" ");
    case "command":
      return `Run: ${interaction.command?.command ?? interaction.title}`;
    case "edit":
      return `Edit ${interaction.diffs.map((d) => baseName(d.path)).join(", ")}`;
    default:
      return interaction.title;
  }
}

export function baseName(path: string): string {
  return path.split("/").filter(Boolean).at(-1) ?? path;
}
