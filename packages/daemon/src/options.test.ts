import { describe, expect, it } from "vitest";
import { resolveDaemonOptions } from "./options.js";

const minimal = { childCommand: ["node", "cli.js"], qwenHome: "/tmp/qwen-home" };

describe("resolveDaemonOptions", () => {
  it("fills the documented defaults", () => {
    const o = resolveDaemonOptions(minimal);
    expect(o).toMatchObject({
      port: 4170,
      hostname: "127.0.0.1",
      requireAuth: false,
      allowOrigins: [],
      workspace: process.cwd(),
      maxSessions: 32,
      maxPendingPromptsPerSession: 5,
      maxConnections: 64,
      eventRingSize: 8000,
      permissionResponseTimeoutMs: 0,
      permissionPolicy: "first-responder",
      restoreAskUserQuestion: false,
      experimentalLsp: false,
    });
    expect(typeof o.log).toBe("function");
  });

  it.each([
    [{ port: 70000 }, "port"],
    [{ workspace: "relative" }, "workspace"],
    [{ permissionPolicy: "anyone" }, "permissionPolicy"],
    [{ maxSessions: 0 }, "maxSessions"],
    [{ childCommand: [] }, "childCommand"],
    [{ permissionResponseTimeoutMs: -1 }, "permissionResponseTimeoutMs"],
  ])("rejects %o naming the option", (override, name) => {
    expect(() => resolveDaemonOptions({ ...minimal, ...(override as object) })).toThrow(new RegExp(name));
  });
});
