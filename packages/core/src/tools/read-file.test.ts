import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { READ_FILE_MAX_LINE_CHARS, readFileTool, renderFilePage } from "./read-file.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "readfile-")));
  root = path.join(top, "ws");
  await mkdir(root);
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("read_file", () => {
  it("reads a whole small file by relative or absolute path (absolute_path accepted too)", async () => {
    await writeFile(path.join(root, "a.txt"), "one\ntwo\n");
    expect(await readFileTool.execute({ file_path: "a.txt" }, ctx())).toEqual({ output: "one\ntwo" });
    expect(await readFileTool.execute({ absolute_path: path.join(root, "a.txt") }, ctx())).toEqual({
      output: "one\ntwo",
    });
  });

  it("pages with offset/limit and says which lines it shows", async () => {
    await writeFile(path.join(root, "n.txt"), "l1\nl2\nl3\nl4\nl5\n");
    expect(await readFileTool.execute({ file_path: "n.txt", offset: 1, limit: 2 }, ctx())).toEqual({
      output: "Showing lines 2-3 of 5 total lines.\n\n---\n\nl2\nl3",
    });
    expect(await readFileTool.execute({ file_path: "n.txt", offset: 9 }, ctx())).toEqual({
      error: "Offset 9 is beyond the end of the file (5 lines).",
    });
  });

  it("truncates very long lines and says so", () => {
    const long = "x".repeat(READ_FILE_MAX_LINE_CHARS + 10);
    const page = renderFilePage(`${long}\nshort`, 0, 10);
    expect(page).toEqual({
      output: `Showing lines 1-2 of 2 total lines.\n\n---\n\n${"x".repeat(READ_FILE_MAX_LINE_CHARS)}... [line truncated]\nshort`,
    });
  });

  it("refuses binaries, directories, missing files and escapes", async () => {
    await writeFile(path.join(root, "b.bin"), Buffer.from([1, 0, 2]));
    expect(await readFileTool.execute({ file_path: "b.bin" }, ctx())).toEqual({
      error: `Cannot display content of binary file: ${path.join(root, "b.bin")}`,
    });
    expect(await readFileTool.execute({ file_path: "." }, ctx())).toEqual({
      error: `Path is a directory, not a file: ${root}`,
    });
    expect(await readFileTool.execute({ file_path: "nope.txt" }, ctx())).toEqual({
      error: `File not found: ${path.join(root, "nope.txt")}`,
    });
    await writeFile(path.join(top, "secret.txt"), "s");
    expect(await readFileTool.execute({ file_path: "../secret.txt" }, ctx())).toEqual({
      error: `Path "../secret.txt" is outside the workspace "${root}".`,
    });
    await symlink(path.join(top, "secret.txt"), path.join(root, "s.txt"));
    expect(await readFileTool.execute({ file_path: "s.txt" }, ctx())).toEqual({
      error: `Path "s.txt" is outside the workspace "${root}".`,
    });
  });

  it("validates args without touching the disk", () => {
    expect(readFileTool.validate({})).toBe("The 'file_path' parameter must be non-empty.");
    expect(readFileTool.validate({ file_path: "a", offset: -1 })).toMatch(/^Invalid arguments: offset: /);
    expect(readFileTool.validate({ file_path: "a", offset: null, limit: null })).toBeUndefined();
    expect(readFileTool.confirmation).toBe("none");
    expect(readFileTool.parameters).toMatchObject({
      type: "object",
      properties: { file_path: { type: "string" } },
    });
    expect(readFileTool.parameters).not.toHaveProperty("$schema");
  });
});
