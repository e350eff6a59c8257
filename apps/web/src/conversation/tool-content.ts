// What an ACP tool call carries, read for people: its text output, the file diffs it proposes or made,
// the shell command it runs (and where), and a plain word for its kind instead of the protocol's.
import { ASK_USER_QUESTION_TOOL } from "@qwen-daemon/core/protocol";
import { list, record, text } from "../net/read.js";

export type FileDiff = { path: string; oldText: string | null; newText: string };
export type CommandInfo = { command: string; cwd: string | undefined };

/** Text blocks of ACP tool-call content, joined; diffs and terminals are not text. */
export function toolOutput(content: unknown): string {
  const parts: string[] = [];
  for (const value of list(content)) {
    const block = record(value);
    const inner = record(block?.content);
    if (block?.type === "content" && inner?.type === "text") parts.push(String(inner.text));
  }
  return parts.join("\n\n");
}

export function toolDiffs(content: unknown): FileDiff[] {
  return list(content).flatMap((value) => {
    const b = record(value);
    const newText = text(b?.newText);
    if (b?.type !== "diff" || newText === undefined) return [];
    return [{ path: text(b.path) ?? "file", oldText: text(b.oldText) ?? null, newText }];
  });
}

/**
 * The shell command of an `execute` tool call and the folder it runs in: the call's `directory`
 * argument resolved against the workspace (the agent runs commands in the workspace by default).
 */
export function commandOf(toolCall: unknown, workspace: string | undefined): CommandInfo | undefined {
  const input = record(record(toolCall)?.rawInput);
  const command = text(input?.command);
  if (command === undefined || command.trim() === "") return undefined;
  const dir = text(input?.directory) || undefined;
  return { command, cwd: resolveDir(workspace, dir) };
}

function resolveDir(workspace: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) return workspace;
  if (dir.startsWith("/") || workspace === undefined) return dir;
  const parts = workspace.split("/");
  for (const part of dir.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length > 1) parts.pop();
    } else parts.push(part);
  }
  return parts.join("/") || "/";
}

const KIND_WORDS: Record<string, string> = {
  read: "Read",
  edit: "Edit",
  delete: "Delete",
  move: "Move",
  search: "Search",
  execute: "Command",
  fetch: "Fetch",
  switch_mode: "Mode",
  think: "Thinking",
  other: "Tool",
};

/** A person's word for a tool call's kind (the protocol says `think` for a question, `edit` for a write). */
export function kindWord(toolKind: string | undefined, toolName: string | undefined): string {
  if (toolName === ASK_USER_QUESTION_TOOL) return "Question";
  return KIND_WORDS[toolKind ?? "other"] ?? "Tool";
}

/** Paths a tool call names (ACP `locations`). */
export function locationsOf(toolCall: unknown): string[] {
  return list(record(toolCall)?.locations).flatMap((l) => {
    const path = text(record(l)?.path);
    return path === undefined ? [] : [path];
  });
}

/** A tool title or path with the workspace prefix dropped ("Write /ws/a.md" reads "Write a.md"). */
export function relativeToWorkspace(text: string, workspace: string | undefined): string {
  if (!workspace || workspace === "/") return text;
  return text.split(`${workspace}/`).join("");
}
