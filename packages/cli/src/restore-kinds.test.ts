// Walks the contract's restore-kind table: each row's flag is accepted by the cli (fast path and full parser),
// turned on by `qwen serve`, forwarded by the daemon to its agents, parsed by the agent, and documented in
// `qwen serve --help` and `qwen --acp --help`. A new row that one of them forgets fails here.
import { parseAcpArgv } from "@qwen-daemon/acp-child";
import { RESTORE_KINDS } from "@qwen-daemon/core/protocol";
import { forwardedChildFlags } from "@qwen-daemon/daemon";
import { DAEMON_OPTION_SPECS } from "@qwen-daemon/daemon/option-specs";
import { describe, expect, it } from "vitest";
import { parseFastAcpArgs } from "./acp-args.js";
import { acpChildExtraArgs } from "./acp-child-extra-args.js";
import { buildProgram } from "./program.js";
import { parseServeArgs } from "./serve-args.js";

/** Help text as a terminal of any width would show it, words joined again. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ");
}

describe.each(RESTORE_KINDS.map((kind) => [kind.flag, kind] as const))("restore kind %s", (_flag, kind) => {
  it("is accepted by qwen --acp (fast path and full parser)", () => {
    expect(parseFastAcpArgs(["--acp", kind.flag])?.[kind.switch]).toBe(true);
    const program = buildProgram(["--acp", kind.flag]);
    expect(program.options.map((o) => o.long)).toContain(kind.flag);
  });

  it("turns qwen serve's switch on, which the daemon forwards to its agents", () => {
    const served = parseServeArgs([kind.flag], {});
    expect(served.kind).toBe("ok");
    const flags = (served as { flags: Record<string, unknown> }).flags;
    expect(flags[kind.switch]).toBe(true);
    expect(acpChildExtraArgs(flags)).toEqual([kind.flag]);
    expect(forwardedChildFlags({ experimentalLsp: false, [kind.switch]: true })).toEqual([kind.flag]);
  });

  it("is parsed by the agent", () => {
    const parsed = parseAcpArgv(["--acp", kind.flag]);
    expect(parsed.kind).toBe("ok");
    expect((parsed as unknown as { options: Record<string, unknown> }).options[kind.switch]).toBe(true);
  });

  it("is documented in qwen serve --help and qwen --acp --help", () => {
    const program = buildProgram(["--help"]);
    const serve = program.commands.find((c) => c.name() === "serve");
    expect(flat(serve?.helpInformation() ?? "")).toContain(kind.flag);
    expect(flat(serve?.helpInformation() ?? "")).toContain(flat(kind.serveHelp));
    expect(DAEMON_OPTION_SPECS[kind.switch].description).toBe(kind.serveHelp);
    expect(flat(program.helpInformation())).toContain(kind.flag);
    expect(flat(program.helpInformation())).toContain(flat(kind.agentHelp));
  });
});
