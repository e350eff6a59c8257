// The options `startDaemon` accepts, validated. The tunable ones take their bounds and defaults from
// option-specs.ts (the table `qwen serve` builds its flags from); the rest are for programs that embed the
// daemon (child command, storage root, log sink).
import { isAbsolute } from "node:path";
import { resolveQwenHome } from "@qwen-daemon/core";
import { RESTORE_KINDS, type RestoreSwitchName } from "@qwen-daemon/core/restore-kinds";
import { z } from "zod";
import { defaultChildCommand } from "./bridge/default-child-command.js";
import {
  DAEMON_OPTION_SPECS,
  type IntOptionSpec,
  type StringOptionSpec,
  stringProblem,
} from "./option-specs.js";
import { PermissionPolicy } from "./permission/policy.js";

const S = DAEMON_OPTION_SPECS;
export const DEFAULT_PORT = S.port.default;
export const DEFAULT_HOSTNAME = S.hostname.default;

/** The restore switches, one per row of the restore-kind table, each off unless turned on. */
const RESTORE_SWITCH_SCHEMAS = Object.fromEntries(
  RESTORE_KINDS.map((kind) => [kind.switch, z.boolean().default(S[kind.switch].default)]),
) as { readonly [K in RestoreSwitchName]: z.ZodDefault<z.ZodBoolean> };

/** An int option within its spec's bounds. */
const int = (spec: IntOptionSpec) => z.number().int().min(spec.min).max(spec.max);
/** A string option that passes its spec's format (the same check the cli makes). */
const text = (spec: StringOptionSpec) =>
  z.string().superRefine((value, ctx) => {
    const problem = stringProblem(spec, value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const absolutePath = z.string().refine(isAbsolute, { message: "must be an absolute path" });
const LogSink = z.custom<(line: string) => void>((value) => typeof value === "function", {
  message: "log must be a function",
});

export const DaemonOptions = z.object({
  /** 0 = an ephemeral port chosen by the OS. */
  port: int(S.port).default(S.port.default),
  hostname: z.string().min(1).default(S.hostname.default),
  /** Bearer token. Required (and generated when missing) on non-loopback binds or with requireAuth. */
  token: text(S.token).optional(),
  requireAuth: z.boolean().default(S.requireAuth.default),
  /** Browser origins allowed to call the daemon (`--allow-origin`); `*` allows any. */
  allowOrigins: z.array(z.string().min(1)).default([]),
  /** The one workspace this daemon serves; sessions elsewhere are refused (`workspace_mismatch`). */
  workspace: absolutePath.default(() => process.cwd()),
  /** 0 = no cap (as maxPendingPromptsPerSession and maxConnections). */
  maxSessions: int(S.maxSessions).default(S.maxSessions.default),
  maxPendingPromptsPerSession: int(S.maxPendingPromptsPerSession).default(
    S.maxPendingPromptsPerSession.default,
  ),
  maxConnections: int(S.maxConnections).default(S.maxConnections.default),
  eventRingSize: int(S.eventRingSize).default(S.eventRingSize.default),
  eventRingMaxBytes: int(S.eventRingMaxBytes).default(S.eventRingMaxBytes.default),
  /** The one budget for what the daemon buffers across sessions (BufferBudget), in MiB. */
  bufferBudgetMb: int(S.bufferBudgetMb).default(S.bufferBudgetMb.default),
  /** Default: three quarters of maxConnections (see maxEventStreamsOf); 0 = no cap. */
  maxEventStreams: int(S.maxEventStreams).optional(),
  /** 0 = no cap. */
  maxClientsPerSession: int(S.maxClientsPerSession).default(S.maxClientsPerSession.default),
  maxBodyBytesInFlight: int(S.maxBodyBytesInFlight).default(S.maxBodyBytesInFlight.default),
  headersTimeoutMs: int(S.headersTimeoutMs).default(S.headersTimeoutMs.default),
  /** 0 = no limit. */
  requestTimeoutMs: int(S.requestTimeoutMs).default(S.requestTimeoutMs.default),
  keepAliveTimeoutMs: int(S.keepAliveTimeoutMs).default(S.keepAliveTimeoutMs.default),
  /** 0 = wait for an answer forever. */
  permissionResponseTimeoutMs: int(S.permissionResponseTimeoutMs).default(
    S.permissionResponseTimeoutMs.default,
  ),
  /** Live sessions with no clients, no subscribers and no work are closed after this long; 0 = never. */
  sessionIdleTimeoutMs: int(S.sessionIdleTimeoutMs).default(S.sessionIdleTimeoutMs.default),
  permissionPolicy: PermissionPolicy.default(S.permissionPolicy.default),
  consensusQuorum: int(S.consensusQuorum).optional(),
  ...RESTORE_SWITCH_SCHEMAS,
  experimentalLsp: z.boolean().default(S.experimentalLsp.default),
  /** A JSON array (as the flag gives it) or the array itself; the daemon works with the array. */
  notifyCommand: z
    .union([
      z.array(z.string().min(1)).min(1),
      text(S.notifyCommand).transform((v) => JSON.parse(v) as string[]),
    ])
    .optional(),
  notifyWebhook: text(S.notifyWebhook).optional(),
  notifySecret: text(S.notifySecret).optional(),
  notifyDelayMs: int(S.notifyDelayMs).default(S.notifyDelayMs.default),
  /** 0 = notifications carry no answer links. */
  linkTtlMs: int(S.linkTtlMs).default(S.linkTtlMs.default),
  allowLinkAnswers: z.boolean().default(S.allowLinkAnswers.default),
  /** Default: the address the daemon listens on. */
  publicUrl: text(S.publicUrl).optional(),
  /** Where sessions are stored (docs/storage.md): a postgres:// URL or a folder; default JSONL under qwenHome. */
  storage: z.string().min(1).optional(),
  sessionLeaseMs: int(S.sessionLeaseMs).default(S.sessionLeaseMs.default),
  /** This daemon run's owner id in a shared storage's leases (default: a fresh one). */
  storageOwnerId: z.string().min(1).optional(),
  /**
   * Start the workspace's ACP child as soon as the daemon listens, so the first session request (typically the
   * load that re-asks a question after a crash) does not pay for spawning and initializing it.
   */
  warmChild: z.boolean().default(false),
  /**
   * Program + args prefix that starts an ACP child; the daemon appends `--acp` and `childExtraArgs`.
   * Default: `[node, <bin of @qwen-daemon/acp-child>]`, which must then be installed beside the daemon.
   */
  childCommand: z
    .array(z.string().min(1))
    .min(1)
    .default(() => defaultChildCommand()),
  childExtraArgs: z.array(z.string()).optional(),
  /** Environment of the children (default: the daemon's own). */
  childEnv: z.record(z.string(), z.string()).optional(),
  /** Storage root of transcripts (default: `$QWEN_HOME`, else `~/.qwen`). */
  qwenHome: absolutePath.default(() => resolveQwenHome(process.env)),
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
