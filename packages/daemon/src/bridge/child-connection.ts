// The daemon's connection to one ACP child process: the daemon is the ACP *client*. This wraps the SDK's
// client app over a ChildChannel, validates what the child sends at the boundary (loosely: unknown fields
// pass through to HTTP clients untouched) and reports the child's death exactly once.
import * as acp from "@agentclientprotocol/sdk";
import {
  type ContentBlock,
  type ContinueDecision,
  DRAIN_MID_TURN_QUEUE_METHOD,
  DRAINED_MID_TURN_QUEUE,
  ExtensionMethod,
  type Meta,
  PermissionRequestParams,
  type PermissionResponse,
  SessionUpdateParams,
} from "@qwen-daemon/core/protocol";
import type { ChildChannel, ChildExit } from "./channel.js";
import { INITIALIZE_PARAMS } from "./initialize-request.js";

export type LoadResult = { _meta?: Meta | null } & Record<string, unknown>;
export type PromptResult = { stopReason: string; _meta?: Meta | null } & Record<string, unknown>;

export interface ChildHandlers {
  sessionUpdate(params: SessionUpdateParams): void;
  /** `signal` aborts when the child withdraws the request or the connection closes. */
  requestPermission(params: PermissionRequestParams, signal: AbortSignal): Promise<PermissionResponse>;
}

export type ChildDeath = ChildExit & { reason: string };

export class ChildConnection {
  readonly channel: ChildChannel;
  readonly startedAt: number;
  /** Settles once, when the process exits or the protocol connection closes, whichever is first. */
  readonly died: Promise<ChildDeath>;
  readonly #connection: acp.ClientConnection;
  #dead: ChildDeath | undefined;
  /** Rejecters of the requests in flight, told once if the child dies before answering them. */
  readonly #inFlight = new Set<(death: ChildDeath) => void>();
  #agentCapabilities: acp.AgentCapabilities | undefined;

  constructor(channel: ChildChannel, handlers: ChildHandlers, now: () => number = Date.now) {
    this.channel = channel;
    this.startedAt = now();
    const app = acp
      .client({ name: "qwen-daemon" })
      .onNotification(methods.sessionUpdate, SessionUpdateParams, ({ params }) =>
        handlers.sessionUpdate(params),
      )
      .onRequest(methods.requestPermission, PermissionRequestParams, ({ params, signal }) =>
        handlers.requestPermission(params, signal),
      )
      // Interop: the reference child asks this after every tool result. This daemon has no mid-turn
      // message queue, so the answer is always "nothing queued" (cleaner than -32601, which it logs).
      .onRequest(
        DRAIN_MID_TURN_QUEUE_METHOD,
        (p: unknown) => p,
        () => DRAINED_MID_TURN_QUEUE,
      );
    this.#connection = app.connect(acp.ndJsonStream(channel.input, channel.output));
    const closed = this.#connection.closed.then(
      (): ChildDeath => ({ code: null, signal: null, reason: "connection closed" }),
      (error: unknown): ChildDeath => ({
        code: null,
        signal: null,
        reason: `connection failed: ${describe(error)}`,
      }),
    );
    const exited = channel.exited.then(
      (exit): ChildDeath => ({ ...exit, reason: exit.error ?? describeExit(exit) }),
    );
    this.died = Promise.race([exited, closed]).then((death) => {
      this.#dead = death;
      for (const reject of this.#inFlight) reject(death);
      this.#inFlight.clear();
      return death;
    });
  }

  get pid(): number | undefined {
    return this.channel.pid;
  }

  get alive(): boolean {
    return this.#dead === undefined;
  }

  get agentCapabilities(): acp.AgentCapabilities | undefined {
    return this.#agentCapabilities;
  }

