// The daemon's tunable options as plain data: name, `qwen serve` flag, type, default, limits and help.
// This table is the one place they are written. The daemon's schema (options.ts) takes its bounds and
// defaults from it, and the cli builds `qwen serve`'s flags, environment fallbacks and help text from it,
// so a limit or a default cannot differ between the two. It imports only the permission policy table and the
// restore-kind table (plain data too): the cli's fast path reads it before the socket is bound, when nothing
// heavy (zod, Hono) may load.
//
// To add an option: one row here and one line in `DaemonOptions` (options.ts). `qwen serve` then has the
// flag, its `QWEN_SERVE_<FLAG>` variable and its help, and passes the value through; the edge-value test
// in the cli (serve-options.test.ts) walks it through both parsers.

import { RESTORE_KINDS, type RestoreKind, type RestoreSwitchName } from "@qwen-daemon/core/restore-kinds";
import {
  DEFAULT_PERMISSION_POLICY,
  PERMISSION_POLICIES,
  PERMISSION_POLICY_HELP,
} from "./permission/policies.js";

export { PERMISSION_POLICIES } from "./permission/policies.js";

/** A restore switch's option, from its row: off by default, and never from the environment (docs/restore.md). */
function restoreSwitchSpec(kind: RestoreKind) {
  return {
    type: "bool",
    flag: kind.flag.slice("--".length),
    default: false,
    noEnv: true,
    description: kind.serveHelp,
  } as const;
}

/** One option per row of the restore-kind table, named by its switch, in the table's order. */
const RESTORE_SWITCH_SPECS = Object.fromEntries(
  RESTORE_KINDS.map((kind) => [kind.switch, restoreSwitchSpec(kind)]),
) as { readonly [K in RestoreSwitchName]: ReturnType<typeof restoreSwitchSpec> };

/** Node's timers fire at once for delays above this (2^31 - 1 ms, ~24.8 days), so no timeout may exceed it. */
export const MAX_TIMER_MS = 2_147_483_647;
/** Counts with no natural ceiling accept any integer JavaScript holds exactly. */
const ANY_COUNT = Number.MAX_SAFE_INTEGER;

interface SpecBase {
  /** The `qwen serve --<flag>` name, without dashes. */
  flag: string;
  /** One line of help. */
  description: string;
  /** Environment names read before `QWEN_SERVE_<FLAG>`. */
  env?: readonly string[];
  /** No environment fallback at all (restore is switched on by the command line only). */
  noEnv?: boolean;
  /** How help describes the default when there is no fixed value (e.g. "the current directory"). */
  defaultText?: string;
}

export interface IntOptionSpec extends SpecBase {
  type: "int";
  default?: number;
  /** Inclusive bounds. */
  min: number;
  max: number;
  /** What 0 means, when 0 is allowed and is not a plain number (e.g. "no cap"). */
  zero?: string;
}
export interface BoolOptionSpec extends SpecBase {
  type: "bool";
  default: boolean;
}
export interface StringOptionSpec extends SpecBase {
  type: "string";
  default?: string;
  /**
   * What the text must be beyond non-empty: `argv-json`, a JSON array of non-empty strings (program first);
   * `url`, an absolute http(s) URL; `token`, what an `Authorization: Bearer` header can carry (TOKEN_PATTERN).
   * Checked by `stringProblem` in both the cli and the daemon.
   */
  format?: "argv-json" | "url" | "token";
}
/** A repeatable flag; its environment variable holds a comma-separated list. Items are non-empty. */
export interface ListOptionSpec extends SpecBase {
  type: "list";
}
export interface ChoiceOptionSpec extends SpecBase {
  type: "choice";
  choices: readonly string[];
  /** One line per choice, for help. */
  choiceHelp?: Readonly<Record<string, string>>;
  default?: string;
}

export type OptionSpec =
  | IntOptionSpec
  | BoolOptionSpec
  | StringOptionSpec
  | ListOptionSpec
  | ChoiceOptionSpec;

