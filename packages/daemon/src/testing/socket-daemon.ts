// A real `startDaemon` on an ephemeral loopback port over a scripted agent, for tests that need real sockets
// (connection limits, timeouts, aborted uploads). `closeSocketDaemons` in an afterEach stops them all.
import { connect, type Socket } from "node:net";
import { memorySessionStorage } from "@qwen-daemon/core";
import { type DaemonInternals, type RunningDaemon, startDaemon } from "../server.js";
import { ScriptedAgent } from "./scripted-agent.js";

const running: RunningDaemon[] = [];

export async function startSocketDaemon(
  overrides: Record<string, unknown> = {},
  agent = new ScriptedAgent(),
  internals: DaemonInternals = {},
) {
  const logs: string[] = [];
  const daemon = await startDaemon(
    {
      port: 0,
      workspace: "/work/test-workspace",
      childCommand: ["unused"],
      qwenHome: "/tmp/qwen-home-unused",
      log: (l) => logs.push(l),
      ...overrides,
    },
    {
      channelFactory: agent.factory,
      storage: memorySessionStorage(),
      shutdownGraceMs: 2000,
      ...internals,
    },
  );
  running.push(daemon);
  return { daemon, logs, agent };
}

/** Has a daemon started some other way closed by `closeSocketDaemons` too. */
export function trackDaemon(daemon: RunningDaemon): RunningDaemon {
  running.push(daemon);
  return daemon;
}

export async function closeSocketDaemons(): Promise<void> {
  await Promise.all(running.splice(0).map((d) => d.close()));
}

/** A raw TCP connection to the daemon, for requests `fetch` will not send (torn, slow, malformed). */
export function rawConnection(port: number): Promise<Socket & { received: () => string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(port, "127.0.0.1");
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.once("error", reject);
    socket.once("connect", () => resolve(Object.assign(socket, { received: () => text })));
  });
}

/** Resolves once the server has closed `socket` (or it errored), with what it had sent. */
export function closedBy(socket: Socket & { received: () => string }): Promise<string> {
  return new Promise((resolve) => {
    if (socket.closed) resolve(socket.received());
    socket.once("close", () => resolve(socket.received()));
  });
}
