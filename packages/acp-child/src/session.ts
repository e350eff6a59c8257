// One ACP session in this child: the core session plus what the ACP layer adds around it — approval mode,
// the prompt in flight (one at a time, later ones queue), cancellation, and ordered session/update
// delivery. Each session asks its own permissions; nothing here waits on another session.
import { type AgentContext, RequestError, type SessionUpdate } from "@agentclientprotocol/sdk";
import type {
  AgentEvent,
  AgentSession,
  ApprovalMode,
  BeforeExecuteHook,
  ConfirmationOutcome,
  ConfirmationRequest,
  SessionToolContext,
} from "@qwen-daemon/core";
import { SessionClosedAbort } from "@qwen-daemon/core";
import { clientFileSystem } from "./client-file-system.js";
import type { ClientServices } from "./client-services.js";
import { clientTerminalRunner } from "./client-terminal.js";
import { askByElicitation } from "./elicitation.js";
import { eventToUpdate, type TurnEvent } from "./events.js";
import type { Logger } from "./logger.js";
import { askClient, buildPermissionRequest } from "./permissions.js";
import { askByChoices } from "./question-choices.js";
import type { RuntimeSession, SessionHooks, ToolBackends } from "./runtime.js";
import { SessionUsage, usageTotalsOf } from "./usage.js";

export interface AcpSessionDeps {
  sessionId: string;
  cwd: string;
  client: AgentContext;
  /** Aborts when the connection to the client closes. */
  connectionSignal: AbortSignal;
  log: Logger;
  /** The connection's policy for a call about to run (allows everything unless a guard was acknowledged). */
  beforeExecute: BeforeExecuteHook<SessionToolContext>;
  /** What the client advertised in `initialize`. */
  services: ClientServices;
}

export class AcpSession {
  readonly sessionId: string;
  readonly cwd: string;
  private readonly deps: AcpSessionDeps;
  private runtime: RuntimeSession | undefined;
  private approvalMode: ApprovalMode = "default";
  /** The model a client chose (set_config_option "model"); undefined: the configured one. */
  private modelId: string | undefined;
  /** session/update notifications go out in order; a failed send is logged, later sends still run. */
  private outbox: Promise<void> = Promise.resolve();
  /** Prompts run one after another; `active` aborts the one running now. */
  private turnChain: Promise<void> = Promise.resolve();
  private active: AbortController | undefined;
  private pendingTurns = 0;
  private closed = false;

  constructor(deps: AcpSessionDeps) {
    this.deps = deps;
    this.sessionId = deps.sessionId;
    this.cwd = deps.cwd;
  }

  /** Tool calls whose command runs in a client terminal: their updates keep showing that terminal. */
  private readonly terminals = new Map<string, string>();
  /** Token counts over this session's model requests (from its transcript on attach, then live). */
  private usage = new SessionUsage();

  /** The hooks core's session reports to; they stay valid across a reload of the core session. */
  readonly hooks: SessionHooks = {
    onEvent: (event: AgentEvent) =>
      this.send(
        event.type === "usage" ? this.usage.add(event.usage) : eventToUpdate(event, this.terminalOf(event)),
      ),
    confirm: (request, signal) => this.confirm(request, signal),
    beforeExecute: (call, ctx) => this.deps.beforeExecute(call, ctx),
  };

  /** The client's files and terminal, where it advertised them (the local ones otherwise). */
  get backends(): ToolBackends {
    const { services, client, log } = this.deps;
    return {
      ...(services.readTextFile || services.writeTextFile
        ? { fileSystem: clientFileSystem(client, this.sessionId, services) }
        : {}),
      ...(services.terminal
        ? {
            commandRunner: clientTerminalRunner({
              client,
              sessionId: this.sessionId,
              onTerminal: (callId, terminalId) => this.showTerminal(callId, terminalId),
              log: (message) => log.warn(message),
            }),
          }
        : {}),
    };
  }

  get agent(): AgentSession {
    if (!this.runtime) throw new Error(`session ${this.sessionId} has no core session attached`);
    return this.runtime.agent;
  }

  get mode(): ApprovalMode {
    return this.approvalMode;
  }

  /** A prompt is running or queued here, or core says its turn loop is busy. */
  get promptActive(): boolean {
    return this.pendingTurns > 0 || (this.runtime?.agent.promptActive ?? false);
  }

  /** The model chosen for this session, or undefined for the configured one. */
  get model(): string | undefined {
    return this.modelId;
  }

  /** Attaches a (re)loaded core session; detach() the previous one first. */
  attach(runtime: RuntimeSession): void {
    this.runtime = runtime;
    this.usage = new SessionUsage(usageTotalsOf(runtime.agent.records()));
    runtime.setApprovalMode(this.approvalMode);
    if (this.modelId !== undefined) runtime.setModel(this.modelId);
  }

