// How a session names an MCP server: a command to spawn (stdio) or a URL (streamable HTTP).
import { z } from "zod";

export const McpServerConfig = z
  .object({
    name: z.string().min(1),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** Added to the SDK's safe default environment (PATH, HOME, ...), not to this process's whole env. */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    url: z.url().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .refine((c) => (c.command === undefined) !== (c.url === undefined), {
    message: "An MCP server needs exactly one of 'command' (stdio) or 'url' (streamable HTTP).",
  });
export type McpServerConfig = z.infer<typeof McpServerConfig>;
