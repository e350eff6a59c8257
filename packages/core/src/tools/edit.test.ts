import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyEdit, editTool } from "./edit.js";

let top: string;
let root: string;
const ctx = () => ({ cwd: root, signal: new AbortController().signal });

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "edit-")));
  root = path.join(top, "ws");
  await mkdir(root);
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("applyEdit", () => {
  const base = { filePath: "/w/f", replaceAll: false };
  it("replaces one occurrence literally ($ patterns stay literal)", () => {
    expect(applyEdit("a b c", { ...base, oldString: "b", newString: "$&$1" })).toEqual({
      content: "a $&$1 c",
      isNewFile: false,
      occurrences: 1,
    });
  });
  it("replaces all with replace_all", () => {
    expect(applyEdit("x x x", { ...base, oldString: "x", newString: "y", replaceAll: true })).toEqual({
      content: "y y y",
      isNewFile: false,
      occurrences: 3,
    });
  });
  it("reports absent, ambiguous, identical and create-over-existing", () => {
    expect(applyEdit("abc", { ...base, oldString: "zz", newString: "y" })).toEqual({
      error:
        "Failed to edit, 0 occurrences found for old_string in /w/f. No edits made. The exact text in old_string " +
        "was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and " +
        "context. Use read_file tool to verify.",
    });
    expect(applyEdit("x x", { ...base, oldString: "x", newString: "y" })).toEqual({
      error: "Failed to edit. Found 2 occurrences for old_string in /w/f but replace_all was not enabled.",
    });
    expect(applyEdit("x", { ...base, oldString: "x", newString: "x" })).toEqual({
      error: "No changes to apply. The old_string and new_string are identical in file: /w/f",
    });
    expect(applyEdit("x", { ...base, oldString: "", newString: "y" })).toEqual({
      error: "File already exists, cannot create: /w/f",
    });
    expect(applyEdit(null, { ...base, oldString: "x", newString: "y" })).toEqual({
      error: "File not found: /w/f. Use an empty old_string to create a new file.",
    });
    expect(applyEdit(null, { ...base, oldString: "", newString: "y" })).toEqual({
      content: "y",
      isNewFile: true,
      occurrences: 0,
    });
  });
});

describe("edit tool", () => {
  it("edits a file in place and leaves it untouched on error", async () => {
    const f = path.join(root, "f.ts");
    await writeFile(f, "let a = 1;\nlet b = 1;\n");
    expect(
      await editTool.execute({ file_path: "f.ts", old_string: "= 1", new_string: "= 2" }, ctx()),
    ).toEqual({
      error: `Failed to edit. Found 2 occurrences for old_string in ${f} but replace_all was not enabled.`,
    });
    expect(
      await editTool.execute({ file_path: "f.ts", old_string: "nope", new_string: "x" }, ctx()),
    ).toMatchObject({
      error: expect.stringContaining("0 occurrences found"),
    });
    expect(await readFile(f, "utf8")).toBe("let a = 1;\nlet b = 1;\n");
    expect(
      await editTool.execute({ file_path: "f.ts", old_string: "b = 1", new_string: "b = 2" }, ctx()),
    ).toEqual({
      output: `The file: ${f} has been updated (1 replacement).`,
    });
    expect(await readFile(f, "utf8")).toBe("let a = 1;\nlet b = 2;\n");
  });

  it("creates a new file from an empty old_string", async () => {
    expect(
      await editTool.execute({ file_path: "n/new.md", old_string: "", new_string: "# hi" }, ctx()),
    ).toEqual({
      output: `Created new file: ${path.join(root, "n/new.md")} with provided content.`,
    });
    expect(await readFile(path.join(root, "n/new.md"), "utf8")).toBe("# hi");
  });

  it("rejects escapes", async () => {
    expect(await editTool.execute({ file_path: "../f", old_string: "", new_string: "x" }, ctx())).toEqual({
      error: `Path "../f" is outside the workspace "${root}".`,
    });
  });

  it("describes the whole-file diff when it can apply, the snippets otherwise", async () => {
    await writeFile(path.join(root, "f.txt"), "hello world");
    const args = { file_path: "f.txt", old_string: "world", new_string: "there" };
    expect(editTool.describe(args, { cwd: root }).diff).toEqual({
      path: path.join(root, "f.txt"),
      oldText: "hello world",
      newText: "hello there",
    });
    expect(editTool.describe({ ...args, old_string: "absent" }, { cwd: root }).diff).toEqual({
      path: path.join(root, "f.txt"),
      oldText: "absent",
      newText: "there",
    });
    expect(editTool.confirmation).toBe("edit");
  });
});
