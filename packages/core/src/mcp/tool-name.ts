// Names MCP tools get in front of the model: `mcp__<server>__<tool>`, restricted to what every provider
// accepts (letters, digits, `_`, `-`, at most 64 characters). Pure.
import { createHash } from "node:crypto";
import type { ToolRestoreClass } from "../tools/tool.js";

export const MAX_TOOL_NAME_LENGTH = 64;

const sanitize = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, "_");

function shortHash(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 8);
}

const MCP_TOOL_PREFIX = "mcp__";

/** Every MCP tool waits for an approval of its own kind ("mcp"); a load reads it off the name (isMcpToolName). */
export const MCP_TOOL_RESTORE_CLASS = "mcp" satisfies ToolRestoreClass;

/** Whether `name` is one mcpToolName (or uniqueToolName after it) makes: only MCP tools carry the prefix. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX) && name.length > MCP_TOOL_PREFIX.length;
}

/** Too-long names keep a readable prefix and end in a hash of the full name, so they stay distinct. */
export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_TOOL_PREFIX}${sanitize(server)}__${sanitize(tool)}`;
  if (full.length <= MAX_TOOL_NAME_LENGTH) return full;
  const suffix = `_${shortHash(`${server}\0${tool}`)}`;
  return full.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
}

/** `name`, or `name_2`, `name_3`, ... : the first one not in `taken` (sanitizing can make two names equal). */
export function uniqueToolName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
