// Every `qwen serve` flag that is a daemon option, walked at its edges through both parsers: the cli's
// (argv or environment -> flags -> daemon options) and the daemon's own validation. Whatever one accepts the
// other accepts with the same value, and whatever one refuses the other refuses.
import { resolveDaemonOptions } from "@qwen-daemon/daemon";
import { DAEMON_OPTION_SPECS, type OptionSpec, PERMISSION_POLICIES } from "@qwen-daemon/daemon/option-specs";
import { describe, expect, it } from "vitest";
import { resolveWorkspace } from "./commands/serve.js";
import { flagHelp } from "./program.js";
import { parseServeArgs } from "./serve-args.js";
import { envNamesFor, type FlagSpec, SERVE_FLAGS } from "./serve-flags.js";
import { daemonOptionsFromFlags } from "./serve-options.js";

const wiring = { workspace: "/", childCommand: ["node", "cli.js"], qwenHome: "/tmp/qwen-home" };
const daemonFlags = SERVE_FLAGS.filter((spec) => spec.key in DAEMON_OPTION_SPECS);

type Outcome = { accepted: true; value: unknown } | { accepted: false };

/** The cli's view: parse, check the workspace as `qwen serve` does, map to daemon options and validate. */
function viaCli(argv: string[], env: Record<string, string> = {}, key?: string): Outcome {
  const parsed = parseServeArgs(argv, env);
  if (parsed.kind === "fallback") throw new Error(`fallback for ${argv.join(" ")}`);
  if (parsed.kind === "error") return { accepted: false };
  let workspace = wiring.workspace;
  try {
    workspace = resolveWorkspace(parsed.flags.workspace, "/");
  } catch {
    return { accepted: false };
  }
  const options = resolveDaemonOptions(daemonOptionsFromFlags(parsed.flags, { ...wiring, workspace }));
  return { accepted: true, value: key === undefined ? undefined : (options as Record<string, unknown>)[key] };
}

/** The daemon's view of the same value given programmatically. */
function viaDaemon(key: string, value: unknown): Outcome {
  try {
    const options = resolveDaemonOptions({ ...wiring, [key]: value });
    return { accepted: true, value: (options as Record<string, unknown>)[key] };
  } catch {
    return { accepted: false };
  }
}

/** Raw command-line values worth trying for a spec, with the value the daemon gets and whether it is valid. */
function edges(spec: OptionSpec): { raw: string; value: unknown; valid: boolean }[] {
  switch (spec.type) {
    case "int":
      return [
        { raw: String(spec.min - 1), value: spec.min - 1, valid: false },
        { raw: String(spec.min), value: spec.min, valid: true },
        { raw: String(spec.min + 1), value: spec.min + 1, valid: true },
        { raw: String(spec.max), value: spec.max, valid: true },
        { raw: String(spec.max + 1), value: spec.max + 1, valid: false },
        ...("default" in spec && spec.default !== undefined
          ? [{ raw: String(spec.default), value: spec.default, valid: true }]
          : []),
        { raw: "1.5", value: 1.5, valid: false },
        { raw: "ten", value: "ten", valid: false },
      ];
    case "choice":
      return [
        ...spec.choices.map((c) => ({ raw: c, value: c, valid: true })),
        { raw: "nobody", value: "nobody", valid: false },
        { raw: "", value: "", valid: false },
      ];
    case "bool":
      return [
        { raw: "true", value: true, valid: true },
        { raw: "false", value: false, valid: true },
        { raw: "maybe", value: "maybe", valid: false },
      ];
    case "string":
      if (spec.format === "argv-json") {
        return [
          { raw: '["notify-send","qwen"]', value: ["notify-send", "qwen"], valid: true },
          { raw: "[]", value: "[]", valid: false },
          { raw: '["ok",""]', value: '["ok",""]', valid: false },
          { raw: "notify-send qwen", value: "notify-send qwen", valid: false },
          { raw: "", value: "", valid: false },
        ];
      }
      if (spec.format === "url") {
        return [
          { raw: "https://hooks.example.org/qwen", value: "https://hooks.example.org/qwen", valid: true },
          { raw: "http://127.0.0.1:9000/", value: "http://127.0.0.1:9000/", valid: true },
          { raw: "ftp://example.org/", value: "ftp://example.org/", valid: false },
          { raw: "hooks.example.org", value: "hooks.example.org", valid: false },
          { raw: "", value: "", valid: false },
        ];
      }
      return [
        { raw: "/abs/ok", value: "/abs/ok", valid: true },
        { raw: "", value: "", valid: false },
      ];
    case "list":
      return [
        { raw: "http://localhost:3000", value: ["http://localhost:3000"], valid: true },
        { raw: "", value: [""], valid: false },
      ];
  }
}

