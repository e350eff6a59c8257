// ACP `mcpServers` entries -> core's MCP server configs. Pure. SSE servers are not supported (the agent
// advertises `mcpCapabilities.sse: false`), so they come back as skipped with a reason instead of failing
// the whole session.
import type { McpServer } from "@agentclientprotocol/sdk";
import type { McpServerConfig } from "@qwen-daemon/core";

export interface McpServerMapping {
  configs: McpServerConfig[];
  skipped: { name: string; reason: string }[];
}

export function toMcpServerConfigs(servers: readonly McpServer[], cwd: string): McpServerMapping {
  const configs: McpServerConfig[] = [];
  const skipped: McpServerMapping["skipped"] = [];
  for (const server of servers) {
    if ("type" in server && server.type === "sse") {
      skipped.push({ name: server.name, reason: "SSE MCP servers are not supported; use streamable HTTP" });
    } else if ("type" in server && server.type === "http") {
      configs.push({ name: server.name, url: server.url, headers: pairs(server.headers) });
    } else if ("command" in server) {
      configs.push({
        name: server.name,
        command: server.command,
        args: server.args,
        env: pairs(server.env),
        cwd,
      });
    }
  }
  return { configs, skipped };
}

function pairs(list: readonly { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}
