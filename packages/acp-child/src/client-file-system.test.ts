import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentContext, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clientFileSystem } from "./client-file-system.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "client-fs-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (name: string) => ({ display: join(dir, name), real: join(dir, name) });

/** A client answering fs requests from `files`; every request is kept. */
function client(files: Record<string, string>, fail?: Error) {
  const requests: { method: string; params: Record<string, unknown> }[] = [];
  const context = {
    async request(method: string, params: Record<string, unknown>) {
      requests.push({ method, params });
      if (fail) throw fail;
      if (method === "fs/write_text_file") {
        files[params.path as string] = params.content as string;
        return {};
      }
      const content = files[params.path as string];
      if (content === undefined) throw RequestError.resourceNotFound(params.path as string);
      return { content };
    },
  } as unknown as AgentContext;
  return { context, requests };
}

describe("clientFileSystem", () => {
  it("reads and writes through the client with the session and the absolute path", async () => {
    const files: Record<string, string> = { [join(dir, "a.txt")]: "buffer" };
    const { context, requests } = client(files);
    const fs = clientFileSystem(context, "s1", { readTextFile: true, writeTextFile: true });
    expect(await fs.readTextFile(at("a.txt"), 100)).toEqual({ kind: "text", text: "buffer" });
    expect(await fs.readTextFile(at("none.txt"), 100)).toEqual({ kind: "missing" });
    await fs.writeTextFile(at("b.txt"), "new");
    expect(files[join(dir, "b.txt")]).toBe("new");
    expect(requests[0]).toEqual({
      method: "fs/read_text_file",
      params: { sessionId: "s1", path: join(dir, "a.txt") },
    });
    await expect(readFile(join(dir, "b.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("applies the same limits as the disk: size, binary, directories", async () => {
    const { context, requests } = client({ [join(dir, "big")]: "é".repeat(60), [join(dir, "bin")]: "a\0b" });
    const fs = clientFileSystem(context, "s1", { readTextFile: true, writeTextFile: false });
    await expect(fs.readTextFile(at("big"), 100)).rejects.toThrow(
      `File "${join(dir, "big")}" is 120 bytes, over the 100-byte limit for reading.`,
    );
    expect(await fs.readTextFile(at("bin"), 100)).toEqual({ kind: "binary" });
    expect(await fs.readTextFile({ display: dir, real: dir }, 100)).toEqual({ kind: "directory" });
    expect(requests.map((r) => r.params.path)).toEqual([join(dir, "big"), join(dir, "bin")]);
  });

  it("uses the disk for a direction the client did not advertise, and names the client in its errors", async () => {
    await writeFile(join(dir, "disk.txt"), "on disk");
    const { context, requests } = client({}, new Error("editor crashed"));
    const writesOnly = clientFileSystem(context, "s1", { readTextFile: false, writeTextFile: true });
    expect(await writesOnly.readTextFile(at("disk.txt"), 100)).toEqual({ kind: "text", text: "on disk" });
    expect(requests).toEqual([]);
    await expect(writesOnly.writeTextFile(at("x"), "y")).rejects.toThrow(
      `Could not write ${join(dir, "x")} through the client: editor crashed`,
    );
  });
});
