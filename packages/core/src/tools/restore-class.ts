// The restore class of a call by its tool's name alone, for code that reads a transcript with no tool registry
// at hand (a load before the chat exists, the daemon's session list). Nothing here decides a class: each comes
// from the tool's own definition (Tool.restoreClass), the built-ins' as createBuiltinTools builds them and every
// MCP tool's from the one the MCP adapter declares, recognised by the name the adapter gives it.
import { MCP_TOOL_RESTORE_CLASS } from "../mcp/mcp-tool.js";
import { isMcpToolName } from "../mcp/tool-name.js";
import { createAskUserQuestionTool } from "./ask-user-question.js";
import { createBuiltinTools } from "./registry.js";
import type { ToolRestoreClass } from "./tool.js";

let builtin: ReadonlyMap<string, ToolRestoreClass> | undefined;

/** The built-in tools' classes, by name (built once: the tools are only constructed, nothing runs). */
function builtinRestoreClasses(): ReadonlyMap<string, ToolRestoreClass> {
  builtin ??= new Map(
    createBuiltinTools({
      includeAskUserQuestion: true,
      askUserQuestionTool: createAskUserQuestionTool(),
    }).map((tool) => [tool.name, tool.restoreClass]),
  );
  return builtin;
}

/**
 * The restore class the tool called `name` declares, or undefined for a name no built-in or MCP tool has (a
 * tool of another version or another host: a load cannot know what it waited for, so it restores nothing).
 */
export function restoreClassOfToolName(name: string): ToolRestoreClass | undefined {
  return builtinRestoreClasses().get(name) ?? (isMcpToolName(name) ? MCP_TOOL_RESTORE_CLASS : undefined);
}
