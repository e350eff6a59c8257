import { describe, expect, it } from "vitest";
import { createBuiltinTools, ToolRegistry } from "./registry.js";
import type { Tool } from "./tool.js";

const fakeQuestionTool: Tool = {
  name: "ask_user_question",
  description: "asks",
  parameters: { type: "object" },
  confirmation: "user_question",
  restoreClass: "user_question",
  validate: () => undefined,
  describe: () => ({ title: "Ask", uiKind: "think" }),
  execute: async () => ({ output: "answered" }),
};

describe("createBuiltinTools", () => {
  it("offers ask_user_question only when the host can collect answers", () => {
    const headless = createBuiltinTools({
      includeAskUserQuestion: false,
      askUserQuestionTool: fakeQuestionTool,
    });
    expect(headless.map((t) => t.name)).toEqual([
      "read_file",
      "write_file",
      "edit",
      "list_directory",
      "glob",
      "grep",
      "run_shell_command",
    ]);
    const interactive = createBuiltinTools({
      includeAskUserQuestion: true,
      askUserQuestionTool: fakeQuestionTool,
    });
    expect(interactive[0]).toBe(fakeQuestionTool);
    expect(() => createBuiltinTools({ includeAskUserQuestion: true })).toThrow(/no askUserQuestionTool/);
  });

  it("declares each tool's confirmation kind", () => {
    const kinds = Object.fromEntries(
      createBuiltinTools({ includeAskUserQuestion: false }).map((t) => [t.name, t.confirmation]),
    );
    expect(kinds).toEqual({
      read_file: "none",
      write_file: "edit",
      edit: "edit",
      list_directory: "none",
      glob: "none",
      grep: "none",
      run_shell_command: "exec",
    });
  });
});

describe("ToolRegistry", () => {
  it("registers, finds, lists and declares tools; rejects duplicates", () => {
    const registry = new ToolRegistry(createBuiltinTools({ includeAskUserQuestion: false }));
    expect(registry.get("edit")?.name).toBe("edit");
    expect(registry.get("nope")).toBeUndefined();
    expect(() => registry.register(fakeQuestionTool)).not.toThrow();
    expect(() => registry.register(fakeQuestionTool)).toThrow(
      'A tool named "ask_user_question" is already registered.',
    );
    const declarations = registry.declarations();
    expect(declarations).toHaveLength(8);
    expect(declarations.at(-1)).toEqual({
      name: "ask_user_question",
      description: "asks",
      parameters: { type: "object" },
    });
    for (const d of declarations) expect(d.parameters).toMatchObject({ type: "object" });
  });
});
