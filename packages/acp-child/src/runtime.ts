// What the ACP layer needs from core to run sessions, as one injected interface. The production wiring
// (model provider from env/settings, Config, tools, MCP) is core-runtime.ts; tests of the ACP layer could
// pass another implementation.
import type { McpServer, SessionInfo } from "@agentclientprotocol/sdk";
import type {
  AgentEvent,
  AgentSession,
  ApprovalMode,
  BeforeExecuteHook,
  CommandRunner,
  ConfirmationHandler,
  GivenAnswer,
  ModelEntry,
  SessionStorage,
  SessionToolContext,
  ToolCallDescription,
  ToolFileSystem,
  TranscriptRecord,
} from "@qwen-daemon/core";
import type { Suppress } from "./restore.js";

export interface SessionHooks {
  onEvent: (event: AgentEvent) => void;
  confirm: ConfirmationHandler;
  /** Asked right before a tool runs (the reference daemon's external tool guard). */
  beforeExecute: BeforeExecuteHook<SessionToolContext>;
}

/** Where the session's tools do their I/O when the client offers it (else the local disk and processes). */
export interface ToolBackends {
  fileSystem?: ToolFileSystem;
  commandRunner?: CommandRunner;
}

export interface OpenSessionArgs {
  sessionId: string;
  cwd: string;
  mcpServers: readonly McpServer[];
  hooks: SessionHooks;
  approvalMode: ApprovalMode;
  /** A model of `models.entries` (the session's choice; the configured one unless a client chose). */
  model?: string;
  backends?: ToolBackends;
}

export interface LoadArgs {
  /**
   * The restores the load/resume request's suppress keys refuse (nobody to ask, a fork), per restore kind: the
   * session's Config turns their preservation off, so the history is fully repaired (docs/restore.md "How a
   * restore runs", step 1).
   */
  suppress: Suppress;
  givenAnswers?: ReadonlyMap<string, GivenAnswer> | undefined;
}

/** A core session plus what the runtime opened for it (MCP connections) and must close with it. */
export interface RuntimeSession {
  readonly agent: AgentSession;
  setApprovalMode(mode: ApprovalMode): void;
  /** The next model request names this model (one of `models.entries`). */
  setModel(id: string): void;
  /** Closes the core session and releases per-session resources; safe to call twice. */
  dispose(): Promise<void>;
}

export interface AgentRuntime {
  /** Where the sessions' transcripts and ledgers are kept. */
  readonly storage: SessionStorage;
  /** The models a session may use: the configured one first. */
  readonly models: { readonly defaultId: string; readonly entries: readonly ModelEntry[] };
  createSession(args: OpenSessionArgs): Promise<RuntimeSession>;
  /**
   * `suppress`: fully repair the history of those kinds even when their switch is on (LoadArgs).
   * `givenAnswers`: answers the daemon journaled for the trailing batch (AgentSessionLoadOptions).
   */
  loadSession(args: OpenSessionArgs & LoadArgs): Promise<RuntimeSession>;
  /** True when a transcript exists for the session (load/resume of anything else is "not found"). */
  sessionExists(cwd: string, sessionId: string): Promise<boolean>;
  /** The transcript as on disk, for a read-only replay of a session that is not live; undefined if none. */
  readRecords(cwd: string, sessionId: string): Promise<TranscriptRecord[] | undefined>;
  listSessions(cwd: string): Promise<SessionInfo[]>;
  /** Removes every log of the session (transcript, ledger, the daemon's journals), durably. */
  deleteSession(cwd: string, sessionId: string): Promise<void>;
  describeCall(cwd: string, name: string, args: Record<string, unknown>): ToolCallDescription;
  close(): Promise<void>;
}
