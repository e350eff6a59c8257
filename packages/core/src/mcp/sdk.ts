// The MCP SDK is loaded on the first connection, not when core is imported: it costs ~100 ms of startup
// (its own modules plus a JSON-schema validator) and most sessions configure no MCP server at all.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
}

let loading: Promise<McpSdk> | undefined;

/** The SDK's classes, imported once per process. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([client, stdio, http, types]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  }));
  return loading;
}
