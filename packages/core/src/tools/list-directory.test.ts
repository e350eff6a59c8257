import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDirectoryTool } from "./list-directory.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "ls-")));
  root = path.join(top, "ws");
  await mkdir(path.join(root, "zdir"), { recursive: true });
  await mkdir(path.join(root, "adir"));
  await mkdir(path.join(root, "empty"));
  await writeFile(path.join(root, "b.txt"), "b");
  await symlink(path.join(root, "b.txt"), path.join(root, "c-link"));
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("list_directory", () => {
  it("lists directories first, then files and links", async () => {
    expect(await listDirectoryTool.execute({ path: "." }, ctx())).toEqual({
      output: [
        `Directory listing for ${root}:`,
        "[DIR] adir",
        "[DIR] empty",
        "[DIR] zdir",
        "b.txt",
        "[LINK] c-link",
      ].join("\n"),
    });
  });
  it("says when a directory is empty, or not a directory, or outside", async () => {
    expect(await listDirectoryTool.execute({ path: "empty" }, ctx())).toEqual({
      output: `Directory ${path.join(root, "empty")} is empty.`,
    });
    expect(await listDirectoryTool.execute({ path: "b.txt" }, ctx())).toEqual({
      error: `Path is not a directory: ${path.join(root, "b.txt")}`,
    });
    expect(await listDirectoryTool.execute({ path: top }, ctx())).toEqual({
      error: `Path "${top}" is outside the workspace "${root}".`,
    });
  });
});