export const DAEMON_OPTION_SPECS = {
  port: {
    type: "int",
    flag: "port",
    default: 4170,
    min: 0,
    max: 65_535,
    zero: "an ephemeral port",
    description: "TCP port to listen on",
  },
  hostname: {
    type: "string",
    flag: "hostname",
    default: "127.0.0.1",
    description: "Interface to bind; a non-loopback bind needs a token (one is generated if none is given)",
  },
  token: {
    type: "string",
    flag: "token",
    env: ["QWEN_SERVER_TOKEN"],
    format: "token",
    description: "Bearer token (prefer the QWEN_SERVER_TOKEN variable: other users can read a command line)",
  },
  requireAuth: {
    type: "bool",
    flag: "require-auth",
    default: false,
    description: "Demand the token on loopback binds too",
  },
  allowOrigins: {
    type: "list",
    flag: "allow-origin",
    description: "Browser origin allowed to call the daemon, or * for any (repeatable)",
  },
  workspace: {
    type: "string",
    flag: "workspace",
    defaultText: "the current directory",
    description: "Absolute path of the one workspace this daemon serves",
  },
  maxSessions: {
    type: "int",
    flag: "max-sessions",
    default: 32,
    min: 0,
    max: ANY_COUNT,
    zero: "no cap",
    description: "Live sessions at once; more get 503 session_limit_exceeded",
  },
  maxPendingPromptsPerSession: {
    type: "int",
    flag: "max-pending-prompts-per-session",
    default: 5,
    min: 0,
    max: ANY_COUNT,
    zero: "no cap",
    description: "Running + queued prompts per session; more get 503 prompt_queue_full",
  },
  maxConnections: {
    type: "int",
    flag: "max-connections",
    default: 256,
    min: 0,
    max: ANY_COUNT,
    zero: "no cap",
    description: "Open TCP connections at once; more are dropped when accepted",
  },
  eventRingSize: {
    type: "int",
    flag: "event-ring-size",
    default: 8000,
    min: 1,
    max: 1_000_000,
    description: "Events per session kept for SSE replay (Last-Event-ID)",
  },
  eventRingMaxBytes: {
    type: "int",
    flag: "event-ring-max-bytes",
    default: 16 * 1024 * 1024,
    min: 1024,
    max: ANY_COUNT,
    description:
      "Bytes of event text per session kept for SSE replay (the oldest go first; the newest stays)",
  },
  bufferBudgetMb: {
    type: "int",
    flag: "buffer-budget-mb",
    default: 64,
    min: 1,
    max: 1024 * 1024,
    description:
      "MiB (2^20 bytes) the daemon buffers across all sessions: event replay text, request bodies, queued prompts " +
      "and the history a load replayed; " +
      "past it the oldest replay data of any session goes first",
  },
  maxEventStreams: {
    type: "int",
    flag: "max-event-streams",
    min: 0,
    max: ANY_COUNT,
    zero: "no cap",
    defaultText: "three quarters of --max-connections (no cap when it has none)",
    description:
      "SSE streams open at once across all sessions, so streams cannot take every connection; more get 503",
  },
  maxClientsPerSession: {
    type: "int",
    flag: "max-clients-per-session",
    default: 1024,
    min: 0,
    max: ANY_COUNT,
    zero: "no cap",
    description: "Client ids registered per session; past it the one seen least recently is dropped",
  },
  maxBodyBytesInFlight: {
    type: "int",
    flag: "max-body-bytes-in-flight",
    default: 64 * 1024 * 1024,
    min: 10 * 1024 * 1024,
    max: ANY_COUNT,
    description: "Bytes of request bodies being received and handled at once; more bodies wait their turn",
  },
  headersTimeoutMs: {
    type: "int",
    flag: "headers-timeout-ms",
    default: 10_000,
    min: 1,
    max: MAX_TIMER_MS,
    description: "Time a client has to send a request's headers, in ms",
  },
  requestTimeoutMs: {
    type: "int",
    flag: "request-timeout-ms",
    default: 60_000,
    min: 0,
    max: MAX_TIMER_MS,
    zero: "no limit",
    description: "Time a client has to send a whole request (headers and body), in ms",
  },
  keepAliveTimeoutMs: {
    type: "int",
    flag: "keep-alive-timeout-ms",
    default: 5000,
    min: 1,
    max: MAX_TIMER_MS,
    description: "How long an idle keep-alive connection stays open, in ms",
  },
  permissionResponseTimeoutMs: {
    type: "int",
    flag: "permission-response-timeout-ms",
    default: 0,
    min: 0,
    max: MAX_TIMER_MS,
    zero: "wait forever",
    description: "How long a tool permission or question waits for an answer, in ms",
  },
  sessionIdleTimeoutMs: {
    type: "int",
    flag: "session-idle-timeout-ms",
    default: 1_800_000,
    min: 0,
    max: MAX_TIMER_MS,
    zero: "never",
    description: "Close live sessions idle this long (no client, no subscriber, no work), in ms",
  },
  permissionPolicy: {
    type: "choice",
    flag: "permission-policy",
    choices: PERMISSION_POLICIES,
    choiceHelp: PERMISSION_POLICY_HELP,
    default: DEFAULT_PERMISSION_POLICY,
    description: "Who may answer permission requests",
  },
  consensusQuorum: {
    type: "int",
    flag: "consensus-quorum",
    min: 1,
    max: ANY_COUNT,
    defaultText: "a majority of the clients attached when the request is made",
    description: "Votes needed under the consensus policy",
  },
  experimentalLsp: {
    type: "bool",
    flag: "experimental-lsp",
    default: false,
    description: "Forward the LSP opt-in to the agent processes",
  },
  // The restore switches: flag and help are their rows' in the restore-kind table.
  ...RESTORE_SWITCH_SPECS,
  notifyCommand: {
    type: "string",
    flag: "notify-command",
    format: "argv-json",
    description:
      "JSON array: a program and arguments run with one JSON event on stdin when the agent waits for a person, or a turn ends",
  },
  notifyWebhook: {
    type: "string",
    flag: "notify-webhook",
    format: "url",
    description: "URL that gets the same JSON events as a POST",
  },
  notifySecret: {
    type: "string",
    flag: "notify-secret",
    description:
      "Signs webhook POSTs (X-Qwen-Signature: HMAC-SHA256; prefer the variable: other users can read a command line)",
  },
  notifyDelayMs: {
    type: "int",
    flag: "notify-delay-ms",
    default: 0,
    min: 0,
    max: MAX_TIMER_MS,
    zero: "at once",
    description: "Tell a waiting question or approval only if it is still unanswered after this long, in ms",
  },
  linkTtlMs: {
    type: "int",
    flag: "link-ttl-ms",
    default: 86_400_000,
    min: 0,
    max: 30 * 86_400_000,
    zero: "no answer links in notifications",
    description:
      "How long the answer links in a waiting notification work, in ms (they also stop once the question is answered)",
  },
  allowLinkAnswers: {
    type: "bool",
    flag: "allow-link-answers",
    default: false,
    description:
      "Let answer links from notifications answer under the designated, consensus and local-only policies too (a link answer is never local)",
  },
  storage: {
    type: "string",
    flag: "storage",
    env: ["QWEN_STORAGE_URL"],
    defaultText: "JSONL files under QWEN_HOME",
    description:
      "Where sessions are stored: postgres://user:password@host:5432/db, or a folder (JSONL files) " +
      "(prefer the QWEN_STORAGE_URL variable: other users can read a command line, and the URL may hold a password)",
  },
  sessionLeaseMs: {
    type: "int",
    flag: "session-lease-ms",
    default: 15_000,
    min: 100,
    max: MAX_TIMER_MS,
    description:
      "With PostgreSQL storage: how long a session stays this daemon's after its last renewal, in ms " +
      "(another daemon can take it over once it runs out)",
  },
  publicUrl: {
    type: "string",
    flag: "public-url",
    format: "url",
    defaultText: "the address it listens on",
    description: "The address people open the web client at, for the links in notifications",
  },
} as const satisfies Record<string, OptionSpec>;

