// The ACP method table of this child and its handlers. Params of standard methods are validated by the SDK
// before a handler runs; errors thrown here become JSON-RPC errors in the SDK's one wrapper; an unknown
// method is answered -32601 by the SDK and never reaches us.
import { randomUUID } from "node:crypto";
import {
  type AgentApp,
  type AgentContext,
  agent,
  type LoadSessionResponse,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { isValidSessionId } from "@qwen-daemon/core";
import {
  CONTINUE_LAST_TURN_META_KEY,
  daemonPromptId,
  EXTERNAL_TOOL_GUARD_READY_META_KEY,
  EXTERNAL_TOOL_GUARD_REQUIRED,
  ExtensionMethod,
  LoadUpdatesParams,
  type Meta,
  metaFlag,
  REQUESTED_SESSION_ID_META_KEY,
  RESTORE_ASK_USER_QUESTION_META_KEY,
  RESTORE_PENDING_APPROVALS_META_KEY,
  SessionContinueParams,
  SpecExtensionMethod,
  SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
  SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY,
} from "@qwen-daemon/core/protocol";
import { type ClientServices, clientServicesOf, NO_CLIENT_SERVICES } from "./client-services.js";
import { extensionHandlers } from "./extension-handlers.js";
import {
  INVALID_PARENT_CAPABILITY_TEXT,
  type PrivateParentEnv,
  PrivateParentGate,
} from "./external-tool-guard.js";
import { givenAnswersOf } from "./given-answers.js";
import type { Logger } from "./logger.js";
import type { AcpChildOptions } from "./options.js";
import { promptToParts } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";
import { approvalSkipIds, replaySkipIds, restoreHintMeta, type Suppress, unionOf } from "./restore.js";
import type { AgentRuntime } from "./runtime.js";
import { AcpSession } from "./session.js";
import { listSessions, requireAbsolute } from "./session-listing.js";
import { isApprovalMode, modeState } from "./session-modes.js";
import { shellToolGuard } from "./shell-tool-guard.js";

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
}

export interface AcpAgent {
  app: AgentApp;
  /** Cancels every turn and closes every session (connection end). */
  /** `daemon_lost` when the client connection ended, `session_closed` for a deliberate shutdown (a signal). */
  closeAll(code: "session_closed" | "daemon_lost"): Promise<void>;
}

