// The ACP client's terminal as core's CommandRunner: with the `terminal` capability run_shell_command runs
// `bash -c <command>` in a client terminal (terminal/create), the tool call shows that terminal live, and the
// tool keeps its own policy: the timeout and a prompt cancel kill the command (terminal/kill), the output is
// what the terminal kept, capped by the tool as on the local path, and the terminal is always released.
import type { AgentContext, TerminalExitStatus } from "@agentclientprotocol/sdk";
import type { CommandRunner, CommandRunRequest, CommandRunResult } from "@qwen-daemon/core";

export interface ClientTerminalOptions {
  client: AgentContext;
  sessionId: string;
  /** The terminal now runs this call's command (the session shows it in the tool call). */
  onTerminal(callId: string, terminalId: string): void;
  /** How long to wait for the exit after terminal/kill before giving up on it. */
  killGraceMs?: number;
  log: (message: string) => void;
}

/** Said at the top of the output when the client kept only its end (its byte limit, as the local cap). */
export const CLIENT_TRUNCATED_NOTE = "[... earlier output was dropped by the client terminal ...]\n";

export function clientTerminalRunner(options: ClientTerminalOptions): CommandRunner {
  const killGraceMs = options.killGraceMs ?? 2000;
  return {
    async run(request) {
      const { client, sessionId, log } = options;
      let terminal: Awaited<ReturnType<AgentContext["createTerminal"]>>;
      try {
        terminal = await client.createTerminal({
          sessionId,
          command: "bash",
          args: ["-c", request.command],
          cwd: request.cwd,
          env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
          outputByteLimit: request.outputLimitBytes,
        });
      } catch (error) {
        return notStarted(error);
      }
      try {
        if (request.callId !== undefined) options.onTerminal(request.callId, terminal.id);
        const exit = terminal.waitForExit();
        // Settled below in every branch; a late rejection (connection gone) must not go unhandled.
        exit.catch(() => undefined);
        const ended = await firstOf(exit, request);
        let status: TerminalExitStatus | undefined;
        if (ended.kind === "exited") status = ended.status;
        else {
          await terminal.kill();
          status = await within(exit, killGraceMs);
          if (!status)
            log(`terminal ${terminal.id} did not report an exit ${killGraceMs} ms after terminal/kill`);
        }
        const output = await terminal.currentOutput();
        if (output.truncated) request.onOutput(Buffer.from(CLIENT_TRUNCATED_NOTE));
        request.onOutput(Buffer.from(output.output));
        return {
          started: true,
          exitCode: status?.exitCode ?? null,
          signal: status?.signal ?? null,
          terminatedBy: ended.kind === "exited" ? undefined : ended.kind,
          error: undefined,
          ranIn: `Terminal: ${terminal.id}`,
        };
      } catch (error) {
        return { ...notStarted(error), started: true, ranIn: `Terminal: ${terminal.id}` };
      } finally {
        await terminal.release().catch((error: unknown) => {
          log(`terminal ${terminal.id} not released: ${messageOf(error)}`);
        });
      }
    },
  };
}

type Ended = { kind: "exited"; status: TerminalExitStatus } | { kind: "timeout" } | { kind: "abort" };

/** The command's exit, the tool's timeout or the prompt's abort, whichever comes first. */
function firstOf(exit: Promise<TerminalExitStatus>, request: CommandRunRequest): Promise<Ended> {
  return new Promise<Ended>((resolve, reject) => {
    const timer = setTimeout(() => done({ kind: "timeout" }), request.timeoutMs);
    const onAbort = () => done({ kind: "abort" });
    const done = (ended: Ended) => {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      resolve(ended);
    };
    request.signal.addEventListener("abort", onAbort, { once: true });
    if (request.signal.aborted) onAbort();
    exit.then(
      (status) => done({ kind: "exited", status }),
      (error: unknown) => {
        clearTimeout(timer);
        request.signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The promise's value if it settles within `ms`, else undefined (a rejection counts as no exit). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function notStarted(error: unknown): CommandRunResult {
  return {
    started: false,
    exitCode: null,
    signal: null,
    terminatedBy: undefined,
    error: error instanceof Error ? error : new Error(messageOf(error)),
    ranIn: "Terminal: (none)",
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}
