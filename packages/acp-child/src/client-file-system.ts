// The ACP client's file system as core's ToolFileSystem: with `fs.readTextFile` the file tools read through
// `fs/read_text_file` (so an editor's unsaved buffer is what the agent reads), with `fs.writeTextFile` they
// write through `fs/write_text_file` (so the write lands in the editor). Each direction falls back to the
// disk when the client did not advertise it. Paths arrive already confined to the workspace (core checks
// them first); the client is sent the absolute path as the user sees it.
import { stat } from "node:fs/promises";
import type { AgentContext } from "@agentclientprotocol/sdk";
import { localFileSystem, type TextFileRead, type ToolFileSystem } from "@qwen-daemon/core";
import type { ClientServices } from "./client-services.js";

/** ACP's "resource not found": the client has no such file. */
const RESOURCE_NOT_FOUND = -32002;
/** What read_file treats as binary on disk: a NUL near the start (text-file.ts in core). */
const SNIFF_CHARS = 8192;

export function clientFileSystem(
  client: AgentContext,
  sessionId: string,
  services: Pick<ClientServices, "readTextFile" | "writeTextFile">,
): ToolFileSystem {
  return {
    readTextFile: services.readTextFile
      ? (where, maxBytes) => readThroughClient(client, sessionId, where, maxBytes)
      : localFileSystem.readTextFile,
    writeTextFile: services.writeTextFile
      ? async (where, content) => {
          try {
            await client.request("fs/write_text_file", { sessionId, path: where.display, content });
          } catch (error) {
            throw new Error(`Could not write ${where.display} through the client: ${messageOf(error)}`);
          }
        }
      : localFileSystem.writeTextFile,
  };
}

async function readThroughClient(
  client: AgentContext,
  sessionId: string,
  where: { display: string; real: string },
  maxBytes: number,
): Promise<TextFileRead> {
  // A directory is never an editor buffer; asking the client about one would only get an odd error.
  if (await isDirectory(where.real)) return { kind: "directory" };
  let content: string;
  try {
    ({ content } = await client.request("fs/read_text_file", { sessionId, path: where.display }));
  } catch (error) {
    if (codeOf(error) === RESOURCE_NOT_FOUND) return { kind: "missing" };
    throw new Error(`Could not read ${where.display} through the client: ${messageOf(error)}`);
  }
  const size = Buffer.byteLength(content, "utf8");
  if (size > maxBytes) {
    throw new Error(`File "${where.display}" is ${size} bytes, over the ${maxBytes}-byte limit for reading.`);
  }
  return content.slice(0, SNIFF_CHARS).includes("\0") ? { kind: "binary" } : { kind: "text", text: content };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}
