// The file tools over an injected file system: what they read and write goes through it (not the disk),
// and the workspace confinement runs before the backend sees any path.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool } from "./edit.js";
import { localFileSystem, type TextFileRead, type ToolFileSystem } from "./file-system.js";
import { createReadFileTool } from "./read-file.js";
import { createWriteFileTool } from "./write-file.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

/** An editor's buffers: text by absolute path; every path it was asked about is kept. */
function bufferFileSystem(files: Record<string, string>) {
  const asked: string[] = [];
  const fs: ToolFileSystem = {
    async readTextFile(where): Promise<TextFileRead> {
      asked.push(where.display);
      const text = files[where.display];
      return text === undefined ? { kind: "missing" } : { kind: "text", text };
    },
    async writeTextFile(where, content) {
      asked.push(where.display);
      files[where.display] = content;
    },
  };
  return { fs, files, asked };
}

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "toolfs-")));
  root = path.join(top, "ws");
  await mkdir(root);
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("file tools over an injected file system", () => {
  it("read_file returns the buffer's text, not the disk's", async () => {
    await writeFile(path.join(root, "a.txt"), "saved\n");
    const { fs } = bufferFileSystem({ [path.join(root, "a.txt")]: "unsaved\n" });
    expect(await createReadFileTool(fs).execute({ file_path: "a.txt" }, ctx())).toEqual({
      output: "unsaved",
    });
    expect(await createReadFileTool(fs).execute({ file_path: "gone.txt" }, ctx())).toEqual({
      error: `File not found: ${path.join(root, "gone.txt")}`,
    });
  });

  it("write_file and edit write into the buffers and leave the disk alone", async () => {
    await writeFile(path.join(root, "a.txt"), "saved\n");
    const { fs, files } = bufferFileSystem({ [path.join(root, "a.txt")]: "one two\n" });
    expect(await createWriteFileTool(fs).execute({ file_path: "b.txt", content: "new" }, ctx())).toEqual({
      output: `Successfully created and wrote to new file: ${path.join(root, "b.txt")}.`,
    });
    expect(
      await createEditTool(fs).execute({ file_path: "a.txt", old_string: "two", new_string: "2" }, ctx()),
    ).toEqual({ output: `The file: ${path.join(root, "a.txt")} has been updated (1 replacement).` });
    expect(files).toEqual({ [path.join(root, "a.txt")]: "one 2\n", [path.join(root, "b.txt")]: "new" });
    expect(await readFile(path.join(root, "a.txt"), "utf8")).toBe("saved\n");
    await expect(readFile(path.join(root, "b.txt"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses `..`, absolute paths elsewhere and escaping symlinks with the local texts, before the backend", async () => {
    await writeFile(path.join(top, "secret.txt"), "s");
    await symlink(top, path.join(root, "out"));
    const { fs, asked } = bufferFileSystem({});
    const cases: [string, string][] = [
      ["../secret.txt", `Path "../secret.txt" is outside the workspace "${root}".`],
      [
        path.join(top, "secret.txt"),
        `Path "${path.join(top, "secret.txt")}" is outside the workspace "${root}".`,
      ],
      ["out/secret.txt", `Path "out/secret.txt" is outside the workspace "${root}".`],
    ];
    for (const [target, error] of cases) {
      const local = createReadFileTool(localFileSystem);
      expect(await local.execute({ file_path: target }, ctx())).toEqual({ error });
      expect(await createReadFileTool(fs).execute({ file_path: target }, ctx())).toEqual({ error });
      expect(await createWriteFileTool(fs).execute({ file_path: target, content: "x" }, ctx())).toEqual({
        error,
      });
      expect(
        await createEditTool(fs).execute({ file_path: target, old_string: "", new_string: "x" }, ctx()),
      ).toEqual({ error });
    }
    expect(asked).toEqual([]);
  });
});

describe("localFileSystem", () => {
  it("tells text, binary, missing and directory apart", async () => {
    await writeFile(path.join(root, "t.txt"), "hi");
    await writeFile(path.join(root, "b.bin"), Buffer.from([1, 0, 2]));
    await mkdir(path.join(root, "d"));
    const at = (name: string) => ({ display: path.join(root, name), real: path.join(root, name) });
    expect(await localFileSystem.readTextFile(at("t.txt"), 100)).toEqual({ kind: "text", text: "hi" });
    expect(await localFileSystem.readTextFile(at("b.bin"), 100)).toEqual({ kind: "binary" });
    expect(await localFileSystem.readTextFile(at("none"), 100)).toEqual({ kind: "missing" });
    expect(await localFileSystem.readTextFile(at("d"), 100)).toEqual({ kind: "directory" });
    await expect(localFileSystem.readTextFile(at("t.txt"), 1)).rejects.toThrow("over the 1-byte limit");
  });
});
