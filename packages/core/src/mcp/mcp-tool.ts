// A remote MCP tool behind our Tool contract: namespaced name, `exec` confirmation (it runs code we do not
// control), the server's own JSON Schema, results flattened to text.
import type { Tool } from "../tools/tool.js";
import { flattenCallResult } from "./call-result.js";
import type { McpConnection, RemoteTool } from "./connection.js";
import { MCP_TOOL_RESTORE_CLASS } from "./tool-name.js";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createMcpTool(connection: McpConnection, remote: RemoteTool, exposedName: string): Tool {
  const required = Array.isArray(remote.inputSchema.required)
    ? remote.inputSchema.required.filter((k): k is string => typeof k === "string")
    : [];
  return {
    name: exposedName,
    description: remote.description ?? `Tool "${remote.name}" from MCP server "${connection.name}".`,
    // Providers insist on an object schema; a server that declares none still takes named arguments.
    parameters: { type: "object", ...remote.inputSchema },
    confirmation: "exec",
    restoreClass: MCP_TOOL_RESTORE_CLASS,
    validate(args) {
      const missing = required.filter((key) => !(key in args));
      return missing.length === 0
        ? undefined
        : `Invalid arguments: ${missing.map((k) => `${k}: required by the tool's schema`).join("; ")}`;
    },
    describe() {
      return { title: `${remote.name} (${connection.name} MCP Server)`, uiKind: "other" };
    },
    async execute(args, ctx) {
      try {
        return flattenCallResult(await connection.callTool(remote.name, args, ctx.signal), remote.name);
      } catch (error) {
        return { error: messageOf(error) };
      }
    },
  };
}
