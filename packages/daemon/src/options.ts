// The options `startDaemon` accepts. The cli maps flags and env onto this object; anything not given takes
// the documented default here, so the daemon has exactly one place that knows its defaults.
import { isAbsolute } from "node:path";
import { z } from "zod";
import { PermissionPolicy } from "./permission/policy.js";

export const DEFAULT_PORT = 4170;
export const DEFAULT_HOSTNAME = "127.0.0.1";
/** Reference defaults (qwen serve 0.24): 32 live sessions, 5 prompts per session, 64 sockets. */
export const DEFAULT_MAX_SESSIONS = 32;
export const DEFAULT_MAX_PENDING_PROMPTS_PER_SESSION = 5;
export const DEFAULT_MAX_CONNECTIONS = 64;
export const DEFAULT_EVENT_RING_SIZE = 8000;
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

const positiveInt = z.number().int().positive();
const absolutePath = z.string().refine(isAbsolute, { message: "must be an absolute path" });
const LogSink = z.custom<(line: string) => void>((value) => typeof value === "function", {
  message: "log must be a function",
});

export const DaemonOptions = z.object({
  /** 0 = an ephemeral port chosen by the OS. */
  port: z.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  hostname: z.string().min(1).default(DEFAULT_HOSTNAME),
  /** Bearer token. Required (and generated when missing) on non-loopback binds or with requireAuth. */
  token: z.string().min(1).optional(),
  requireAuth: z.boolean().default(false),
  /** Browser origins allowed to call the daemon (`--allow-origin`); `*` allows any. */
  allowOrigins: z.array(z.string().min(1)).default([]),
  /** The one workspace this daemon serves; sessions elsewhere are refused (`workspace_mismatch`). */
  workspace: absolutePath.default(() => process.cwd()),
  maxSessions: positiveInt.default(DEFAULT_MAX_SESSIONS),
  maxPendingPromptsPerSession: positiveInt.default(DEFAULT_MAX_PENDING_PROMPTS_PER_SESSION),
  maxConnections: positiveInt.default(DEFAULT_MAX_CONNECTIONS),
  eventRingSize: positiveInt.default(DEFAULT_EVENT_RING_SIZE),
  /** 0 = wait for an answer forever. */
  permissionResponseTimeoutMs: z.number().int().min(0).default(0),
  /** Live sessions with no clients, no subscribers and no work are closed after this long; 0 = never. */
  sessionIdleTimeoutMs: z.number().int().min(0).default(DEFAULT_SESSION_IDLE_TIMEOUT_MS),
  permissionPolicy: PermissionPolicy.default("first-responder"),
  consensusQuorum: positiveInt.optional(),
  restoreAskUserQuestion: z.boolean().default(false),
  experimentalLsp: z.boolean().default(false),
  /**
   * Start the workspace's ACP child as soon as the daemon listens, so the first session request (typically the
   * load that re-asks a question after a crash) does not pay for spawning and initializing it.
   */
  warmChild: z.boolean().default(false),
  /** Program + args prefix that starts an ACP child; the daemon appends `--acp` and `childExtraArgs`. */
  childCommand: z.array(z.string().min(1)).min(1),
  childExtraArgs: z.array(z.string()).optional(),
  /** Environment of the children (default: the daemon's own). */
  childEnv: z.record(z.string(), z.string()).optional(),
  /** Storage root of transcripts (`$QWEN_HOME`). */
  qwenHome: absolutePath,
  /** Folder of static files served at `/` (the web client), if any. */
  webRoot: absolutePath.optional(),
  /** One diagnostic line (no trailing newline); default: stderr. */
  log: LogSink.default(() => (line: string) => {
    process.stderr.write(`${line}\n`);
  }),
});
/** What callers pass (defaults optional). */
export type DaemonOptionsInput = z.input<typeof DaemonOptions>;
/** What the daemon works with (defaults applied). */
export type DaemonOptions = z.output<typeof DaemonOptions>;

/** Validates and fills defaults; throws a readable error naming the bad option. */
export function resolveDaemonOptions(input: DaemonOptionsInput): DaemonOptions {
  const parsed = DaemonOptions.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`);
    throw new TypeError(`Invalid daemon options: ${issues.join("; ")}`);
  }
  return parsed.data;
}
