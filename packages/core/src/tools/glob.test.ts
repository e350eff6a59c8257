import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "./glob.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "glob-")));
  root = path.join(top, "ws");
  for (const f of [
    "a.ts",
    "src/b.ts",
    "src/c.tsx",
    "src/deep/d.ts",
    "node_modules/m/x.ts",
    ".git/h.ts",
    "e.md",
  ]) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), f);
  }
  await mkdir(path.join(top, "outside"));
  await writeFile(path.join(top, "outside", "o.ts"), "o");
  await symlink(path.join(top, "outside"), path.join(root, "linked"));
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("glob", () => {
  it("finds files by pattern, sorted, skipping node_modules, .git and symlinked dirs", async () => {
    const result = await globTool.execute({ pattern: "**/*.ts" }, ctx());
    expect(result).toEqual({
      output: [
        `Found 3 file(s) matching "**/*.ts" in ${root}:`,
        path.join(root, "a.ts"),
        path.join(root, "src/b.ts"),
        path.join(root, "src/deep/d.ts"),
      ].join("\n"),
    });
  });

  it("searches under a path and supports braces", async () => {
    expect(await globTool.execute({ pattern: "*.{ts,tsx}", path: "src" }, ctx())).toEqual({
      output: [
        `Found 2 file(s) matching "*.{ts,tsx}" in ${path.join(root, "src")}:`,
        path.join(root, "src/b.ts"),
        path.join(root, "src/c.tsx"),
      ].join("\n"),
    });
  });

  it("says when nothing matches, and rejects paths outside", async () => {
    expect(await globTool.execute({ pattern: "*.rs" }, ctx())).toEqual({
      output: `No files found matching pattern "*.rs" in ${root}`,
    });
    expect(await globTool.execute({ pattern: "*", path: "linked" }, ctx())).toEqual({
      error: `Path "linked" is outside the workspace "${root}".`,
    });
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await globTool.execute({ pattern: "**" }, { cwd: root, signal: controller.signal }),
    ).toHaveProperty("error");
  });
});
