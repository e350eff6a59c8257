// The ACP method table of this child: each handler is a thin call on the sessions object (sessions.ts),
// which owns the live sessions and the rules between them. Params of standard methods are validated by the
// SDK before a handler runs; errors thrown here become JSON-RPC errors in the SDK's one wrapper; an unknown
// method is answered -32601 by the SDK and never reaches us.
import { type AgentApp, agent, methods, PROTOCOL_VERSION, RequestError } from "@agentclientprotocol/sdk";
import {
  EXTERNAL_TOOL_GUARD_READY_META_KEY,
  EXTERNAL_TOOL_GUARD_REQUIRED,
  ExtensionMethod,
  kindSwitchesOf,
  LoadUpdatesParams,
  SessionContinueParams,
  SpecExtensionMethod,
  USER_MESSAGE_ID_RESPONSE_META_KEY,
} from "@qwen-daemon/core/protocol";
import { clientServicesOf } from "./client-services.js";
import { extensionHandlers } from "./extension-handlers.js";
import {
  INVALID_PARENT_CAPABILITY_TEXT,
  type PrivateParentEnv,
  PrivateParentGate,
} from "./external-tool-guard.js";
import type { Logger } from "./logger.js";
import type { AcpChildOptions } from "./options.js";
import type { AgentRuntime } from "./runtime.js";
import type { AcpSession } from "./session.js";
import { isApprovalMode, modeState } from "./session-modes.js";
import { AcpSessions } from "./sessions.js";

export interface AcpAgentDeps {
  runtime: AgentRuntime;
  options: AcpChildOptions;
  log: Logger;
  /** Workspace for requests that name none (session/list without cwd, loadUpdates). */
  defaultCwd: string;
  agentInfo: { name: string; version: string };
  newId?: () => string;
  /** What the spawning daemon put in the env (read once at start); default: an ordinary ACP client. */
  privateParent?: PrivateParentEnv;
  /** Sessions per session/list page (default 50). */
  listPageSize?: number;
}

export interface AcpAgent {
  app: AgentApp;
  /**
   * Cancels every turn and closes every session: `daemon_lost` when the client connection ended,
   * `session_closed` for a deliberate shutdown (a signal).
   */
  closeAll(code: "session_closed" | "daemon_lost"): Promise<void>;
}

export function createAcpAgent(deps: AcpAgentDeps): AcpAgent {
  const { runtime, options, log } = deps;
  const parentGate = new PrivateParentGate(
    deps.privateParent ?? { capability: undefined, guardRequired: false },
  );
  const sessions = new AcpSessions({
    runtime,
    log,
    parentGate,
    defaultCwd: deps.defaultCwd,
    ...(deps.listPageSize !== undefined ? { listPageSize: deps.listPageSize } : {}),
    switches: kindSwitchesOf(options),
    ...(deps.newId ? { newId: deps.newId } : {}),
  });

  /** What new, load and resume answer about the session besides its id. */
  const sessionState = (session: AcpSession) => ({
    modes: modeState(session.mode),
    configOptions: sessions.configOptions(session),
  });

  let app = agent({ name: deps.agentInfo.name })
    .onConnect((connection) => sessions.connected(connection.signal))
    .onRequest(methods.agent.initialize, ({ params }) => {
      const admission = parentGate.admit(params._meta);
      if (admission.kind === "rejected")
        throw RequestError.invalidParams(undefined, INVALID_PARENT_CAPABILITY_TEXT);
      if (admission.guardReady)
        log.info("external tool guard acknowledged: shell tools are cleared with the daemon");
      const services = clientServicesOf(params.clientCapabilities, parentGate.trustedParent);
      sessions.useServices(services);
      log.info(`client services: ${JSON.stringify(services)}`);
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: deps.agentInfo,
        authMethods: [],
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
        },
        ...(admission.guardReady
          ? { _meta: { [EXTERNAL_TOOL_GUARD_READY_META_KEY]: EXTERNAL_TOOL_GUARD_REQUIRED } }
          : {}),
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const session = await sessions.create(params, client);
      return { sessionId: session.sessionId, ...sessionState(session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const session = await sessions.open(params, client);
      for (const update of sessions.replay(session, params._meta)) session.send(update);
      // The response goes out only after the whole replay has been written.
      await session.flush();
      const meta = sessions.restoreHint(session, params._meta);
      return { ...sessionState(session), ...(meta ? { _meta: meta } : {}) };
    })
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      const session = await sessions.open(params, client);
      const meta = sessions.restoreHint(session, params._meta);
      return { ...sessionState(session), ...(meta ? { _meta: meta } : {}) };
    })
    // Without a cwd filter: the agent's own workspace (sessions are stored per workspace).
    .onRequest(methods.agent.session.list, ({ params }) =>
      sessions.list(params.cwd ?? deps.defaultCwd, params.cursor),
    )
    .onRequest(methods.agent.session.close, async ({ params }) => {
      await sessions.close(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.delete, async ({ params }) => {
      await sessions.delete(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, ({ params }) => ({
      configOptions: sessions.setConfigOption(params),
    }))
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const session = sessions.require(params.sessionId);
      if (!isApprovalMode(params.modeId)) {
        throw RequestError.invalidParams({ modeId: params.modeId }, `Unknown mode: ${params.modeId}`);
      }
      session.setMode(params.modeId);
      return {};
    })
    // `signal`: the client's `$/cancel_request` for this prompt cancels its turn like session/cancel; the
    // answer is still a result (`cancelled`), as ACP defines one for a cancelled prompt.
    // The user message's id rides in `_meta`: a v1 prompt answer has no field of its own for it.
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const { stopReason, userMessageId } = await sessions.prompt(params, signal);
      return userMessageId === undefined
        ? { stopReason }
        : { stopReason, _meta: { [USER_MESSAGE_ID_RESPONSE_META_KEY]: userMessageId } };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const { loadUpdates, sessionContinue } = extensionHandlers({
    runtime,
    log,
    defaultCwd: deps.defaultCwd,
    sessions,
  });

  // Each extension answers under qwen's name (what the reference daemon sends) and the spec's `_` name.
  for (const names of [ExtensionMethod, SpecExtensionMethod]) {
    app = app
      .onRequest(names.loadUpdates, LoadUpdatesParams, ({ params }) => loadUpdates(params))
      .onRequest(names.sessionContinue, SessionContinueParams, ({ params }) => sessionContinue(params));
  }

  return { app, closeAll: (code) => sessions.closeAll(code) };
}
