// The child's sessions: which are live, which are being opened or created, and what the connection's client
// advertised. Each ACP method of agent.ts is one call on this object; the maps live here, so concurrency rules
// (one id reserved once, loads of one session in order) sit in one place.
import { randomUUID } from "node:crypto";
import {
  type AgentContext,
  type ContentBlock,
  type McpServer,
  RequestError,
  type SessionConfigOption,
  type SessionInfo,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { isValidSessionId, type ToolCallDescription } from "@qwen-daemon/core";
import {
  CONTINUE_LAST_TURN_META_KEY,
  daemonPromptId,
  type Meta,
  metaFlag,
  metaString,
  REQUESTED_SESSION_ID_META_KEY,
  RESTORE_KIND_NAMES,
  type RestoreKindName,
  type RestoreKindSwitches,
  USER_MESSAGE_ID_META_KEY,
} from "@qwen-daemon/core/protocol";
import { type ClientServices, NO_CLIENT_SERVICES } from "./client-services.js";
import type { PrivateParentGate } from "./external-tool-guard.js";
import { givenAnswersOf } from "./given-answers.js";
import type { Logger } from "./logger.js";
import { promptToParts } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";
import {
  restorableCallIds,
  restoreHintMeta,
  restorePromptKind,
  restoreToHint,
  suppressOf,
  unionOf,
} from "./restore.js";
import type { AgentRuntime } from "./runtime.js";
import { AcpSession } from "./session.js";
import { configChoiceOf, configOptions } from "./session-config.js";
import { listSessions, requireAbsolute } from "./session-listing.js";
import { shellToolGuard } from "./shell-tool-guard.js";

export interface AcpSessionsDeps {
  runtime: AgentRuntime;
  log: Logger;
  /** The agent's restore switches, per restore kind (`--restore-ask-user-question`, `--restore-pending-approvals`). */
  switches: RestoreKindSwitches;
  parentGate: PrivateParentGate;
  /** The agent's own workspace: where session/delete looks besides the workspaces this connection named. */
  defaultCwd: string;
  newId?: () => string;
  /** Sessions per session/list page (default 50). */
  listPageSize?: number;
}

/** A request that opens a persisted session (session/load, session/resume). */
export interface OpenParams {
  sessionId: string;
  cwd: string;
  mcpServers?: McpServer[] | undefined;
  _meta?: Meta | null | undefined;
}

export class AcpSessions {
  private readonly live = new Map<string, AcpSession>();
  /** Loads/resumes in progress, so two concurrent loads of one session share one core session. */
  private readonly opening = new Map<string, Promise<AcpSession>>();
  /** Ids of session/new requests in flight, so two requests for one id cannot both pass the check. */
  private readonly creating = new Set<string>();
  /** From the client's `initialize`; sessions opened afterwards use what it advertised. */
  private services: ClientServices = NO_CLIENT_SERVICES;
  private connectionSignal: AbortSignal = new AbortController().signal;
  private readonly newId: () => string;
  /** Workspaces this connection named (new, load, resume, list): where a session/delete may find its id. */
  private readonly workspaces = new Set<string>();

  constructor(private readonly deps: AcpSessionsDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.workspaces.add(deps.defaultCwd);
  }

  get switches(): RestoreKindSwitches {
    return this.deps.switches;
  }

  /** The connection's end aborts every wait of the sessions opened on it. */
  connected(signal: AbortSignal): void {
    this.connectionSignal = signal;
  }

  /** What the client advertised in `initialize`. */
  useServices(services: ClientServices): void {
    this.services = services;
  }

  get(sessionId: string): AcpSession | undefined {
    return this.live.get(sessionId);
  }

  require(sessionId: string): AcpSession {
    const session = this.live.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /**
   * The session once any load/resume of it in progress has settled: while one reloads it from disk it has no
   * core session attached, so a request that reads its history waits for the reload instead of failing.
   */
  async settled(sessionId: string): Promise<AcpSession | undefined> {
    const reloading = this.opening.get(sessionId);
    if (reloading) await Promise.allSettled([reloading]);
    return this.live.get(sessionId);
  }

  /** session/new: a fresh session (the requested id, or a new one), written to disk by core before it answers. */
  async create(
    params: { cwd: string; mcpServers: McpServer[]; _meta?: Meta | null | undefined },
    client: AgentContext,
  ): Promise<AcpSession> {
    requireAbsolute(params.cwd);
    this.workspaces.add(params.cwd);
    const sessionId = await this.reserveId(params._meta, params.cwd);
    try {
      const session = this.newSession(sessionId, params.cwd, client);
      session.attach(
        await this.deps.runtime.createSession({
          sessionId,
          cwd: params.cwd,
          mcpServers: params.mcpServers,
          hooks: session.hooks,
          approvalMode: session.mode,
          backends: session.backends,
        }),
      );
      this.live.set(sessionId, session);
      return session;
    } finally {
      this.creating.delete(sessionId);
    }
  }

  /**
   * session/load and session/resume: a live idle session is reloaded from disk (the transcript is the truth,
   * and the request's suppress flags decide how its history is repaired); a busy one is left as it is.
   */
  async open(params: OpenParams, client: AgentContext): Promise<AcpSession> {
    const givenAnswers = givenAnswersOf(params._meta, this.deps.log);
    const suppress = suppressOf(params._meta);
    const { sessionId, cwd } = params;
    if (!isValidSessionId(sessionId)) throw RequestError.invalidParams({ sessionId }, "Invalid session id");
    requireAbsolute(cwd);
    this.workspaces.add(cwd);
    const { runtime } = this.deps;
    const open = async () => {
      const live = this.live.get(sessionId);
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
      const session = live ?? this.newSession(sessionId, cwd, client);
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
              ...(session.model !== undefined ? { model: session.model } : {}),
              suppress,
              givenAnswers,
              backends: session.backends,
            }),
          );
        } catch (error) {
          this.live.delete(sessionId);
          throw error;
        }
      });
      this.live.set(sessionId, session);
      return session;
    };
    // Loads of one session run one after another; each reports its own failure to its own caller.
    const previous = this.opening.get(sessionId);
    const promise = (previous ? Promise.allSettled([previous]) : Promise.resolve()).then(open);
    this.opening.set(sessionId, promise);
    try {
      return await promise;
    } finally {
      if (this.opening.get(sessionId) === promise) this.opening.delete(sessionId);
    }
  }

  /**
   * session/prompt: one turn in the session's turn order. The daemon's `_meta` may make it a restore prompt
   * (meaningful only with that restore's switch on; otherwise it is an ordinary prompt) or a continuation.
   * `userMessageId`: the message id the prompt's user message was saved under (the daemon's, else a fresh
   * one), the `messageId` a load's replay gives it; absent when the prompt saved no user message.
   */
  async prompt(
    params: {
      sessionId: string;
      prompt: ContentBlock[];
      _meta?: Meta | null | undefined;
    },
    /** Aborted by the client's `$/cancel_request` for this session/prompt. */
    request?: AbortSignal,
  ): Promise<{ stopReason: StopReason; userMessageId?: string }> {
    const session = this.require(params.sessionId);
    const meta = params._meta;
    const promptId = daemonPromptId(meta) ?? this.newId();
    const userMessageId = metaString(meta, USER_MESSAGE_ID_META_KEY) ?? this.newId();
    // The id becomes a transcript record's uuid: a second record under it would tangle the record chain.
    if (session.agent.records().some((record) => record.uuid === userMessageId)) {
      throw RequestError.invalidParams(
        { [USER_MESSAGE_ID_META_KEY]: userMessageId },
        "This user message id is already taken in the session",
      );
    }
    let saved = false;
    const { switches } = this.deps;
    // A restore prompt (the daemon's hint key), meaningful only with that kind's switch on.
    const restoring = restorePromptKind(switches, meta);
    const stopReason = await session.runTurn(async (signal) => {
      if (restoring !== undefined) {
        return (await session.agent.restore(restoring, { promptId, signal })).stopReason;
      }
      if (metaFlag(meta, CONTINUE_LAST_TURN_META_KEY)) {
        return (await session.agent.continueLastTurn({ promptId, signal })).stopReason ?? "end_turn";
      }
      // A client that does not send restore prompts itself (any but the daemon): what its load left waiting
      // is asked again first, under a prompt id of its own, and this prompt runs once that turn has ended.
      const pending = this.services.restorePrompt ? undefined : this.pendingRestore(session);
      if (pending) {
        const restored = await session.agent.restore(pending, { promptId: this.newId(), signal });
        if (restored.stopReason === "cancelled") return "cancelled";
      }
      const result = await session.agent.prompt(promptToParts(params.prompt), {
        promptId,
        signal,
        userMessageId,
      });
      saved = session.agent.records().some((record) => record.uuid === userMessageId);
      return result.stopReason;
    }, request);
    return saved ? { stopReason, userMessageId } : { stopReason };
  }

  /**
   * session/load's replay: the history as updates, leaving in progress the calls a restore will ask again
   * (unless the request suppressed that restore). A busy session's dangling calls are really running, so
   * they are not said to have failed.
   */
  replay(session: AcpSession, meta: Meta | null | undefined): SessionUpdate[] {
    const suppress = suppressOf(meta);
    const { switches } = this.deps;
    const records = session.agent.records();
    return replayUpdates(records, {
      finalizeDangling: !session.promptActive,
      skipFinalizeCallIds: unionOf(
        ...RESTORE_KIND_NAMES.map((kind) =>
          switches[kind] && !suppress[kind] ? restorableCallIds(session.agent.restorable(kind)) : undefined,
        ),
      ),
      describe: this.describe(session.cwd),
    });
  }

  /** The restore hint of a load/resume answer (undefined when there is none to give). */
  restoreHint(session: AcpSession, meta: Meta | null | undefined): Meta | undefined {
    return restoreHintMeta({
      switches: this.deps.switches,
      suppress: suppressOf(meta),
      promptActive: session.promptActive,
      restorable: (kind) => session.agent.restorable(kind) !== undefined,
      answeredTail: () => session.agent.answeredTail(),
    });
  }

  /** The restore a load of this session would hint now (its switch on), whoever the client is. */
  private pendingRestore(session: AcpSession): RestoreKindName | undefined {
    return restoreToHint({
      switches: this.deps.switches,
      suppress: suppressOf(undefined),
      promptActive: false,
      restorable: (kind) => session.agent.restorable(kind) !== undefined,
      answeredTail: () => session.agent.answeredTail(),
    });
  }

  /** Either restore would refuse a generic continue: it would fail the calls a restore asks again. */
  restorable(session: AcpSession): boolean {
    const { switches } = this.deps;
    return RESTORE_KIND_NAMES.some((kind) => switches[kind] && session.agent.restorable(kind) !== undefined);
  }

  /**
   * session/list: one page of the workspace's sessions, most recently written first (live ones not on disk
   * yet before them). The cursor is opaque to clients; it names its workspace, so it cannot page another.
   */
  async list(cwd: string, cursor: string | null | undefined): Promise<SessionPage> {
    requireAbsolute(cwd);
    this.workspaces.add(cwd);
    const offset = cursor ? offsetOfCursor(cursor, cwd) : 0;
    const all = await listSessions(this.deps.runtime, this.live, cwd);
    const size = this.deps.listPageSize ?? DEFAULT_LIST_PAGE_SIZE;
    const next = offset + size;
    return {
      sessions: all.slice(offset, next),
      ...(next < all.length ? { nextCursor: cursorOf(cwd, next) } : {}),
    };
  }

  /** The session's config options (approval mode, model) as they stand. */
  configOptions(session: AcpSession): SessionConfigOption[] {
    return configOptions({ mode: session.mode, model: session.model }, this.deps.runtime.models);
  }

  /** session/set_config_option: applies the choice; the answer is every option as it now stands. */
  setConfigOption(params: { sessionId: string; configId: string; value: unknown }): SessionConfigOption[] {
    const session = this.require(params.sessionId);
    const choice = configChoiceOf(params, this.deps.runtime.models);
    if (choice.kind === "mode") session.setMode(choice.mode);
    else session.setModel(choice.model);
    return this.configOptions(session);
  }

  /**
   * session/delete: the session's transcript and every log kept beside it are removed for good; a live
   * session is closed first (its running turn cancelled, its files closed). The id is looked up in the
   * workspaces this connection named and the agent's own.
   */
  async delete(sessionId: string): Promise<void> {
    if (!isValidSessionId(sessionId)) throw RequestError.invalidParams({ sessionId }, "Invalid session id");
    if (this.creating.has(sessionId))
      throw RequestError.invalidParams({ sessionId }, "The session is being created");
    const live = await this.settled(sessionId);
    if (live) {
      this.live.delete(sessionId);
      await live.close();
      await this.deps.runtime.deleteSession(live.cwd, sessionId);
      return;
    }
    for (const cwd of this.workspaces) {
      if (await this.deps.runtime.sessionExists(cwd, sessionId)) {
        await this.deps.runtime.deleteSession(cwd, sessionId);
        return;
      }
    }
    throw RequestError.sessionNotFound(sessionId);
  }

  /** session/close: the live session's turn is cancelled and its files closed. */
  async close(sessionId: string): Promise<void> {
    const session = this.require(sessionId);
    this.live.delete(sessionId);
    await session.close();
  }

  /** `daemon_lost` when the client connection ended, `session_closed` for a deliberate shutdown (a signal). */
  async closeAll(code: "session_closed" | "daemon_lost"): Promise<void> {
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((session) => session.close(code)));
  }

  describe(cwd: string): (name: string, args: Record<string, unknown>) => ToolCallDescription {
    return (name, args) => this.deps.runtime.describeCall(cwd, name, args);
  }

  private newSession(sessionId: string, cwd: string, client: AgentContext): AcpSession {
    const { log, parentGate } = this.deps;
    return new AcpSession({
      sessionId,
      cwd,
      client,
      connectionSignal: this.connectionSignal,
      log,
      beforeExecute: shellToolGuard({ sessionId, client, gate: parentGate, log }),
      services: this.services,
    });
  }

  /**
   * The id for session/new, held in `creating` until the caller releases it: the requested one (it must be
   * valid and used by no live, loading, starting or persisted session), else a fresh one.
   */
  private async reserveId(meta: Meta | null | undefined, cwd: string): Promise<string> {
    const requested = meta?.[REQUESTED_SESSION_ID_META_KEY];
    if (requested === undefined) {
      const fresh = this.newId();
      this.creating.add(fresh);
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
    if (this.live.has(requested) || this.opening.has(requested) || this.creating.has(requested))
      throw taken();
    this.creating.add(requested);
    let onDisk: boolean;
    try {
      onDisk = await this.deps.runtime.sessionExists(cwd, requested);
    } catch (error) {
      this.creating.delete(requested);
      throw error;
    }
    if (onDisk) {
      this.creating.delete(requested);
      throw taken();
    }
    return requested;
  }
}

const DEFAULT_LIST_PAGE_SIZE = 50;

export interface SessionPage {
  sessions: SessionInfo[];
  nextCursor?: string;
}

function cursorOf(cwd: string, offset: number): string {
  return Buffer.from(JSON.stringify({ cwd, offset })).toString("base64url");
}

function offsetOfCursor(cursor: string, cwd: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const { cwd: cursorCwd, offset } = (decoded ?? {}) as { cwd?: unknown; offset?: unknown };
  if (cursorCwd !== cwd || typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) {
    throw RequestError.invalidParams(
      { cursor },
      "Invalid cursor: pass back a nextCursor of a session/list with the same cwd",
    );
  }
  return offset;
}
