import type { Loose } from "../net/daemon-event.js";
// What an ACP tool call carries, read for people: its text output, the file diffs it proposes or made,
// the shell command it runs (and where), and a plain word for its kind instead of the protocol's.

export type FileDiff = { path: string; oldText: string | null; newText: string };
export type CommandInfo = { command: string; cwd: string | undefined };

/** Text blocks of ACP tool-call content, joined; diffs and terminals are not text. */
export function toolOutput(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (block?.type === "content" && block.content?.type === "text") parts.push(String(block.content.text));
  }
  return parts.join("\n\n");
}

export function toolDiffs(content: unknown): FileDiff[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((b) => b?.type === "diff" && typeof b.newText === "string")
    .map((b) => ({
      path: typeof b.path === "string" ? b.path : "file",
      oldText: typeof b.oldText === "string" ? b.oldText : null,
      newText: b.newText,
    }));
}

/**
 * The shell command of an `execute` tool call and the folder it runs in: the call's `directory`
 * argument resolved against the workspace (the agent runs commands in the workspace by default).
 */
export function commandOf(toolCall: Loose, workspace: string | undefined): CommandInfo | undefined {
  const input = toolCall?.rawInput;
  if (typeof input?.command !== "string" || input.command.trim() === "") return undefined;
  const dir = typeof input.directory === "string" && input.directory !== "" ? input.directory : undefined;
  return { command: input.command, cwd: resolveDir(workspace, dir) };
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
  if (toolName === "ask_user_question") return "Question";
  return KIND_WORDS[toolKind ?? "other"] ?? "Tool";
}

/** Paths a tool call names (ACP `locations`). */
export function locationsOf(toolCall: Loose): string[] {
  if (!Array.isArray(toolCall?.locations)) return [];
  return toolCall.locations.map((l: Loose) => l?.path).filter((p: unknown) => typeof p === "string");
}

/** A tool title or path with the workspace prefix dropped ("Write /ws/a.md" reads "Write a.md"). */
export function relativeToWorkspace(text: string, workspace: string | undefined): string {
  if (!workspace || workspace === "/") return text;
  return text.split(`${workspace}/`).join("");
}
