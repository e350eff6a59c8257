import type { AgentContext } from "@agentclientprotocol/sdk";
import type { CommandRunRequest } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { CLIENT_TRUNCATED_NOTE, clientTerminalRunner } from "./client-terminal.js";

/** A client terminal whose exit is `exit` (never settles when undefined); every call is logged. */
function fakeClient(
  exit: Promise<{ exitCode: number | null; signal: string | null }> | undefined,
  output = "",
) {
  const calls: string[] = [];
  const client = {
    async createTerminal(params: { command: string; args: string[] }) {
      calls.push(`create ${params.command} ${params.args.join(" ")}`);
      return {
        id: "t1",
        waitForExit: () => {
          calls.push("wait");
          return exit ?? new Promise(() => {});
        },
        kill: async () => {
          calls.push("kill");
          return {};
        },
        currentOutput: async () => {
          calls.push("output");
          return { output, truncated: output.length > 3 };
        },
        release: async () => {
          calls.push("release");
          return {};
        },
      };
    },
  } as unknown as AgentContext;
  return { client, calls };
}

function request(overrides: Partial<CommandRunRequest> = {}) {
  const chunks: string[] = [];
  const req: CommandRunRequest = {
    command: "echo hi",
    cwd: "/ws",
    env: { PAGER: "cat" },
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    outputLimitBytes: 100,
    onOutput: (chunk) => chunks.push(chunk.toString()),
    callId: "call_1",
    ...overrides,
  };
  return { req, chunks };
}

describe("clientTerminalRunner", () => {
  it("runs bash -c in a client terminal, shows it on the call, reads the output and releases it", async () => {
    const { client, calls } = fakeClient(Promise.resolve({ exitCode: 0, signal: null }), "hi there\n");
    const shown: string[] = [];
    const runner = clientTerminalRunner({
      client,
      sessionId: "s1",
      onTerminal: (callId, id) => shown.push(`${callId}:${id}`),
      log: () => {},
    });
    const { req, chunks } = request();
    expect(await runner.run(req)).toEqual({
      started: true,
      exitCode: 0,
      signal: null,
      terminatedBy: undefined,
      error: undefined,
      ranIn: "Terminal: t1",
    });
    expect(shown).toEqual(["call_1:t1"]);
    expect(calls).toEqual(["create bash -c echo hi", "wait", "output", "release"]);
    expect(chunks.join("")).toBe(`${CLIENT_TRUNCATED_NOTE}hi there\n`);
  });

  it("kills on abort, gives up waiting for the exit after the grace, and still releases", async () => {
    const { client, calls } = fakeClient(undefined);
    const logs: string[] = [];
    const runner = clientTerminalRunner({
      client,
      sessionId: "s1",
      onTerminal: () => {},
      killGraceMs: 20,
      log: (m) => logs.push(m),
    });
    const controller = new AbortController();
    const { req } = request({ signal: controller.signal });
    const running = runner.run(req);
    setTimeout(() => controller.abort(), 10);
    expect(await running).toMatchObject({ started: true, terminatedBy: "abort", exitCode: null });
    expect(calls).toEqual(["create bash -c echo hi", "wait", "kill", "output", "release"]);
    expect(logs).toEqual(["terminal t1 did not report an exit 20 ms after terminal/kill"]);
  });

  it("reports a terminal that could not be created as not started, and a lost one as an error", async () => {
    const refusing = { createTerminal: async () => Promise.reject(new Error("no terminals here")) };
    const runner = clientTerminalRunner({
      client: refusing as unknown as AgentContext,
      sessionId: "s1",
      onTerminal: () => {},
      log: () => {},
    });
    expect(await runner.run(request().req)).toMatchObject({
      started: false,
      error: new Error("no terminals here"),
    });
    const { client, calls } = fakeClient(Promise.reject(new Error("connection closed")));
    const lost = clientTerminalRunner({ client, sessionId: "s1", onTerminal: () => {}, log: () => {} });
    expect(await lost.run(request().req)).toMatchObject({
      started: true,
      error: new Error("connection closed"),
    });
    expect(calls.at(-1)).toBe("release");
  });
});
