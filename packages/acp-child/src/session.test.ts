import type { AgentContext } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { NO_CLIENT_SERVICES } from "./client-services.js";
import { AcpSession } from "./session.js";

function session(): AcpSession {
  const client = { notify: async () => {} } as unknown as AgentContext;
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  return new AcpSession({
    sessionId: "s1",
    cwd: "/w",
    client,
    connectionSignal: new AbortController().signal,
    log,
    beforeExecute: async () => ({ allowed: true }),
    services: NO_CLIENT_SERVICES,
  });
}

describe("AcpSession.runTurn", () => {
  it("never starts a turn queued behind the running one once the session is closed (its host is gone)", async () => {
    const s = session();
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = s.runTurn(
      (signal) =>
        new Promise<string>((resolve) => {
          started();
          signal.addEventListener("abort", () => resolve("aborted"));
        }),
    );
    let secondRan = false;
    const second = s.runTurn(async () => {
      secondRan = true;
      return "second";
    });
    await running;
    await s.close("daemon_lost");
    expect(await first).toBe("aborted");
    await expect(second).rejects.toThrow(/closed/);
    expect(secondRan).toBe(false);
  });
});
