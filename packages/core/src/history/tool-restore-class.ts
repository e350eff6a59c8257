// The restore class of a call by its tool's name alone, for code that reads a transcript with no tool registry
// at hand (a load before the chat exists, the daemon's session list, which carries none of the tools' code).
// Nothing here decides a class: the built-ins' are declared beside their names (tool-names.ts), which their
// definitions take theirs from, and every MCP tool's is the one the MCP adapter declares, recognised by the
// name the adapter gives it.
import { isMcpToolName, MCP_TOOL_RESTORE_CLASS } from "../mcp/tool-name.js";
import type { ToolRestoreClass } from "../tools/tool.js";
import { BUILTIN_RESTORE_CLASS } from "../tools/tool-names.js";

const builtin: ReadonlyMap<string, ToolRestoreClass> = new Map(Object.entries(BUILTIN_RESTORE_CLASS));

/**
 * The restore class the tool called `name` declares, or undefined for a name no built-in or MCP tool has (a
 * tool of another version or another host: a load cannot know what it waited for, so it restores nothing).
 */
export function restoreClassOfToolName(name: string): ToolRestoreClass | undefined {
  return builtin.get(name) ?? (isMcpToolName(name) ? MCP_TOOL_RESTORE_CLASS : undefined);
}