export type DaemonOptionKey = keyof typeof DAEMON_OPTION_SPECS;

/** The value type a spec holds: `number` for int, the union of choices for choice, and so on. */
export type OptionValue<S> = S extends { type: "int" }
  ? number
  : S extends { type: "bool" }
    ? boolean
    : S extends { type: "list" }
      ? string[]
      : S extends { type: "choice"; choices: readonly (infer C)[] }
        ? C
        : string;

type Given<S> = S extends { default: unknown } ? true : S extends { type: "list" } ? true : false;

/** The values of a table of specs: options with a default (or a list) always hold one, the rest may not. */
export type OptionValues<T extends Record<string, OptionSpec>> = {
  -readonly [K in keyof T as Given<T[K]> extends true ? K : never]: OptionValue<T[K]>;
} & {
  -readonly [K in keyof T as Given<T[K]> extends true ? never : K]?: OptionValue<T[K]>;
};

/** Why `value` is out of the spec's bounds, or undefined when it is fine (ints only; see checkOption). */
export function intProblem(spec: IntOptionSpec, value: number): string | undefined {
  if (!Number.isSafeInteger(value)) return "must be an integer";
  if (value < spec.min || value > spec.max) return `must be ${rangeText(spec)}, got ${value}`;
  return undefined;
}

/** Why `value` does not fit a string spec, or undefined when it does. */
export function stringProblem(spec: StringOptionSpec, value: string): string | undefined {
  if (value === "") return "must not be empty";
  if (spec.format === "argv-json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return `must be a JSON array of strings, e.g. '["notify-send","qwen"]'; got ${value}`;
    }
    const ok =
      Array.isArray(parsed) && parsed.length > 0 && parsed.every((v) => typeof v === "string" && v !== "");
    return ok ? undefined : `must be a non-empty JSON array of non-empty strings; got ${value}`;
  }
  if (spec.format === "url") {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `must be an absolute http(s) URL; got ${value}`;
    }
    return url.protocol === "http:" || url.protocol === "https:"
      ? undefined
      : `must be an http(s) URL; got ${value}`;
  }
  // A token is a secret: the problem never repeats it.
  if (spec.format === "token" && !TOKEN_PATTERN.test(value))
    return "must be letters, digits and . _ ~ + / - (optionally ending in =), as a Bearer header carries it";
  return undefined;
}

/**
 * The characters a bearer token may have: an RFC 6750 `b64token`, all the HTTP edge's check (Hono's
 * bearerAuth) lets through, so a token with others could never be presented. Generated tokens are base64url.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~+/-]+=*$/;

/** The accepted range in words: "0 to 65535", "at least 1". */
export function rangeText(spec: IntOptionSpec): string {
  return spec.max >= ANY_COUNT ? `at least ${spec.min}` : `${spec.min} to ${spec.max}`;
}

/** The default as help shows it, or undefined when there is none worth showing. */
export function defaultText(spec: OptionSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (!("default" in spec) || spec.default === undefined) return undefined;
  return String(spec.default);
}
