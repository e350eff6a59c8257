import { describe, expect, it } from "vitest";
import type { McpConnection } from "../mcp/connection.js";
import { createMcpTool } from "../mcp/mcp-tool.js";
import { mcpToolName } from "../mcp/tool-name.js";
import { RESTORE_KINDS } from "../protocol/restore-kinds.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { createBuiltinTools } from "../tools/registry.js";
import type { Tool } from "../tools/tool.js";
import { restoreClassOfToolName } from "./tool-restore-class.js";

const builtins = createBuiltinTools({
  includeAskUserQuestion: true,
  askUserQuestionTool: createAskUserQuestionTool(),
});
const mcpTool = createMcpTool(
  { name: "files" } as McpConnection,
  { name: "write", inputSchema: {} },
  mcpToolName("files", "write"),
);

describe("restoreClassOfToolName", () => {
  it("reads every tool's class off its name as the tool declares it", () => {
    const tools: Tool[] = [...builtins, mcpTool];
    expect(tools.map((t) => [t.name, restoreClassOfToolName(t.name)])).toEqual(
      tools.map((t) => [t.name, t.restoreClass]),
    );
    expect(Object.fromEntries(tools.map((t) => [t.name, t.restoreClass]))).toEqual({
      ask_user_question: "user_question",
      read_file: "none",
      write_file: "edit",
      edit: "edit",
      list_directory: "none",
      glob: "none",
      grep: "none",
      run_shell_command: "exec",
      mcp__files__write: "mcp",
    });
  });

  it("knows no class for a name no tool here has", () => {
    for (const name of ["deploy", "", "mcp__", "MCP__x__y", "run_shell_command "])
      expect(restoreClassOfToolName(name)).toBeUndefined();
  });

  it("every class but none is covered by exactly one restore kind", () => {
    const classes = new Set([...builtins, mcpTool].map((t) => t.restoreClass));
    for (const restoreClass of classes) {
      const covering = RESTORE_KINDS.filter((kind) =>
        (kind.covers as readonly string[]).includes(restoreClass),
      );
      expect([restoreClass, covering.length]).toEqual([restoreClass, restoreClass === "none" ? 0 : 1]);
    }
  });
});