export function createAcpAgent(deps: AcpAgentDeps): AcpAgent {
  const { runtime, options, log } = deps;
  const newId = deps.newId ?? randomUUID;
  const restoreSwitch = options.restoreAskUserQuestion;
  const approvalsSwitch = options.restorePendingApprovals === true;
  /** What a load/resume request says the daemon will refuse to restore (each switch has its own key). */
  const suppressOf = (meta: Meta | null | undefined): Suppress => ({
    question: metaFlag(meta, SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY),
    approvals: metaFlag(meta, SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY),
  });
  const sessions = new Map<string, AcpSession>();
  /** Loads/resumes in progress, so two concurrent loads of one session share one core session. */
  const opening = new Map<string, Promise<AcpSession>>();
  let connectionSignal: AbortSignal = new AbortController().signal;
  const parentGate = new PrivateParentGate(
    deps.privateParent ?? { capability: undefined, guardRequired: false },
  );
  /** Ids of session/new requests in flight, so two requests for one id cannot both pass the check. */
  const creating = new Set<string>();
  /** From the client's `initialize`; sessions opened afterwards use what it advertised. */
  let services: ClientServices = NO_CLIENT_SERVICES;

  const sessionOrThrow = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  const guardFor = (sessionId: string, client: AgentContext) =>
    shellToolGuard({ sessionId, client, gate: parentGate, log });

  const newAcpSession = (sessionId: string, cwd: string, client: AgentContext) =>
    new AcpSession({
      sessionId,
      cwd,
      client,
      connectionSignal,
      log,
      beforeExecute: guardFor(sessionId, client),
      services,
    });

  /**
   * The id for session/new, held in `creating` until the caller releases it: the requested one (it must be
   * valid and used by no live, loading, starting or persisted session), else a fresh one.
   */
  const reserveSessionId = async (meta: Meta | null | undefined, cwd: string): Promise<string> => {
    const requested = meta?.[REQUESTED_SESSION_ID_META_KEY];
    if (requested === undefined) {
      const fresh = newId();
      creating.add(fresh);
      return fresh;
    }
    if (!isValidSessionId(requested)) {
      throw RequestError.invalidParams(
        { sessionId: requested },
        `\`_meta["${REQUESTED_SESSION_ID_META_KEY}"]\` must be a valid session id`,
      );
    }
    const taken = () =>
      RequestError.invalidParams({ sessionId: requested }, `Session ${requested} already exists.`);
    // Checked and reserved in one synchronous step, so a concurrent request for the same id is refused.
    if (sessions.has(requested) || opening.has(requested) || creating.has(requested)) throw taken();
    creating.add(requested);
    let onDisk: boolean;
    try {
      onDisk = await runtime.sessionExists(cwd, requested);
    } catch (error) {
      creating.delete(requested);
      throw error;
    }
    if (onDisk) {
      creating.delete(requested);
      throw taken();
    }
    return requested;
  };

  /**
   * The session for load/resume: a live idle session is reloaded from disk (the transcript is the truth, and
   * the request's suppress flag decides how its history is repaired); a busy one is left as it is.
   */
  const openPersisted = async (
    params: { sessionId: string; cwd: string; mcpServers?: McpServer[] | undefined; _meta?: Meta | null },
    suppress: Suppress,
    client: AgentContext,
  ): Promise<AcpSession> => {
    const givenAnswers = givenAnswersOf(params._meta, log);
    const { sessionId, cwd } = params;
    if (!isValidSessionId(sessionId)) throw RequestError.invalidParams({ sessionId }, "Invalid session id");
    requireAbsolute(cwd);
    const open = async () => {
      const live = sessions.get(sessionId);
      if (live && live.cwd !== cwd) {
        throw RequestError.invalidParams(
          { sessionId, cwd },
          `Session is open in another workspace: ${live.cwd}`,
        );
      }
      if (live?.promptActive) return live;
      const onDisk = await runtime.sessionExists(cwd, sessionId);
      // A live session with nothing on disk (core writes a new session at once, but a runtime may not) has
      // nothing to reread: reloading it would fail and lose it, so it stays as it is.
      if (live && !onDisk) return live;
      if (!live && !onDisk) throw RequestError.sessionNotFound(sessionId);
      const session = live ?? newAcpSession(sessionId, cwd, client);
      // Queued in the session's turn order (a prompt arriving now waits for the swap), and its files are
      // closed before they are read again, so two writers never share a transcript.
      await session.exclusive(async () => {
        await session.detach();
        try {
          session.attach(
            await runtime.loadSession({
              sessionId,
              cwd,
              mcpServers: params.mcpServers ?? [],
              hooks: session.hooks,
              approvalMode: session.mode,
              suppressRestore: suppress.question,
              suppressApprovalRestore: suppress.approvals,
              givenAnswers,
              backends: session.backends,
            }),
          );
        } catch (error) {
          sessions.delete(sessionId);
          throw error;
        }
      });
      sessions.set(sessionId, session);
      return session;
    };
    // Loads of one session run one after another; each reports its own failure to its own caller.
    const previous = opening.get(sessionId);
    const promise = (previous ? Promise.allSettled([previous]) : Promise.resolve()).then(open);
    opening.set(sessionId, promise);
    try {
      return await promise;
    } finally {
      if (opening.get(sessionId) === promise) opening.delete(sessionId);
    }
  };

  /**
   * The session once any load/resume of it in progress has settled: while one reloads it from disk it has no
   * core session attached, so a request that reads its history waits for the reload instead of failing.
   */
  const settledSession = async (sessionId: string): Promise<AcpSession | undefined> => {
    const reloading = opening.get(sessionId);
    if (reloading) await Promise.allSettled([reloading]);
    return sessions.get(sessionId);
  };

  const restoreMeta = (session: AcpSession, suppress: Suppress): LoadSessionResponse["_meta"] =>
    restoreHintMeta({
      switches: { question: restoreSwitch, approvals: approvalsSwitch },
      suppress,
      promptActive: session.promptActive,
      restorableQuestion: () => session.agent.restorableQuestion() !== undefined,
      restorableApprovals: () => session.agent.restorableApprovals() !== undefined,
    });
  /** Either restore would refuse a generic continue: it would fail the calls a restore asks again. */
  const restorable = (session: AcpSession) =>
    (restoreSwitch && session.agent.restorableQuestion() !== undefined) ||
    (approvalsSwitch && session.agent.restorableApprovals() !== undefined);

  const describe = (cwd: string) => (name: string, args: Record<string, unknown>) =>
    runtime.describeCall(cwd, name, args);

  let app = agent({ name: deps.agentInfo.name })
    .onConnect((connection) => {
      connectionSignal = connection.signal;
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      const admission = parentGate.admit(params._meta);
      if (admission.kind === "rejected")
        throw RequestError.invalidParams(undefined, INVALID_PARENT_CAPABILITY_TEXT);
      if (admission.guardReady)
        log.info("external tool guard acknowledged: shell tools are cleared with the daemon");
      services = clientServicesOf(params.clientCapabilities);
      log.info(`client services: ${JSON.stringify(services)}`);
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: deps.agentInfo,
        authMethods: [],
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        ...(admission.guardReady
          ? { _meta: { [EXTERNAL_TOOL_GUARD_READY_META_KEY]: EXTERNAL_TOOL_GUARD_REQUIRED } }
          : {}),
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      requireAbsolute(params.cwd);
      const sessionId = await reserveSessionId(params._meta, params.cwd);
      try {
        const session = newAcpSession(sessionId, params.cwd, client);
        const created = await runtime.createSession({
          sessionId,
          cwd: params.cwd,
          mcpServers: params.mcpServers,
          hooks: session.hooks,
          approvalMode: session.mode,
          backends: session.backends,
        });
        session.attach(created);
        sessions.set(sessionId, session);
        return { sessionId, modes: modeState(session.mode) };
      } finally {
        creating.delete(sessionId);
      }
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const suppress = suppressOf(params._meta);
      const session = await openPersisted(params, suppress, client);
      const busy = session.promptActive;
      const records = session.agent.records();
      const updates = replayUpdates(records, {
        // A busy session's dangling calls are really running; saying they failed would be false.
        finalizeDangling: !busy,
        skipFinalizeCallIds: unionOf(
          replaySkipIds({
            restoreSwitch,
            suppress: suppress.question,
            chatLastEntry: () => session.agent.chat.peekLastHistoryEntry(),
            records,
          }),
          approvalSkipIds({
            restoreSwitch: approvalsSwitch,
            suppress: suppress.approvals,
            restorable: () => session.agent.restorableApprovals(),
          }),
        ),
        describe: describe(session.cwd),
      });
      for (const update of updates) session.send(update);
      // The response goes out only after the whole replay has been written.
      await session.flush();
      const meta = restoreMeta(session, suppress);
      return { modes: modeState(session.mode), ...(meta ? { _meta: meta } : {}) };
    })
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      const suppress = suppressOf(params._meta);
      const session = await openPersisted(params, suppress, client);
      const meta = restoreMeta(session, suppress);
      return { modes: modeState(session.mode), ...(meta ? { _meta: meta } : {}) };
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const cwd = params.cwd ?? deps.defaultCwd;
      requireAbsolute(cwd);
      return { sessions: await listSessions(runtime, sessions, cwd) };
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const session = sessionOrThrow(params.sessionId);
      if (!isApprovalMode(params.modeId)) {
        throw RequestError.invalidParams({ modeId: params.modeId }, `Unknown mode: ${params.modeId}`);
      }
      session.setMode(params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = sessionOrThrow(params.sessionId);
      const meta: Meta | null | undefined = params._meta;
      const promptId = daemonPromptId(meta) ?? newId();
      const stopReason: StopReason = await session.runTurn(async (signal) => {
        // The restore key means something only with the switch on; without it this is an ordinary prompt.
        if (restoreSwitch && metaFlag(meta, RESTORE_ASK_USER_QUESTION_META_KEY)) {
          return (await session.agent.restoreQuestion({ promptId, signal })).stopReason;
        }
        if (approvalsSwitch && metaFlag(meta, RESTORE_PENDING_APPROVALS_META_KEY)) {
          return (await session.agent.restorePendingApprovals({ promptId, signal })).stopReason;
        }
        if (metaFlag(meta, CONTINUE_LAST_TURN_META_KEY)) {
          return (await session.agent.continueLastTurn({ promptId, signal })).stopReason ?? "end_turn";
        }
        return (await session.agent.prompt(promptToParts(params.prompt), { promptId, signal })).stopReason;
      });
      return { stopReason };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const { loadUpdates, sessionContinue } = extensionHandlers({
    runtime,
    log,
    defaultCwd: deps.defaultCwd,
    restoreSwitch: restoreSwitch || approvalsSwitch,
    restorable,
    settledSession,
    describe,
  });

  // Each extension answers under qwen's name (what the reference daemon sends) and the spec's `_` name.
  for (const names of [ExtensionMethod, SpecExtensionMethod]) {
    app = app
      .onRequest(names.loadUpdates, LoadUpdatesParams, ({ params }) => loadUpdates(params))
      .onRequest(names.sessionContinue, SessionContinueParams, ({ params }) => sessionContinue(params));
  }

  return {
    app,
    async closeAll(code) {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((session) => session.close(code)));
    },
  };
}
