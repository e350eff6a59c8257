import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_PACKAGE, defaultChildCommand } from "./default-child-command.js";

describe("defaultChildCommand", () => {
  it("runs @qwen-daemon/acp-child's bin with this node when the package is installed beside the daemon", () => {
    const command = defaultChildCommand();
    expect(command[0]).toBe(process.execPath);
    expect(command[1]).toMatch(/acp-child[/\\]dist[/\\]bin\.js$/);
    expect(existsSync(command[1] as string)).toBe(true);
  });

  it("says what to install or pass when the package is not there", () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module"), { code: "MODULE_NOT_FOUND" });
    };
    expect(() => defaultChildCommand(missing)).toThrow(`npm install ${DEFAULT_AGENT_PACKAGE}`);
    expect(() => defaultChildCommand(missing)).toThrow(/pass childCommand/);
  });

  it("asks for the package's bin export, not a path inside it", () => {
    const asked: string[] = [];
    defaultChildCommand((specifier) => {
      asked.push(specifier);
      return "/x/bin.js";
    });
    expect(asked).toEqual(["@qwen-daemon/acp-child/bin"]);
  });
});
