import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CHILD_V8_FLAGS, ownChildEnv, selfCommand } from "./serve.js";
import { lateTurbofanFlag } from "./v8-tiering.js";

describe("selfCommand", () => {
  it("runs the same node, loader flags and entry, with the child V8 flags after the loader flags", () => {
    expect(selfCommand(["--conditions=source", "--import", "tsx"], "/x/bin.js")).toEqual([
      process.execPath,
      "--conditions=source",
      "--import",
      "tsx",
      "--max-semi-space-size=1",
      lateTurbofanFlag(),
      "--heap-growing-percent=20",
      "/x/bin.js",
    ]);
  });

  it("uses V8 flags this node accepts", () => {
    // node exits with 9 ("bad option") on a flag it does not know.
    const out = execFileSync(process.execPath, [...CHILD_V8_FLAGS, "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
    });
    expect(out).toBe("ok");
  });

  it("refuses to guess when the entry is unknown", () => {
    expect(() => selfCommand([], "")).toThrow(/argv\[1\]/);
  });
});

describe("ownChildEnv", () => {
  it("gives qwen's own agent the daemon's environment, without its token, plus the arena cap for it alone", () => {
    const env = { PATH: "/bin", QWEN_SERVER_TOKEN: "secret" };
    expect(ownChildEnv({}, undefined, env)).toEqual({
      PATH: "/bin",
      MALLOC_ARENA_MAX: "2",
      QWEN_AGENT_ONLY_ENV: "MALLOC_ARENA_MAX",
    });
    expect(ownChildEnv({}, { QWEN_STORAGE_URL: "file:/s" }, env)).toEqual({
      QWEN_STORAGE_URL: "file:/s",
      MALLOC_ARENA_MAX: "2",
      QWEN_AGENT_ONLY_ENV: "MALLOC_ARENA_MAX",
    });
  });

  it("leaves another agent program's environment alone (--acp-command): it would not remove the variable", () => {
    expect(ownChildEnv({ acpCommand: '["other-agent"]' }, undefined, { PATH: "/bin" })).toBeUndefined();
    expect(ownChildEnv({ acpCommand: '["other-agent"]' }, { A: "1" }, { PATH: "/bin" })).toEqual({ A: "1" });
  });
});
