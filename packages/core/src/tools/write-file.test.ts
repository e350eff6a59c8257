import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileTool } from "./write-file.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "writefile-")));
  root = path.join(top, "ws");
  await mkdir(root);
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("write_file", () => {
  it("creates a file with missing parent directories, then overwrites it", async () => {
    const target = path.join(root, "deep/er/f.txt");
    expect(await writeFileTool.execute({ file_path: "deep/er/f.txt", content: "v1" }, ctx())).toEqual({
      output: `Successfully created and wrote to new file: ${target}.`,
    });
    expect(await writeFileTool.execute({ file_path: target, content: "v2" }, ctx())).toEqual({
      output: `Successfully overwrote file: ${target}.`,
    });
    expect(await readFile(target, "utf8")).toBe("v2");
  });

  it("describes the call with a diff of the current and new content", async () => {
    await writeFile(path.join(root, "f.txt"), "old");
    expect(writeFileTool.describe({ file_path: "f.txt", content: "new" }, { cwd: root })).toEqual({
      title: `Write ${path.join(root, "f.txt")}`,
      uiKind: "edit",
      locations: [{ path: path.join(root, "f.txt") }],
      diff: { path: path.join(root, "f.txt"), oldText: "old", newText: "new" },
    });
    expect(writeFileTool.describe({ file_path: "new.txt", content: "n" }, { cwd: root }).diff).toEqual({
      path: path.join(root, "new.txt"),
      oldText: null,
      newText: "n",
    });
  });

  it("never writes outside the workspace, through .. or a symlinked directory", async () => {
    await mkdir(path.join(top, "outside"));
    await symlink(path.join(top, "outside"), path.join(root, "out"));
    expect(await writeFileTool.execute({ file_path: "../x.txt", content: "x" }, ctx())).toEqual({
      error: `Path "../x.txt" is outside the workspace "${root}".`,
    });
    expect(await writeFileTool.execute({ file_path: "out/x.txt", content: "x" }, ctx())).toEqual({
      error: `Path "out/x.txt" is outside the workspace "${root}".`,
    });
    await expect(readFile(path.join(top, "outside/x.txt"))).rejects.toThrow(/ENOENT/);
    // describe() does not read through the link either
    expect(
      writeFileTool.describe({ file_path: "out/x.txt", content: "x" }, { cwd: root }).diff?.oldText,
    ).toBeNull();
  });

  it("refuses to replace a directory and validates args", async () => {
    await mkdir(path.join(root, "d"));
    expect(await writeFileTool.execute({ file_path: "d", content: "x" }, ctx())).toEqual({
      error: `Path is a directory, not a file: ${path.join(root, "d")}`,
    });
    expect(writeFileTool.validate({ file_path: "a" })).toMatch(/^Invalid arguments: content: /);
    expect(writeFileTool.confirmation).toBe("edit");
  });
});
