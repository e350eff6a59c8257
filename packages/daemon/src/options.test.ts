import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DAEMON_OPTION_SPECS, type IntOptionSpec, MAX_TIMER_MS, type OptionSpec } from "./option-specs.js";
import { DaemonOptions, resolveDaemonOptions } from "./options.js";

const minimal = { childCommand: ["node", "cli.js"], qwenHome: "/tmp/qwen-home" };
const specs = Object.entries(DAEMON_OPTION_SPECS) as [string, OptionSpec][];

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
      maxConnections: 256,
      eventRingSize: 8000,
      permissionResponseTimeoutMs: 0,
      sessionIdleTimeoutMs: 1_800_000,
      permissionPolicy: "first-responder",
      restoreAskUserQuestion: false,
      restorePendingApprovals: false,
      experimentalLsp: false,
    });
    expect(o.consensusQuorum).toBeUndefined();
    expect(typeof o.log).toBe("function");
  });

  it.each([
    [{ port: 70000 }, "port"],
    [{ workspace: "relative" }, "workspace"],
    [{ permissionPolicy: "anyone" }, "permissionPolicy"],
    [{ maxSessions: -1 }, "maxSessions"],
    [{ maxSessions: 1.5 }, "maxSessions"],
    [{ eventRingSize: 0 }, "eventRingSize"],
    [{ sessionIdleTimeoutMs: MAX_TIMER_MS + 1 }, "sessionIdleTimeoutMs"],
    [{ childCommand: [] }, "childCommand"],
    [{ permissionResponseTimeoutMs: -1 }, "permissionResponseTimeoutMs"],
    [{ allowOrigins: [""] }, "allowOrigins"],
  ])("rejects %o naming the option", (override, name) => {
    expect(() => resolveDaemonOptions({ ...minimal, ...(override as object) })).toThrow(new RegExp(name));
  });

  it("runs @qwen-daemon/acp-child and stores under $QWEN_HOME when the caller names neither", () => {
    const previous = process.env.QWEN_HOME;
    process.env.QWEN_HOME = "/tmp/qwen-home-from-env";
    try {
      const o = resolveDaemonOptions({});
      expect(o.childCommand[0]).toBe(process.execPath);
      expect(o.childCommand[1]).toMatch(/acp-child[/\\]dist[/\\]bin\.js$/);
      expect(o.qwenHome).toBe("/tmp/qwen-home-from-env");
    } finally {
      if (previous === undefined) delete process.env.QWEN_HOME;
      else process.env.QWEN_HOME = previous;
    }
  });

  it("accepts 0 where a spec says what 0 means (no cap, forever, ephemeral)", () => {
    const zeros = Object.fromEntries(
      specs.filter(([, s]) => s.type === "int" && s.zero !== undefined).map(([key]) => [key, 0]),
    );
    expect(Object.keys(zeros).sort()).toEqual(
      [
        "linkTtlMs",
        "maxClientsPerSession",
        "maxConnections",
        "maxEventStreams",
        "maxPendingPromptsPerSession",
        "maxSessions",
        "notifyDelayMs",
        "permissionResponseTimeoutMs",
        "port",
        "requestTimeoutMs",
        "sessionIdleTimeoutMs",
      ].sort(),
    );
    expect(resolveDaemonOptions({ ...minimal, ...zeros })).toMatchObject(zeros);
  });
});

describe("DAEMON_OPTION_SPECS and the schema", () => {
  it("every spec is an option of the schema, and its default is the schema's", () => {
    const resolved = resolveDaemonOptions(minimal) as Record<string, unknown>;
    for (const [key, spec] of specs) {
      expect(DaemonOptions.shape, key).toHaveProperty(key);
      if ("default" in spec && spec.default !== undefined) expect(resolved[key], key).toEqual(spec.default);
    }
  });

  it.each(specs.filter((e): e is [string, IntOptionSpec] => e[1].type === "int"))(
    "%s: the schema's bounds are the spec's",
    (key, spec) => {
      const at = (value: number) => DaemonOptions.safeParse({ ...minimal, [key]: value }).success;
      expect([at(spec.min - 1), at(spec.min), at(spec.max), at(spec.max + 1)]).toEqual([
        false,
        true,
        true,
        false,
      ]);
    },
  );

  it("loads nothing heavy, so the cli can read it before anything heavy loads", async () => {
    // A real process whose module hooks refuse zod, Hono, the ACP SDK and core (see boot/index.test.ts).
    const fixture = fileURLToPath(new URL("./boot/fixtures/import-option-specs.mjs", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fixture], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    });
    expect(JSON.parse(stdout)).toEqual({
      policies: ["first-responder", "designated", "consensus", "local-only"],
    });
  });
});