  /** Closes the core session (its files) so it can be reloaded from disk; only while idle. */
  async detach(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = undefined;
    await runtime?.dispose();
  }

  setMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
    this.runtime?.setApprovalMode(mode);
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
  }

  /** The next model request of this session names `id` (a model the runtime lists). */
  setModel(id: string): void {
    this.runtime?.setModel(id);
    this.modelId = id;
  }

  /** Queues a session/update for this session; ordering is kept across awaits. */
  send(update: SessionUpdate): void {
    const { client, log } = this.deps;
    this.outbox = this.outbox.then(() =>
      client.notify("session/update", { sessionId: this.sessionId, update }).catch((error: unknown) => {
        log.warn(`session/update for ${this.sessionId} not delivered: ${String(error)}`);
      }),
    );
  }

  /** Resolves once every update queued so far has been written. */
  flush(): Promise<void> {
    return this.outbox;
  }

  /**
   * Runs one prompt-like turn after any earlier one has finished, with its own AbortController so
   * session/cancel stops exactly this turn. All its updates are written before the result is returned.
   * `request`: the signal of the JSON-RPC request the turn answers; the client's `$/cancel_request` for it
   * stops this turn as session/cancel would (a turn still queued then starts already cancelled).
   */
  runTurn<T>(turn: (signal: AbortSignal) => Promise<T>, request?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`session ${this.sessionId} is closed`));
    this.pendingTurns++;
    const run = this.turnChain.then(async () => {
      // Closed while this turn waited behind another: its host is gone, so it must not start (a kill would
      // not have run it either, and nobody would see its events).
      if (this.closed) {
        this.pendingTurns--;
        throw new Error(`session ${this.sessionId} is closed`);
      }
      const controller = new AbortController();
      this.active = controller;
      // The SDK also aborts the request's signal when the connection closes: that is no user's cancel (a
      // waiting question must stay restorable), so only the client's $/cancel_request (-32800) counts.
      const cancelRequest = () => {
        if (isCancelRequest(request?.reason))
          controller.abort(new Error("cancelled by the client ($/cancel_request)"));
      };
      if (request?.aborted) cancelRequest();
      else request?.addEventListener("abort", cancelRequest, { once: true });
      try {
        return await turn(controller.signal);
      } finally {
        request?.removeEventListener("abort", cancelRequest);
        this.active = undefined;
        this.pendingTurns--;
        await this.flush();
      }
    });
    this.turnChain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Runs `work` in the turn queue without counting as a prompt: turns that arrive meanwhile wait for it.
   * Used to swap the core session (reload) of an idle session.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turnChain.then(work);
    this.turnChain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** session/cancel: stops the running turn (its pending permission request is withdrawn). */
  cancel(): void {
    this.active?.abort(new Error("cancelled by the client"));
  }

  /** `daemon_lost` when the client connection ended, `session_closed` for an explicit session/close. */
  async close(code: "session_closed" | "daemon_lost" = "session_closed"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Not a user's cancel: nobody is left to answer, so a waiting question must stay restorable.
    this.active?.abort(new SessionClosedAbort("the session was closed", code));
    await this.turnChain;
    await this.flush();
    await this.runtime?.dispose();
  }

  /** The terminal a call ran in, for its updates; forgotten once the call has finished. */
  private terminalOf(event: TurnEvent): string | undefined {
    if (event.type !== "tool_call_update") return undefined;
    const terminalId = this.terminals.get(event.callId);
    if (event.status === "completed" || event.status === "failed") this.terminals.delete(event.callId);
    return terminalId;
  }

  /** ACP: a tool call carries its terminal, so the client can show the command's output live. */
  private showTerminal(callId: string, terminalId: string): void {
    this.terminals.set(callId, terminalId);
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status: "in_progress",
      content: [{ type: "terminal", terminalId }],
    });
  }

  private async confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<ConfirmationOutcome> {
    // The tool_call update must reach the client before the request that refers to it.
    await this.flush();
    const options = {
      signal,
      connectionSignal: this.deps.connectionSignal,
      log: (message: string) => this.deps.log.warn(message),
    };
    // Restored questions come through here too, so they are asked the same way. A client with form
    // elicitation gets a form; the daemon gets Submit/Cancel and answers beside it; any other client picks
    // among the question's own options, one permission request at a time.
    if (request.kind === "user_question") {
      const { services, client } = this.deps;
      if (services.elicitationForm) return askByElicitation(client, this.sessionId, request, options);
      if (!services.questionAnswers) return askByChoices(client, this.sessionId, request, options);
    }
    return askClient(this.deps.client, buildPermissionRequest(this.sessionId, request), options);
  }
}

/** The reason the SDK gives a request's signal for the peer's `$/cancel_request` (JSON-RPC -32800). */
function isCancelRequest(reason: unknown): boolean {
  return reason instanceof RequestError && reason.code === REQUEST_CANCELLED_CODE;
}

const REQUEST_CANCELLED_CODE = -32800;