describe.each(daemonFlags.map((spec) => [spec.flag, spec] as [string, FlagSpec]))("--%s", (_flag, spec) => {
  const cases = edges(spec).filter(
    // The workspace must exist for the cli; "/abs/ok" does not, so use one that does.
    (c) => !(spec.key === "workspace" && c.raw === "/abs/ok"),
  );
  if (spec.key === "workspace") cases.push({ raw: "/", value: "/", valid: true });

  it.each(cases.map((c) => [c.raw, c] as const))("value %j: the cli and the daemon agree", (raw, c) => {
    const expected: Outcome = c.valid ? { accepted: true, value: c.value } : { accepted: false };
    expect(viaDaemon(spec.key, c.value), "daemon").toEqual(expected);
    expect(viaCli([`--${spec.flag}=${raw}`], {}, spec.key), "cli, --flag=value").toEqual(expected);
    const env = envNamesFor(spec).at(-1);
    // An empty variable counts as unset (a shell's `X= qwen serve`), so it falls back to the default.
    if (env !== undefined && raw !== "")
      expect(viaCli([], { [env]: raw }, spec.key), `cli, ${env}`).toEqual(expected);
  });

  it("help states its bounds, default and environment variables", () => {
    const help = flagHelp(spec);
    if (spec.type === "int") expect(help).toMatch(spec.max > 1e15 ? `at least ${spec.min}` : `${spec.max}`);
    if ("default" in spec && spec.default !== undefined) expect(help).toContain(`default: `);
    for (const env of envNamesFor(spec)) expect(help).toContain(env);
  });
});

describe("--permission-policy", () => {
  it("offers every policy of the daemon's table, each with its help line", () => {
    const spec = SERVE_FLAGS.find((s) => s.key === "permissionPolicy") as FlagSpec;
    const { choiceHelp } = DAEMON_OPTION_SPECS.permissionPolicy;
    expect(spec.type === "choice" && spec.choices).toEqual(PERMISSION_POLICIES);
    expect(Object.keys(choiceHelp)).toEqual(PERMISSION_POLICIES);
    const help = flagHelp(spec);
    for (const name of PERMISSION_POLICIES) expect(help).toContain(`${name} (${choiceHelp[name]})`);
  });
});

describe("qwen serve with no flags", () => {
  it("runs the daemon with the daemon's own defaults", () => {
    const parsed = parseServeArgs([], {});
    if (parsed.kind !== "ok") throw new Error("expected ok");
    const viaFlags = resolveDaemonOptions(daemonOptionsFromFlags(parsed.flags, wiring));
    const direct = resolveDaemonOptions(wiring);
    for (const key of Object.keys(DAEMON_OPTION_SPECS)) {
      expect((viaFlags as Record<string, unknown>)[key], key).toEqual(
        (direct as Record<string, unknown>)[key],
      );
    }
  });

  it("never switches restore on from the environment, only from the command line", () => {
    expect(envNamesFor(DAEMON_OPTION_SPECS.restoreAskUserQuestion)).toEqual([]);
    expect(viaCli([], { QWEN_SERVE_RESTORE_ASK_USER_QUESTION: "true" }, "restoreAskUserQuestion")).toEqual({
      accepted: true,
      value: false,
    });
    expect(envNamesFor(DAEMON_OPTION_SPECS.restorePendingApprovals)).toEqual([]);
    expect(viaCli([], { QWEN_SERVE_RESTORE_PENDING_APPROVALS: "true" }, "restorePendingApprovals")).toEqual({
      accepted: true,
      value: false,
    });
  });
});
