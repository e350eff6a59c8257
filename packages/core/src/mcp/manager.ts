// All MCP servers of a session: connect them side by side, expose their tools, close them together.
// One server failing to start does not keep the others from serving.
import type { Tool } from "../tools/tool.js";
import { McpConnection, type McpConnectionOptions } from "./connection.js";
import { createMcpTool } from "./mcp-tool.js";
import { McpServerConfig } from "./server-config.js";
import { mcpToolName, uniqueToolName } from "./tool-name.js";

export type McpConnectReport =
  | { server: string; ok: true; tools: string[] }
  | { server: string; ok: false; error: string };

export class McpManager {
  readonly #options: McpConnectionOptions;
  readonly #connections: McpConnection[] = [];
  #tools: Tool[] = [];
  #closing: Promise<void> | undefined;

  constructor(options: McpConnectionOptions = {}) {
    this.#options = options;
  }

  /** Connects every server; the report says, per server, which tools it gave or why it failed. */
  async connect(servers: McpServerConfig[]): Promise<McpConnectReport[]> {
    if (this.#closing) throw new Error("McpManager is closed.");
    const configs = servers.map((s) => McpServerConfig.parse(s));
    const names = new Set(this.#connections.map((c) => c.name));
    for (const c of configs) {
      if (names.has(c.name)) throw new Error(`MCP server "${c.name}" is configured twice.`);
      names.add(c.name);
    }
    const connections = configs.map((c) => new McpConnection(c, this.#options));
    this.#connections.push(...connections);
    const outcomes = await Promise.allSettled(connections.map((c) => c.connect()));
    const taken = new Set(this.#tools.map((t) => t.name));
    return outcomes.map((outcome, i) => {
      const connection = connections[i] as McpConnection;
      if (outcome.status === "rejected") {
        const error = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        return { server: connection.name, ok: false, error };
      }
      const exposed = outcome.value.map((remote) => {
        const name = uniqueToolName(mcpToolName(connection.name, remote.name), taken);
        taken.add(name);
        const tool = createMcpTool(connection, remote, name);
        this.#tools.push(tool);
        return name;
      });
      return { server: connection.name, ok: true, tools: exposed };
    });
  }

  /** Tools of every server that connected, in server order. */
  tools(): Tool[] {
    return [...this.#tools];
  }

  connection(server: string): McpConnection | undefined {
    return this.#connections.find((c) => c.name === server);
  }

  /** Idempotent; stops every stdio server. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const results = await Promise.allSettled(this.#connections.map((c) => c.close()));
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failures.length > 0) {
        throw new AggregateError(
          failures.map((f) => f.reason),
          `Closing ${failures.length} MCP server connection(s) failed.`,
        );
      }
    })();
    return this.#closing;
  }
}
