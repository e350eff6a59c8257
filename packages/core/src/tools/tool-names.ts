// Built-in tool names, as the model sees them; they match the reference implementation's names
// (except `grep`, which the reference calls `grep_search`; our issue names it `grep`).
import { ASK_USER_QUESTION_TOOL } from "../protocol/meta.js";
import type { ToolRestoreClass } from "./tool.js";

export const BuiltinToolName = {
  askUserQuestion: ASK_USER_QUESTION_TOOL,
  readFile: "read_file",
  writeFile: "write_file",
  edit: "edit",
  listDirectory: "list_directory",
  glob: "glob",
  grep: "grep",
  runShellCommand: "run_shell_command",
} as const;

export type BuiltinToolName = (typeof BuiltinToolName)[keyof typeof BuiltinToolName];

/**
 * What each built-in tool waits for when a crash leaves its call without a result (tools/tool.ts says what the
 * classes mean). Declared here, beside the names, and not only in the tools' definitions: a load and the
 * daemon's session list read a transcript with no tool built (the daemon does not carry the tools' code), and
 * the `Record` makes the compiler refuse a built-in without a class. Each tool's definition takes its class
 * from this row, so the two cannot disagree.
 */
export const BUILTIN_RESTORE_CLASS = {
  [BuiltinToolName.askUserQuestion]: "user_question",
  [BuiltinToolName.readFile]: "none",
  [BuiltinToolName.writeFile]: "edit",
  [BuiltinToolName.edit]: "edit",
  [BuiltinToolName.listDirectory]: "none",
  [BuiltinToolName.glob]: "none",
  [BuiltinToolName.grep]: "none",
  [BuiltinToolName.runShellCommand]: "exec",
} as const satisfies Record<BuiltinToolName, ToolRestoreClass>;
