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
  createModelProvider,
  describeModelProvider,
  durableFsFromEnv,
  listPersistedSessions,
  McpManager,
  type ModelProvider,
  openSessionStorage,
  readSessionTranscript,
  resolveModelConfig,
  resolveQwenHome,
  type SessionStorage,
  SessionTranscript,
  ToolRegistry,
  TranscriptNotFoundError,
  type TranscriptRecord,
} from "@qwen-daemon/core";
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
  const storage = givenStorage ?? openSessionStorage(qwenHome, durableFsFromEnv(env));
  const provider =
    given ??
    createModelProvider(resolveModelConfig({ env, qwenHome }), {
      openai: { onRetry: (notice) => log.warn(`model request retry: ${JSON.stringify(notice)}`) },
    });
  log.info(`model: ${describeModelProvider(provider)}`);
  // Describing calls for replay needs only the tools' describe(); one registry serves every session.
  const describer = new ToolRegistry(sessionTools());
  const warmUp = firstSessionWarmUp(provider, log);

  const open = async (args: OpenSessionArgs, load?: LoadArgs): Promise<RuntimeSession> => {
    const config = new Config({
      restoreAskUserQuestion: options.restoreAskUserQuestion,
      restorePendingApprovals: options.restorePendingApprovals,
      approvalMode: args.approvalMode,
      experimentalLsp: options.experimentalLsp,
    });
    const tools = new ToolRegistry(sessionTools(args.backends));
    const mcp = await connectMcp(args, tools, log);
    const sessionOptions: AgentSessionOptions = {
      sessionId: args.sessionId,
      cwd: args.cwd,
      storage,
      provider,
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
            suppressRestore: load.suppressRestore,
            ...(load.suppressApprovalRestore === true ? { suppressApprovalRestore: true } : {}),
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
      dispose: () => {
        disposed ??= Promise.all([agent.close(), mcp?.close()]).then(() => undefined);
        return disposed;
      },
    };
  };

  return {
    storage,
    createSession: (args) => open(args),
    loadSession: (args) =>
      open(args, {
        suppressRestore: args.suppressRestore,
        givenAnswers: args.givenAnswers,
        ...(args.suppressApprovalRestore === true ? { suppressApprovalRestore: true } : {}),
      }),
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
    describeCall(_cwd, name, args) {
      // No ctx on purpose: a replayed edit must not be diffed against today's file content.
      return describer.get(name)?.describe(args) ?? fallbackDescription(name, args);
    },
    async close() {},
  };
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
