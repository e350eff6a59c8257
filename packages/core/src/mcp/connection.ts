// One MCP server connection: connect and list tools, call them, notice when the server dies, reconnect once
// per call that finds it dead, and say clearly when it cannot be reached.
import type { Stream } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallResultLike } from "./call-result.js";
import { loadMcpSdk, type McpSdk } from "./sdk.js";
import type { McpServerConfig } from "./server-config.js";

export interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface McpTransportHandle {
  transport: Transport;
  /** The server's stderr (stdio only); its tail explains a server that dies on start. */
  stderr?: Stream | null;
}

/** May be async: the default one first loads the (lazily imported) MCP SDK. */
export type McpTransportFactory = (
  config: McpServerConfig,
) => McpTransportHandle | Promise<McpTransportHandle>;

export const defaultMcpTransportFactory: McpTransportFactory = async (config) => {
  const { StdioClientTransport, StreamableHTTPClientTransport } = await loadMcpSdk();
  if (config.command !== undefined) {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      // Piped, not inherited: our stdout/stderr may be a protocol channel, and the tail helps error texts.
      stderr: "pipe",
    });
    return { transport, stderr: transport.stderr };
  }
  const url = new URL(config.url as string);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: config.headers ?? {} },
  });
  return { transport };
};

export interface McpConnectionOptions {
  transportFactory?: McpTransportFactory;
  /** Limit for connecting and listing tools. */
  connectTimeoutMs?: number;
  /** Limit for one tool call (progress notifications reset it). */
  callTimeoutMs?: number;
  clientInfo?: { name: string; version: string };
}

const STDERR_TAIL_CHARS = 2000;

export function unreachableMessage(server: string, reason: string): string {
  return `MCP server "${server}" is not reachable: ${reason}`;
}

/** A lost connection (server exited, socket gone) as opposed to an error the server itself returned. */
function isConnectionFailure(error: unknown, sdk: McpSdk): boolean {
  if (error instanceof sdk.McpError) return error.code === sdk.ErrorCode.ConnectionClosed;
  return true;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class McpConnection {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #options: McpConnectionOptions;
  #client: Client | undefined;
  /** Set by the first connection attempt; everything that needs the SDK runs after one. */
  #sdk: McpSdk | undefined;
  #state: "idle" | "connected" | "dead" | "closed" = "idle";
  #deathReason = "";
  #transportError: string | undefined;
  #stderrTail = "";
  #reconnecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.name = config.name;
    this.#config = config;
    this.#options = options;
  }

  get state(): "idle" | "connected" | "dead" | "closed" {
    return this.#state;
  }

  /** The server's pid for stdio servers while connected (for diagnostics and tests). */
  get pid(): number | undefined {
    const transport = (this.#client?.transport ?? undefined) as Transport | undefined;
    const sdk = this.#sdk;
    return sdk !== undefined && transport instanceof sdk.StdioClientTransport
      ? (transport.pid ?? undefined)
      : undefined;
  }

  /** Connects and lists the tools. Throws Error(unreachableMessage(...)) when the server cannot be reached. */
  async connect(): Promise<RemoteTool[]> {
    await this.#open();
    return this.#listTools();
  }

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallResultLike> {
    if (this.#state === "closed") throw new Error(`MCP server "${this.name}" was closed.`);
    if (this.#state !== "connected") {
      this.#reconnecting ??= this.#open().finally(() => {
        this.#reconnecting = undefined;
      });
      await this.#reconnecting;
    }
    const client = this.#client as Client;
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.#options.callTimeoutMs ?? 600_000,
        resetTimeoutOnProgress: true,
      })) as CallResultLike;
    } catch (error) {
      if (signal.aborted || !isConnectionFailure(error, this.#sdk as McpSdk)) throw error;
      // Not retried: the call may have had effects before the connection dropped. The next call reconnects.
      this.#markDead(client, messageOf(error));
      throw new Error(
        `MCP server "${this.name}" disconnected during the call to "${tool}": ${this.#reason()}`,
      );
    }
  }

  /** Idempotent; stops a stdio server's process. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // A pending reconnect's failure is reported to the call that started it; closing only waits for it.
      await Promise.allSettled([this.#reconnecting]);
      this.#state = "closed";
      await this.#client?.close();
      this.#client = undefined;
    })();
    return this.#closing;
  }

  #reason(): string {
    const tail = this.#stderrTail.trim();
    return tail === "" ? this.#deathReason : `${this.#deathReason} (stderr: ${tail})`;
  }

  #markDead(client: Client, reason: string): void {
    if (this.#client !== client || this.#state !== "connected") return;
    this.#state = "dead";
    this.#deathReason = this.#transportError ?? reason;
  }

  async #open(): Promise<void> {
    const previous = this.#client;
    this.#client = undefined;
    await previous?.close();
    this.#stderrTail = "";
    this.#transportError = undefined;
    const sdk = await loadMcpSdk();
    this.#sdk = sdk;
    const { transport, stderr } = await (this.#options.transportFactory ?? defaultMcpTransportFactory)(
      this.#config,
    );
    stderr?.on("data", (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
    const client = new sdk.Client(this.#options.clientInfo ?? { name: "qwen-daemon", version: "0.1.0" });
    client.onclose = () => this.#markDead(client, "the connection closed");
    client.onerror = (error) => {
      // Transport errors arrive here outside any request; the latest is the best reason a later call can give.
      if (this.#client === client) this.#transportError = error.message;
    };
    try {
      await client.connect(transport, { timeout: this.#options.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      this.#deathReason = messageOf(error);
      this.#state = this.#state === "closed" ? "closed" : "dead";
      const message = unreachableMessage(this.name, this.#reason());
      await client.close();
      throw new Error(message, { cause: error });
    }
    if (this.#state === "closed") {
      await client.close();
      throw new Error(`MCP server "${this.name}" was closed.`);
    }
    this.#client = client;
    this.#state = "connected";
  }

  async #listTools(): Promise<RemoteTool[]> {
    const client = this.#client as Client;
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.#options.connectTimeoutMs ?? 30_000,
      });
      for (const t of page.tools) {
        tools.push({
          name: t.name,
          ...(t.description !== undefined ? { description: t.description } : {}),
          inputSchema: t.inputSchema as Record<string, unknown>,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }
}
