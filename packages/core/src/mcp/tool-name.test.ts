import { describe, expect, it } from "vitest";
import { MAX_TOOL_NAME_LENGTH, mcpToolName, uniqueToolName } from "./tool-name.js";

describe("mcpToolName", () => {
  it("namespaces and sanitizes", () => {
    expect(mcpToolName("echo", "echo")).toBe("mcp__echo__echo");
    expect(mcpToolName("my server", "do.it/now!")).toBe("mcp__my_server__do_it_now_");
  });
  it("keeps long names within the limit and distinct", () => {
    const a = mcpToolName("s".repeat(40), `${"t".repeat(40)}a`);
    const b = mcpToolName("s".repeat(40), `${"t".repeat(40)}b`);
    expect(a).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(a).toMatch(/^mcp__s+__t*_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });
});

describe("uniqueToolName", () => {
  it("suffixes a taken name", () => {
    expect(uniqueToolName("x", new Set())).toBe("x");
    expect(uniqueToolName("x", new Set(["x", "x_2"]))).toBe("x_3");
  });
});
