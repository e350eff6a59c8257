// Test support: what an editor gives an ACP agent, kept in memory. Files: open buffers by absolute path
// (a file without a buffer is read from disk, as an editor opens it; a write only ever changes a buffer).
// Terminals: each runs `command args` as a real process group owned by this client, marked with
// QWEN_TEST_CLIENT_TERMINAL=1 in its environment, its output kept in memory up to the byte limit asked for.
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { RequestError } from "@agentclientprotocol/sdk";
import type { ClientHost } from "./child-harness.js";

export const CLIENT_TERMINAL_MARK = "QWEN_TEST_CLIENT_TERMINAL";

export interface HostTerminal {
  id: string;
  command: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string>;
  outputByteLimit: number | undefined;
  process: ChildProcess;
  output: Buffer;
  truncated: boolean;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  killed: boolean;
  released: boolean;
}

export interface EditorHost {
  host: ClientHost;
  buffers: Map<string, string>;
  /** Every client method the agent called, in order, with the path or terminal it named. */
  calls: { method: string; target: string }[];
  terminals: HostTerminal[];
  /** Kills whatever terminal process is still running. */
  dispose(): void;
}

export function editorHost(initial: Record<string, string> = {}): EditorHost {
  const buffers = new Map(Object.entries(initial));
  const calls: EditorHost["calls"] = [];
  const terminals: HostTerminal[] = [];
  const terminal = (id: string): HostTerminal => {
    const found = terminals.find((t) => t.id === id && !t.released);
    if (!found) throw RequestError.invalidParams({ terminalId: id }, `No terminal ${id}`);
    return found;
  };
  const killGroup = (t: HostTerminal) => {
    try {
      if (t.process.pid !== undefined) process.kill(-t.process.pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  };

  const host: ClientHost = {
    async readTextFile({ path }) {
      calls.push({ method: "fs/read_text_file", target: path });
      const buffer = buffers.get(path);
      if (buffer !== undefined) return { content: buffer };
      try {
        return { content: await readFile(path, "utf8") };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw RequestError.resourceNotFound(path);
        throw error;
      }
    },
    async writeTextFile({ path, content }) {
      calls.push({ method: "fs/write_text_file", target: path });
      buffers.set(path, content);
      return {};
    },
    terminal: {
      async create(params) {
        const id = `term-${terminals.length + 1}`;
        calls.push({ method: "terminal/create", target: id });
        const env = Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value]));
        const child = spawn(params.command, params.args ?? [], {
          cwd: params.cwd ?? undefined,
          env: { PATH: process.env.PATH, ...env, [CLIENT_TERMINAL_MARK]: "1" },
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
        });
        const t: HostTerminal = {
          id,
          command: params.command,
          args: params.args ?? [],
          cwd: params.cwd ?? undefined,
          env,
          outputByteLimit: params.outputByteLimit ?? undefined,
          process: child,
          output: Buffer.alloc(0),
          truncated: false,
          exit: new Promise((resolve) =>
            child.once("close", (code, signal) => resolve({ exitCode: code, signal })),
          ),
          killed: false,
          released: false,
        };
        const keep = (chunk: Buffer) => {
          t.output = Buffer.concat([t.output, chunk]);
          const limit = t.outputByteLimit;
          // ACP: over the limit, the client drops output from the beginning.
          if (limit !== undefined && t.output.length > limit) {
            t.output = t.output.subarray(t.output.length - limit);
            t.truncated = true;
          }
        };
        child.stdout?.on("data", keep);
        child.stderr?.on("data", keep);
        terminals.push(t);
        return { terminalId: id };
      },
      async output({ terminalId }) {
        calls.push({ method: "terminal/output", target: terminalId });
        const t = terminal(terminalId);
        const done = t.process.exitCode !== null || t.process.signalCode !== null;
        return {
          output: t.output.toString("utf8"),
          truncated: t.truncated,
          ...(done ? { exitStatus: { exitCode: t.process.exitCode, signal: t.process.signalCode } } : {}),
        };
      },
      async waitForExit({ terminalId }) {
        calls.push({ method: "terminal/wait_for_exit", target: terminalId });
        return terminal(terminalId).exit;
      },
      async kill({ terminalId }) {
        calls.push({ method: "terminal/kill", target: terminalId });
        const t = terminal(terminalId);
        t.killed = true;
        killGroup(t);
        return {};
      },
      async release({ terminalId }) {
        calls.push({ method: "terminal/release", target: terminalId });
        const t = terminal(terminalId);
        killGroup(t);
        t.released = true;
        return {};
      },
    },
  };
  return { host, buffers, calls, terminals, dispose: () => terminals.forEach(killGroup) };
}
