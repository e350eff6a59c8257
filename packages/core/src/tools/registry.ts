// The tools a session offers: built-ins, optionally ask_user_question, and MCP tools added after connect.
import type { ToolDeclaration } from "../model/provider.js";
import { createEditTool } from "./edit.js";
import type { ToolFileSystem } from "./file-system.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { listDirectoryTool } from "./list-directory.js";
import { createReadFileTool } from "./read-file.js";
import { createShellTool, type ShellToolOptions } from "./shell.js";
import type { Tool } from "./tool.js";
import { createWriteFileTool } from "./write-file.js";

export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Two tools with one name would make the model's calls ambiguous, so a duplicate is a bug. */
  register(tool: Tool): void {
    if (this.#tools.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered.`);
    this.#tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** In registration order. */
  list(): Tool[] {
    return [...this.#tools.values()];
  }

  declarations(): ToolDeclaration[] {
    return this.list().map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  }
}

export interface BuiltinToolsOptions {
  /** True only when the host can collect answers (an interactive client is attached). */
  includeAskUserQuestion: boolean;
  /** The ask_user_question tool, built by the caller; required when includeAskUserQuestion is true. */
  askUserQuestionTool?: Tool;
  shell?: ShellToolOptions;
  /** Where read_file, write_file and edit read and write text; the disk by default. */
  fileSystem?: ToolFileSystem;
}

export function createBuiltinTools(options: BuiltinToolsOptions): Tool[] {
  const tools: Tool[] = [];
  if (options.includeAskUserQuestion) {
    if (!options.askUserQuestionTool) {
      throw new Error("includeAskUserQuestion is true but no askUserQuestionTool was given.");
    }
    tools.push(options.askUserQuestionTool);
  }
  tools.push(
    createReadFileTool(options.fileSystem),
    createWriteFileTool(options.fileSystem),
    createEditTool(options.fileSystem),
    listDirectoryTool,
    globTool,
    grepTool,
    createShellTool(options.shell),
  );
  return tools;
}
