// A scripted ACP agent (the SDK's agent side) behind an in-memory ChildChannel: two TransformStreams
// instead of a process. Tests script what it answers and read what the daemon sent it.
import * as acp from "@agentclientprotocol/sdk";
import { ExtensionMethod } from "@qwen-daemon/core/protocol";
import type { ChannelFactory, ChildChannel, ChildExit } from "../bridge/channel.js";

type Params = Record<string, unknown> & { sessionId?: string; _meta?: Record<string, unknown> | null };

export type AgentCall = { method: string; params: Params };

/** What a script can do while handling a request: notify the daemon, ask it for permission. */
export type AgentPeer = {
  update(sessionId: string, update: Record<string, unknown>): Promise<void>;
  requestPermission(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Any other request to the daemon (extension methods). */
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** Aborts when the daemon sends session/cancel for the session (prompt handlers only). */
  cancelled: AbortSignal;
};

export type PromptScript = (params: Params, peer: AgentPeer) => Promise<Record<string, unknown>>;
export type RestoreScript = (params: Params, peer: AgentPeer) => Promise<Record<string, unknown>>;

export type ScriptedAgentOptions = {
  /** Sessions the agent can load/resume (as if on disk); updates replayed on load. */
  persisted?: Record<string, Array<Record<string, unknown>>>;
  /** `_meta` returned by load/resume (e.g. the restore hint), per session id. */
  restoreMeta?: Record<string, Record<string, unknown>>;
  prompt?: PromptScript;
  load?: RestoreScript;
  /** Answers session/resume of a persisted session instead of the default (`restoreMeta`). */
  resume?: RestoreScript;
  continueDecision?: Record<string, unknown> | "method_not_found";
  /** Reject `initialize` (a child that fails to start). */
  failInitialize?: boolean;
  /** Advertise and serve session/delete and session/set_config_option (option `mode`: plan|default|yolo). */
  stableSurface?: boolean;
};

/** The config options the scripted agent reports with `stableSurface`, `mode` at `current`. */
export function scriptedConfigOptions(current: string) {
  return [
    {
      id: "mode",
      name: "Approval mode",
      category: "mode",
      type: "select",
      currentValue: current,
      options: ["plan", "default", "yolo"].map((value) => ({ value, name: value })),
    },
  ];
}

export class ScriptedAgent {
  readonly calls: AgentCall[] = [];
  readonly options: ScriptedAgentOptions;
  spawns = 0;
  #sessionCounter = 0;
  #current: InMemoryChild | undefined;
  readonly #cancels = new Map<string, AbortController>();

  constructor(options: ScriptedAgentOptions = {}) {
    this.options = options;
  }

  readonly factory: ChannelFactory = () => {
    this.spawns += 1;
    const child = new InMemoryChild(this.#app());
    this.#current = child;
    return child;
  };

  /** Simulates the child process dying (SIGKILL from outside). */
  crash(): void {
    this.#current?.kill("SIGKILL");
  }

  callsOf(method: string): AgentCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  #record(method: string, params: unknown): Params {
    const p = structuredClone(params) as Params;
    this.calls.push({ method, params: p });
    return p;
  }

  #peer(client: acp.AgentContext, sessionId: string): AgentPeer {
    const controller = new AbortController();
    this.#cancels.set(sessionId, controller);
    return {
      update: (sid, update) => client.notify("session/update", { sessionId: sid, update }),
      requestPermission: (params) =>
        client.request<Record<string, unknown>>("session/request_permission", params),
      request: (method, params) => client.request(method, params),
      cancelled: controller.signal,
    };
  }

  #app(): acp.AgentApp {
    const raw = { parse: (p: unknown) => p as Params };
    const o = this.options;
    return acp
      .agent({ name: "scripted-agent" })
      .onRequest("initialize", raw, ({ params }) => {
        this.#record("initialize", params);
        if (o.failInitialize) throw new acp.RequestError(-32603, "scripted initialize failure");
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            ...(o.stableSurface ? { sessionCapabilities: { delete: {} } } : {}),
          },
        };
      })
      .onRequest("session/new", raw, ({ params }) => {
        this.#record("session/new", params);
        const requested = params._meta?.["qwen-code/sessionId"];
        this.#sessionCounter += 1;
        return {
          sessionId: typeof requested === "string" ? requested : `sess-${this.#sessionCounter}`,
          ...(o.stableSurface ? { configOptions: scriptedConfigOptions("default") } : {}),
        };
      })
      .onRequest("session/delete", raw, ({ params }) => {
        const p = this.#record("session/delete", params);
        if (!o.stableSurface) throw acp.RequestError.methodNotFound("session/delete");
        if (o.persisted) delete o.persisted[String(p.sessionId)];
        return {};
      })
      .onRequest("session/set_config_option", raw, ({ params }) => {
        const p = this.#record("session/set_config_option", params);
        if (!o.stableSurface) throw acp.RequestError.methodNotFound("session/set_config_option");
        if (p.configId !== "mode" || !["plan", "default", "yolo"].includes(String(p.value)))
          throw acp.RequestError.invalidParams({ configId: p.configId }, `Unknown mode: ${String(p.value)}`);
        return { configOptions: scriptedConfigOptions(String(p.value)) };
      })
      .onRequest("session/load", raw, async ({ params, client }) => {
        const p = this.#record("session/load", params);
        const id = String(p.sessionId);
        const history = o.persisted?.[id];
        if (history === undefined) throw acp.RequestError.resourceNotFound(id);
        if (o.load !== undefined) return o.load(p, this.#peer(client, id));
        for (const update of history) await client.notify("session/update", { sessionId: id, update });
        return o.restoreMeta?.[id] !== undefined ? { _meta: o.restoreMeta[id] } : {};
      })
      .onRequest("session/resume", raw, async ({ params, client }) => {
        const p = this.#record("session/resume", params);
        const id = String(p.sessionId);
        if (o.persisted?.[id] === undefined) throw acp.RequestError.resourceNotFound(id);
        if (o.resume !== undefined) return o.resume(p, this.#peer(client, id));
        return o.restoreMeta?.[id] !== undefined ? { _meta: o.restoreMeta[id] } : {};
      })
      .onRequest("session/prompt", raw, async ({ params, client }) => {
        const p = this.#record("session/prompt", params);
        const peer = this.#peer(client, String(p.sessionId));
        return o.prompt !== undefined ? o.prompt(p, peer) : { stopReason: "end_turn" };
      })
      .onRequest("session/close", raw, ({ params }) => {
        this.#record("session/close", params);
        return {};
      })
      .onRequest(ExtensionMethod.sessionContinue, raw, ({ params }) => {
        this.#record(ExtensionMethod.sessionContinue, params);
        const decision = o.continueDecision ?? { accepted: false, interruption: "none" };
        if (decision === "method_not_found")
          throw acp.RequestError.methodNotFound(ExtensionMethod.sessionContinue);
        return decision;
      })
      .onNotification("session/cancel", raw, ({ params }) => {
        const p = this.#record("session/cancel", params);
        this.#cancels.get(String(p.sessionId))?.abort();
      });
  }
}

/** Both ends of an in-memory child; `kill` ends the agent connection and settles `exited`. */
class InMemoryChild implements ChildChannel {
  readonly pid = undefined;
  readonly input: WritableStream<Uint8Array>;
  readonly output: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array> | undefined = undefined;
  readonly exited: Promise<ChildExit>;
  readonly signals: string[] = [];
  readonly #connection: acp.AgentConnection;
  #resolveExit!: (exit: ChildExit) => void;

  constructor(app: acp.AgentApp) {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toDaemon = new TransformStream<Uint8Array, Uint8Array>();
    this.input = toAgent.writable;
    this.output = toDaemon.readable;
    this.#connection = app.connect(acp.ndJsonStream(toDaemon.writable, toAgent.readable));
    this.exited = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
  }

  kill(signal: NodeJS.Signals): void {
    this.signals.push(signal);
    this.#connection.close();
    this.#resolveExit({ code: null, signal });
  }
}
