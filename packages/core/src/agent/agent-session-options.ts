// What a host passes to open an AgentSession and to run a prompt on it, and what it gets back.
import type { Config } from "../config.js";
import type { ModelProvider } from "../model/provider.js";
import type { TurnInterruption } from "../protocol/methods.js";
import type { SessionStorage } from "../storage/session-storage.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { GivenAnswer } from "./answered-batch.js";
import type {
  AgentEvent,
  BeforeExecuteHook,
  ConfirmationHandler,
  SessionToolContext,
  StopReason,
} from "./contract.js";

export interface AgentSessionOptions {
  sessionId: string;
  /** Absolute workspace root. */
  cwd: string;
  /** Where the transcript and prompt ledger are kept (openSessionStorage(QWEN_HOME) in production). */
  storage: SessionStorage;
  provider: ModelProvider;
  config: Config;
  /** Tools offered to the model; ask_user_question only when the host can collect answers. */
  tools: ToolRegistry;
  /** The host maps these to ACP session/update. */
  onEvent: (event: AgentEvent) => void;
  /** The host maps this to ACP session/request_permission. */
  confirm: ConfirmationHandler;
  /** Asked right before each tool execute, after confirmation (the host's policy, e.g. a daemon's guard). */
  beforeExecute?: BeforeExecuteHook<SessionToolContext>;
  clock?: () => Date;
  /** Model requests per turn (default DEFAULT_MAX_TURNS). */
  maxTurns?: number;
  systemInstruction?: string;
  /** Written in every transcript record. */
  version?: string;
}

/**
 * A host that will not restore on this load (no client attached, a fork) says so on the session's Config
 * (`suppressRestorableAskUserQuestionPreservation()`, `suppressRestorablePreservation(kind)`) before the load:
 * the history is then fully repaired, in step with a replay that finalizes those calls as failed.
 */
export interface AgentSessionLoadOptions extends AgentSessionOptions {
  /**
   * Answers the host already holds for questions of the trailing batch (acknowledged before a crash), by
   * call id. With the restore switch on, a batch that will not be re-asked is closed with them on load
   * (see answered-batch.ts), so an acknowledged answer reaches the model whatever the batch held.
   */
  givenAnswers?: ReadonlyMap<string, GivenAnswer>;
}

export interface AgentPromptOptions {
  promptId: string;
  signal: AbortSignal;
  /** prompt() only: the uuid its user record is saved under, the message id a replay names it by. */
  userMessageId?: string;
}

export type { TurnInterruption };

export interface ContinueResult {
  accepted: boolean;
  interruption: TurnInterruption;
  stopReason?: StopReason;
}

/** The transcript's options for a session (clock and version included). */
export function transcriptOptionsOf(opts: AgentSessionOptions) {
  return {
    storage: opts.storage,
    cwd: opts.cwd,
    sessionId: opts.sessionId,
    ...(opts.version === undefined ? {} : { version: opts.version }),
    ...(opts.clock === undefined ? {} : { now: opts.clock }),
  };
}

/** The prompt ledger's options for a session. */
export function ledgerOptionsOf(opts: AgentSessionOptions) {
  return opts.clock === undefined ? {} : { now: opts.clock };
}
