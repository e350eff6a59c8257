import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GREP_MAX_FILE_BYTES, grepTool } from "./grep.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "grep-")));
  root = path.join(top, "ws");
  const files: Record<string, string | Buffer> = {
    "a.ts": "const x = 1;\n// TODO: one\n",
    "src/b.ts": "function f() {}\n  // TODO: two  \n",
    "src/c.md": "TODO: doc\n",
    "node_modules/m.ts": "TODO: hidden\n",
    "bin.dat": Buffer.concat([Buffer.from("TODO"), Buffer.from([0, 1, 2])]),
    "big.txt": `${"y".repeat(GREP_MAX_FILE_BYTES)}\nTODO: too big\n`,
  };
  for (const [f, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), content);
  }
  await mkdir(path.join(top, "outside"));
  await writeFile(path.join(top, "outside", "secret.ts"), "TODO: secret\n");
  await symlink(path.join(top, "outside", "secret.ts"), path.join(root, "leak.ts"));
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("grep", () => {
  it("prints path:line:text, skipping node_modules, binaries, big files and symlinks", async () => {
    expect(await grepTool.execute({ pattern: "TODO" }, ctx())).toEqual({
      output: [
        `Found 3 matches for pattern "TODO" in ${root}:`,
        "a.ts:2:// TODO: one",
        "src/b.ts:2:// TODO: two",
        "src/c.md:1:TODO: doc",
      ].join("\n"),
    });
  });

  it("filters by glob and path, including a single file", async () => {
    expect(await grepTool.execute({ pattern: "TODO", glob: "*.ts" }, ctx())).toEqual({
      output: [
        `Found 2 matches for pattern "TODO" in ${root} (filter: "*.ts"):`,
        "a.ts:2:// TODO: one",
        "src/b.ts:2:// TODO: two",
      ].join("\n"),
    });
    expect(await grepTool.execute({ pattern: "func\\w+", path: "src/b.ts" }, ctx())).toEqual({
      output: [
        `Found 1 match for pattern "func\\w+" in ${path.join(root, "src/b.ts")}:`,
        "src/b.ts:1:function f() {}",
      ].join("\n"),
    });
  });

  it("caps matches", async () => {
    await writeFile(path.join(root, "many.txt"), "hit\n".repeat(10));
    const result = await grepTool.execute({ pattern: "^hit$", limit: 3 }, ctx());
    expect(result.output?.split("\n")).toEqual([
      `Found 3+ matches for pattern "^hit$" in ${root}:`,
      "many.txt:1:hit",
      "many.txt:2:hit",
      "many.txt:3:hit",
      "[Stopped after 3 matches; narrow the pattern, path or glob to see the rest.]",
    ]);
  });

  it("reports no matches, bad regexes and escapes", async () => {
    expect(await grepTool.execute({ pattern: "zzz" }, ctx())).toEqual({
      output: `No matches found for pattern "zzz" in ${root}.`,
    });
    expect(grepTool.validate({ pattern: "(" })).toMatch(
      /^Invalid regular expression pattern provided: \(\. Error: /,
    );
    expect(await grepTool.execute({ pattern: "TODO", path: "leak.ts" }, ctx())).toEqual({
      error: `Path "leak.ts" is outside the workspace "${root}".`,
    });
  });
});
