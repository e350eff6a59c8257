// run_shell_command: one bash command in the workspace, with a timeout and an output cap, run by a
// CommandRunner (its own process group here by default, or a host's terminal). Parameter names and result
// texts follow the reference (`timeout` in ms, `directory`).
import { stat } from "node:fs/promises";
import { z } from "zod";
import { type CommandRunner, localCommandRunner } from "./command-runner.js";
import { OutputCap } from "./output-cap.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath } from "./workspace-path.js";

export const SHELL_DEFAULT_TIMEOUT_MS = 120_000;
export const SHELL_MAX_TIMEOUT_MS = 600_000;
export const SHELL_OUTPUT_CAP_BYTES = 64 * 1024;

export interface ShellToolOptions {
  /** Environment for commands of the default (local) runner; defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  defaultTimeoutMs?: number;
  outputCapBytes?: number;
  /** Local runner: grace between SIGTERM and SIGKILL to the process group. */
  killGraceMs?: number;
  /** Local runner: how long to keep reading after bash exits while a background job still holds the pipes. */
  drainMs?: number;
  /** Where commands run; defaults to a process group on this machine (env/killGraceMs/drainMs above). */
  runner?: CommandRunner;
}

/** Set for every command: output goes to the model, never to an interactive pager. */
const COMMAND_ENV = { PAGER: "cat", GIT_PAGER: "cat" };

const ShellParams = z.object({
  command: z.string().min(1).describe("Exact bash command to execute as `bash -c <command>`."),
  description: z.string().optional().describe("Brief description of the command for the user, one sentence."),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(SHELL_MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Optional timeout in milliseconds (default ${SHELL_DEFAULT_TIMEOUT_MS}, max ${SHELL_MAX_TIMEOUT_MS}).`,
    ),
  directory: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Directory to run in, absolute or relative to the workspace root; defaults to the root. Must exist.",
    ),
});

const params = defineToolParams(ShellParams);

function withOutput(summary: string, output: string, when: string): string {
  return output.trim() === ""
    ? `${summary} There was no output before it ${when}.`
    : `${summary} Below is the output before it ${when}:\n${output}`;
}

export function createShellTool(options: ShellToolOptions = {}): Tool {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? SHELL_DEFAULT_TIMEOUT_MS;
  const outputCapBytes = options.outputCapBytes ?? SHELL_OUTPUT_CAP_BYTES;
  const runner =
    options.runner ??
    localCommandRunner({
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(options.drainMs === undefined ? {} : { drainMs: options.drainMs }),
    });
  return {
    name: BuiltinToolName.runShellCommand,
    description:
      "Runs a bash command (`bash -c <command>`) in the workspace and returns its combined stdout and stderr, " +
      `exit code and signal. Output over ${outputCapBytes} bytes keeps its beginning and end. The command and ` +
      `everything it starts are killed after 'timeout' ms (default ${defaultTimeoutMs}). stdin is closed: do not ` +
      "run interactive commands.",
    get parameters() {
      return params.jsonSchema;
    },
    confirmation: "exec",
    restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.runShellCommand],
    validate: params.validate,
    describe(args) {
      const command = String(args.command ?? "");
      const description = typeof args.description === "string" ? ` (${args.description})` : "";
      return { title: `${command}${description}`, uiKind: "execute" };
    },
    async execute(args, ctx) {
      try {
        const p = params.parse(args);
        if (ctx.signal.aborted) return { error: "Command was cancelled by user before it could start." };
        const dir = await resolveWorkspacePath(ctx.cwd, p.directory ?? ".");
        if (!(await stat(dir.real)).isDirectory())
          return { error: `Path is not a directory: ${dir.display}` };
        const timeoutMs = Math.min(p.timeout ?? defaultTimeoutMs, SHELL_MAX_TIMEOUT_MS);
        const output = new OutputCap(outputCapBytes);
        const run = await runner.run({
          command: p.command,
          cwd: dir.real,
          env: COMMAND_ENV,
          timeoutMs,
          signal: ctx.signal,
          outputLimitBytes: outputCapBytes,
          onOutput: (chunk) => output.push(chunk),
          ...(ctx.callId === undefined ? {} : { callId: ctx.callId }),
        });
        // One trailing newline is the command's line ending, not content; dropping it keeps the report tidy.
        const text = output.text().replace(/\n$/, "");
        if (run.terminatedBy === "timeout") {
          return {
            error: withOutput(
              `Command timed out after ${timeoutMs}ms before it could complete.`,
              text,
              "timed out",
            ),
          };
        }
        if (run.terminatedBy === "abort") {
          return {
            error: withOutput(
              "Command was cancelled by user before it could complete.",
              text,
              "was cancelled",
            ),
          };
        }
        if (!run.started) return { error: `Failed to start the command: ${errorText(run.error)}` };
        return {
          output: [
            `Command: ${p.command}`,
            `Directory: ${p.directory ?? "(root)"}`,
            `Output: ${text === "" ? "(empty)" : text}`,
            `Error: ${run.error ? errorText(run.error) : "(none)"}`,
            `Exit Code: ${run.exitCode ?? "(none)"}`,
            `Signal: ${run.signal ?? "(none)"}`,
            run.ranIn,
          ].join("\n"),
        };
      } catch (error) {
        return { error: errorText(error) };
      }
    },
  };
}