  async initialize(): Promise<acp.InitializeResponse> {
    const response = await this.#call(() =>
      // The same request as the boot side's early one (pre-initialized-channel.ts), which needs it equal.
      this.#agent.request(acp.methods.agent.initialize, INITIALIZE_PARAMS),
    );
    this.#agentCapabilities = response.agentCapabilities;
    return response;
  }

  newSession(cwd: string, meta?: Meta): Promise<acp.NewSessionResponse> {
    return this.#call(() =>
      this.#agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
        ...(meta ? { _meta: meta } : {}),
      }),
    );
  }

  loadSession(sessionId: string, cwd: string, meta?: Meta): Promise<LoadResult> {
    return this.#call(
      () =>
        this.#agent.request(acp.methods.agent.session.load, {
          sessionId,
          cwd,
          mcpServers: [],
          ...(meta ? { _meta: meta } : {}),
        }) as Promise<LoadResult>,
    );
  }

  resumeSession(sessionId: string, cwd: string, meta?: Meta): Promise<LoadResult> {
    return this.#call(
      () =>
        this.#agent.request(acp.methods.agent.session.resume, {
          sessionId,
          cwd,
          mcpServers: [],
          ...(meta ? { _meta: meta } : {}),
        }) as Promise<LoadResult>,
    );
  }

  prompt(sessionId: string, prompt: ContentBlock[], meta: Meta): Promise<PromptResult> {
    return this.#call(
      () =>
        this.#agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: prompt as unknown as acp.ContentBlock[],
          _meta: meta,
        }) as Promise<PromptResult>,
    );
  }

  cancel(sessionId: string): Promise<void> {
    return this.#call(() => this.#agent.notify(acp.methods.agent.session.cancel, { sessionId }));
  }

  /**
   * session/delete. The ACP SDK reads the agent's "not found" as done (a delete is idempotent), so the
   * caller checks the session exists first when it must say 404.
   */
  deleteSession(sessionId: string): Promise<void> {
    return this.#call(async () => {
      await this.#agent.request(acp.methods.agent.session.delete, { sessionId });
    });
  }

  setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<acp.SetSessionConfigOptionResponse> {
    return this.#call(() =>
      this.#agent.request(
        acp.methods.agent.session.setConfigOption,
        typeof value === "boolean"
          ? { sessionId, configId, type: "boolean", value }
          : { sessionId, configId, value },
      ),
    );
  }

  closeSession(sessionId: string): Promise<void> {
    return this.#call(async () => {
      await this.#agent.request(acp.methods.agent.session.close, { sessionId });
    });
  }

  continueLastTurn(sessionId: string): Promise<ContinueDecision> {
    return this.#call(() =>
      this.#agent.request<ContinueDecision>(ExtensionMethod.sessionContinue, { sessionId }),
    );
  }

  /** Signals the child's process tree; `died` settles once it is gone. */
  kill(signal: NodeJS.Signals): void {
    this.channel.kill(signal);
  }

  /** Closes the protocol connection (pending requests reject); the process sees stdin end. */
  disconnect(): void {
    this.#connection.close();
  }

  get #agent(): acp.ClientContext {
    return this.#connection.agent;
  }

  // A request to a dead child would otherwise hang or fail with a transport error that names nothing.
  // Each request registers its rejecter while in flight and removes it once answered: a reaction added to
  // `died` instead could never be removed, and would keep every request (the prompt's content with it) for
  // as long as the child lives.
  async #call<T>(send: () => Promise<T>): Promise<T> {
    if (this.#dead !== undefined) throw new ChildGoneError(this.#dead);
    return new Promise<T>((resolve, reject) => {
      const onDeath = (death: ChildDeath) => reject(new ChildGoneError(death));
      this.#inFlight.add(onDeath);
      send()
        .then(resolve, reject)
        .finally(() => this.#inFlight.delete(onDeath));
    });
  }
}

/** The child died (or its pipe closed) before answering. */
export class ChildGoneError extends Error {
  override readonly name = "ChildGoneError";
  readonly death: ChildDeath;
  constructor(death: ChildDeath) {
    super(`agent process ended (${death.reason})`);
    this.death = death;
  }
}

const methods = {
  sessionUpdate: acp.methods.client.session.update,
  requestPermission: acp.methods.client.session.requestPermission,
} as const;

function describeExit(exit: ChildExit): string {
  if (exit.signal !== null) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? "unknown"}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
