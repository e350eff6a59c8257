// Built-in tool names, as the model sees them; they match the reference implementation's names
// (except `grep`, which the reference calls `grep_search`; our issue names it `grep`).
import { ASK_USER_QUESTION_TOOL } from "../protocol/meta.js";

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
