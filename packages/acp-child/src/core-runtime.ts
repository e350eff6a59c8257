// Production wiring of core for this child: the model provider from env/settings (QWEN_HOME), one Config
// and tool registry per session (a suppressed restore changes only that session's Config), transcripts and
// ledgers in the session storage under QWEN_HOME (core's openSessionStorage, the daemon reads the same). This
// is the only file that constructs core objects.
import type { SessionInfo } from "@agentclientprotocol/sdk";
import {
  AgentSession,
  type AgentSessionOptions,
  Config,
  createAskUserQuestionTool,
  createBuiltinTools,
  createModelCatalog,
  describeModelProvider,
  durableFsFromEnv,
  listPersistedSessions,
  McpManager,
  type ModelCatalog,
  type ModelProvider,
  openSessionStorage,
  openStorageFromEnv,
  readSessionTranscript,
  resolveModelConfig,
  resolveQwenHome,
  type SessionLogKind,
  type SessionStorage,
  SessionTranscript,
  STORAGE_ENV,
  singleModelCatalog,
  ToolRegistry,
  TranscriptNotFoundError,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import { pickRestoreSwitches, RESTORE_KIND_NAMES } from "@qwen-daemon/core/protocol";
import type { Logger } from "./logger.js";
import { toMcpServerConfigs } from "./mcp-servers.js";
import type { AcpChildOptions } from "./options.js";
import { fallbackDescription } from "./replay.js";
import type { AgentRuntime, LoadArgs, OpenSessionArgs, RuntimeSession, ToolBackends } from "./runtime.js";
import { firstSessionWarmUp } from "./warm-up.js";

export interface CoreRuntimeOptions {
  env: Readonly<Record<string, string | undefined>>;
  options: AcpChildOptions;
  log: Logger;
  /** Replaces the provider resolved from env/settings. */
  provider?: ModelProvider;
  /** Replaces the session storage under QWEN_HOME. */
  storage?: SessionStorage;
}

export function createCoreRuntime({
  env,
  options,
  log,
  provider: given,
  storage: givenStorage,
}: CoreRuntimeOptions): AgentRuntime {
  const qwenHome = resolveQwenHome(env as NodeJS.ProcessEnv);
  // The daemon's storage (URL and owner, from the environment it gave this process) or `--storage`; without
  // either, JSONL under QWEN_HOME as always.
  const chosen =
    givenStorage === undefined && (options.storage !== undefined || env[STORAGE_ENV.url] !== undefined)
      ? openStorageFromEnv(env, qwenHome, {
          ...(options.storage !== undefined ? { url: options.storage } : {}),
          onError: (error) => log.warn(`session storage: ${error.message}`),
        })
      : undefined;
  const storage = givenStorage ?? chosen ?? openSessionStorage(qwenHome, durableFsFromEnv(env));
  const catalog: ModelCatalog = given
    ? singleModelCatalog(given)
    : createModelCatalog(resolveModelConfig({ env, qwenHome }), env, {
        openai: { onRetry: (notice) => log.warn(`model request retry: ${JSON.stringify(notice)}`) },
      });
  const provider = catalog.provider(catalog.defaultId) as ModelProvider;
  log.info(`model: ${describeModelProvider(provider)}`);
  if (catalog.entries.length > 1)
    log.info(
      `other models a session may choose: ${catalog.entries
        .slice(1)
        .map((e) => e.id)
        .join(", ")}`,
    );
  // Describing calls for replay needs only the tools' describe(); one registry serves every session.
  const describer = new ToolRegistry(sessionTools());
  const warmUp = firstSessionWarmUp(provider, log);

  const open = async (args: OpenSessionArgs, load?: LoadArgs): Promise<RuntimeSession> => {
    const config = new Config({
      ...pickRestoreSwitches(options),
      approvalMode: args.approvalMode,
      experimentalLsp: options.experimentalLsp,
    });
    // A load the daemon will not restore (its suppress keys): this session's Config stops preserving those
    // calls, so the load repairs them in step with the replay that finalizes them.
    for (const kind of RESTORE_KIND_NAMES)
      if (load?.suppress[kind]) config.suppressRestorablePreservation(kind);
    const tools = new ToolRegistry(sessionTools(args.backends));
    const model = new SessionModel(catalog, args.model);
    const mcp = await connectMcp(args, tools, log);
    const sessionOptions: AgentSessionOptions = {
      sessionId: args.sessionId,
      cwd: args.cwd,
      storage,
      provider: model,
      config,
      tools,
      onEvent: args.hooks.onEvent,
      confirm: args.hooks.confirm,
      beforeExecute: args.hooks.beforeExecute,
    };
    let agent: AgentSession;
    try {
      agent = load
        ? await AgentSession.load({
            ...sessionOptions,
            ...(load.givenAnswers ? { givenAnswers: load.givenAnswers } : {}),
          })
        : await AgentSession.create(sessionOptions);
    } catch (error) {
      await mcp?.close();
      throw error;
    }
    warmUp(tools, load ? "load" : "new");
    let disposed: Promise<void> | undefined;
    return {
      agent,
      setApprovalMode: (mode) => {
        config.approvalMode = mode;
      },
      setModel: (id) => model.choose(id),
      dispose: () => {
        disposed ??= Promise.all([agent.close(), mcp?.close()]).then(() => undefined);
        return disposed;
      },
    };
  };

  return {
    storage,
    models: catalog,
    createSession: (args) => open(args),
    loadSession: (args) => open(args, { suppress: args.suppress, givenAnswers: args.givenAnswers }),
    sessionExists: (cwd, sessionId) => SessionTranscript.exists({ storage, cwd, sessionId }),
    async readRecords(cwd, sessionId): Promise<TranscriptRecord[] | undefined> {
      try {
        return (await readSessionTranscript({ storage, cwd, sessionId })).records;
      } catch (error) {
        if (error instanceof TranscriptNotFoundError) return undefined;
        throw error;
      }
    },
    async listSessions(cwd): Promise<SessionInfo[]> {
      const persisted = await listPersistedSessions(storage, cwd);
      return persisted.map((s) => ({
        sessionId: s.sessionId,
        cwd,
        updatedAt: s.updatedAt,
        ...(s.displayName ? { title: s.displayName } : {}),
      }));
    },
    async deleteSession(cwd, sessionId) {
      // Every log of the session, the transcript last: while it exists the session is still listed, so a
      // deletion cut short can be run again.
      for (const kind of ["ledger", "answers", "prompts", "transcript"] satisfies SessionLogKind[]) {
        const log = storage.log({ cwd, sessionId }, kind, (value) => value);
        try {
          await log.replace([]);
        } finally {
          await log.close();
        }
      }
    },
    describeCall(_cwd, name, args) {
      // No ctx on purpose: a replayed edit must not be diffed against today's file content.
      return describer.get(name)?.describe(args) ?? fallbackDescription(name, args);
    },
    async close() {
      await chosen?.close();
    },
  };
}

/**
 * The session's model: the provider core's session talks to, forwarding each request to the model chosen
 * last (set_config_option "model"), so a choice takes effect at the next model request.
 */
class SessionModel implements ModelProvider {
  #current: ModelProvider;

  constructor(
    private readonly catalog: ModelCatalog,
    initial: string | undefined,
  ) {
    this.#current =
      catalog.provider(initial ?? catalog.defaultId) ??
      (catalog.provider(catalog.defaultId) as ModelProvider);
  }

  choose(id: string): void {
    const provider = this.catalog.provider(id);
    if (!provider) throw new Error(`unknown model: ${id}`);
    this.#current = provider;
  }

  get id() {
    return this.#current.id;
  }
  get model() {
    return this.#current.model;
  }
  get isDemo() {
    return this.#current.isDemo;
  }
  describe() {
    return describeModelProvider(this.#current);
  }
  generate(request: Parameters<ModelProvider["generate"]>[0]) {
    return this.#current.generate(request);
  }
  warmUp(tools: Parameters<NonNullable<ModelProvider["warmUp"]>>[0]) {
    return this.#current.warmUp?.(tools) ?? Promise.resolve();
  }
}

/** Connects the session's MCP servers and adds their tools; a server that fails is reported, not fatal. */
async function connectMcp(
  args: OpenSessionArgs,
  tools: ToolRegistry,
  log: Logger,
): Promise<McpManager | undefined> {
  const { configs, skipped } = toMcpServerConfigs(args.mcpServers, args.cwd);
  for (const s of skipped) log.warn(`session ${args.sessionId}: MCP server "${s.name}" skipped: ${s.reason}`);
  if (configs.length === 0) return undefined;
  const manager = new McpManager({ clientInfo: { name: "qwen-daemon-acp-child", version: "0.1.0" } });
  for (const report of await manager.connect(configs)) {
    if (report.ok)
      log.info(`session ${args.sessionId}: MCP server "${report.server}" tools: ${report.tools.join(", ")}`);
    else log.warn(`session ${args.sessionId}: MCP server "${report.server}" failed: ${report.error}`);
  }
  for (const tool of manager.tools()) tools.register(tool);
  return manager;
}

/** An ACP client can collect answers, so ask_user_question is always offered here. */
function sessionTools(backends: ToolBackends = {}) {
  return createBuiltinTools({
    includeAskUserQuestion: true,
    askUserQuestionTool: createAskUserQuestionTool(),
    ...(backends.fileSystem ? { fileSystem: backends.fileSystem } : {}),
    ...(backends.commandRunner ? { shell: { runner: backends.commandRunner } } : {}),
  });
}
