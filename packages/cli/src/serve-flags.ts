// The `qwen serve` flags as data. The fast path and the commander program both read this one table, so the
// two parsers cannot drift. Every flag also has an environment fallback `QWEN_SERVE_<NAME>`.

export type FlagType = "int" | "bool" | "string" | "list" | "choice";

export interface FlagSpec {
  /** Long flag name without dashes. */
  name: string;
  /** Key in ServeFlags. */
  key: keyof ServeFlags;
  type: FlagType;
  description: string;
  choices?: readonly string[];
  /** Inclusive lower bound for ints. */
  min?: number;
  /** Extra env names checked before QWEN_SERVE_<NAME>. */
  env?: readonly string[];
  /** No environment fallback at all (RESTORE-SPEC: the command-line switch is the only way to turn restore on). */
  noEnv?: boolean;
}

export const PERMISSION_POLICIES = ["first-responder", "designated", "consensus", "local-only"] as const;

export interface ServeFlags {
  port: number;
  hostname: string;
  token?: string;
  requireAuth: boolean;
  allowOrigin: string[];
  workspace?: string;
  maxSessions: number;
  maxPendingPromptsPerSession: number;
  maxConnections: number;
  eventRingSize: number;
  permissionResponseTimeoutMs: number;
  sessionIdleTimeoutMs: number;
  permissionPolicy: (typeof PERMISSION_POLICIES)[number];
  consensusQuorum?: number;
  experimentalLsp: boolean;
  restoreAskUserQuestion: boolean;
  web: boolean;
  acpCommand?: string;
}

/** Defaults match the reference daemon so existing scripts behave the same. */
export const SERVE_DEFAULTS: ServeFlags = {
  port: 4170,
  hostname: "127.0.0.1",
  requireAuth: false,
  allowOrigin: [],
  maxSessions: 32,
  maxPendingPromptsPerSession: 5,
  maxConnections: 256,
  eventRingSize: 8000,
  permissionResponseTimeoutMs: 0,
  sessionIdleTimeoutMs: 1_800_000,
  permissionPolicy: "first-responder",
  experimentalLsp: false,
  restoreAskUserQuestion: false,
  web: true,
};

export const SERVE_FLAGS: readonly FlagSpec[] = [
  { name: "port", key: "port", type: "int", min: 0, description: "TCP port (0 = ephemeral)" },
  {
    name: "hostname",
    key: "hostname",
    type: "string",
    description: "Interface to bind; non-loopback needs a token",
  },
  {
    name: "token",
    key: "token",
    type: "string",
    env: ["QWEN_SERVER_TOKEN"],
    description: "Bearer token (prefer the QWEN_SERVER_TOKEN env var: argv is visible to other users)",
  },
  { name: "require-auth", key: "requireAuth", type: "bool", description: "Demand the token on loopback too" },
  {
    name: "allow-origin",
    key: "allowOrigin",
    type: "list",
    description: "Browser origin to allow (repeatable)",
  },
  {
    name: "workspace",
    key: "workspace",
    type: "string",
    description: "Absolute workspace path (default: cwd)",
  },
  {
    name: "max-sessions",
    key: "maxSessions",
    type: "int",
    min: 0,
    description: "Live session cap (0 = none)",
  },
  {
    name: "max-pending-prompts-per-session",
    key: "maxPendingPromptsPerSession",
    type: "int",
    min: 0,
    description: "Queued + running prompts per session (0 = none)",
  },
  { name: "max-connections", key: "maxConnections", type: "int", min: 0, description: "TCP connection cap" },
  {
    name: "event-ring-size",
    key: "eventRingSize",
    type: "int",
    min: 1,
    description: "SSE replay ring per session",
  },
  {
    name: "permission-response-timeout-ms",
    key: "permissionResponseTimeoutMs",
    type: "int",
    min: 0,
    description: "How long a permission or question waits (0 = forever)",
  },
  {
    name: "session-idle-timeout-ms",
    key: "sessionIdleTimeoutMs",
    type: "int",
    min: 0,
    description: "Reap sessions idle with no client this long (0 = never)",
  },
  {
    name: "permission-policy",
    key: "permissionPolicy",
    type: "choice",
    choices: PERMISSION_POLICIES,
    description: "Who may answer permission requests",
  },
  {
    name: "consensus-quorum",
    key: "consensusQuorum",
    type: "int",
    min: 1,
    description: "Votes needed under the consensus policy (default: majority of attached clients)",
  },
  {
    name: "experimental-lsp",
    key: "experimentalLsp",
    type: "bool",
    description: "Forward the LSP opt-in to children",
  },
  {
    name: "restore-ask-user-question",
    key: "restoreAskUserQuestion",
    type: "bool",
    description: "Re-ask a trailing unanswered ask_user_question when a session is loaded or resumed",
    noEnv: true,
  },
  { name: "web", key: "web", type: "bool", description: "Serve the web client at / (--no-web to disable)" },
  {
    name: "acp-command",
    key: "acpCommand",
    type: "string",
    env: ["QWEN_ACP_COMMAND"],
    description: "JSON array: program and args that start an ACP child (default: this qwen)",
  },
];

export function envNameFor(spec: FlagSpec): string {
  return `QWEN_SERVE_${spec.name.replace(/-/g, "_").toUpperCase()}`;
}
