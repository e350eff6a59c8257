import { describe, expect, it } from "vitest";
import {
  commandOf,
  kindWord,
  locationsOf,
  relativeToWorkspace,
  toolDiffs,
  toolOutput,
} from "./tool-content.js";

describe("tool content", () => {
  const content = [
    { type: "content", content: { type: "text", text: "ok" } },
    { type: "diff", path: "/ws/a.md", oldText: "x", newText: "y" },
    { type: "diff", path: "/ws/new.md", newText: "z" },
    { type: "terminal", terminalId: "t" },
    { type: "content", content: { type: "text", text: "more" } },
  ];

  it("reads text output and diffs apart", () => {
    expect(toolOutput(content)).toBe("ok\n\nmore");
    expect(toolDiffs(content)).toEqual([
      { path: "/ws/a.md", oldText: "x", newText: "y" },
      { path: "/ws/new.md", oldText: null, newText: "z" },
    ]);
    expect(toolOutput(undefined)).toBe("");
    expect(toolDiffs("nonsense")).toEqual([]);
  });

  it("finds the command and the folder it runs in", () => {
    expect(commandOf({ rawInput: { command: "npm test" } }, "/ws")).toEqual({
      command: "npm test",
      cwd: "/ws",
    });
    expect(commandOf({ rawInput: { command: "ls", directory: "pkg/../src/./x" } }, "/ws")).toEqual({
      command: "ls",
      cwd: "/ws/src/x",
    });
    expect(commandOf({ rawInput: { command: "ls", directory: "/tmp" } }, "/ws")?.cwd).toBe("/tmp");
    expect(commandOf({ rawInput: { command: "   " } }, "/ws")).toBeUndefined();
    expect(commandOf({}, "/ws")).toBeUndefined();
  });

  it("names kinds in words, a question as a question", () => {
    expect(kindWord("think", "ask_user_question")).toBe("Question");
    expect(kindWord("edit", "write_file")).toBe("Edit");
    expect(kindWord("execute", undefined)).toBe("Command");
    expect(kindWord(undefined, undefined)).toBe("Tool");
    expect(kindWord("brand_new_kind", undefined)).toBe("Tool");
  });

  it("lists the paths a call names", () => {
    expect(locationsOf({ locations: [{ path: "/a" }, { line: 3 }, { path: "/b", line: 1 }] })).toEqual([
      "/a",
      "/b",
    ]);
    expect(locationsOf({})).toEqual([]);
  });

  it("drops the workspace prefix from titles", () => {
    expect(relativeToWorkspace("Write /ws/a.md and /ws/b/c.md", "/ws")).toBe("Write a.md and b/c.md");
    expect(relativeToWorkspace("Read /wsx/a.md", "/ws")).toBe("Read /wsx/a.md");
    expect(relativeToWorkspace("Read /a", undefined)).toBe("Read /a");
  });
});
