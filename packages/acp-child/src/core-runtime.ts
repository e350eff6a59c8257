// Production wiring of core for this child: the model provider from env/settings (QWEN_HOME), one Config
// and tool registry per session (a suppressed restore changes only that session's Config), transcripts
// under QWEN_HOME. This is the only file that constructs core objects.
import { access } from "node:fs/promises";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import {
  AgentSession,
  type AgentSessionOptions,
  Config,
  createAskUserQuestionTool,
  createBuiltinTools,
  createModelProvider,
  describeModelProvider,
  listPersistedSessions,
  type ModelProvider,
  readTranscript,
  resolveModelConfig,
  resolveQwenHome,
  ToolRegistry,
  TranscriptNotFoundError,
  type TranscriptRecord,
  transcriptPath,
} from "@qwen-daemon/core";
import type { Logger } from "./logger.js";
import type { AcpChildOptions } from "./options.js";
import { fallbackDescription } from "./replay.js";
import type { AgentRuntime, OpenSessionArgs, RuntimeSession } from "./runtime.js";

export interface CoreRuntimeOptions {
  env: Readonly<Record<string, string | undefined>>;
  options: AcpChildOptions;
  log: Logger;
  /** Replaces the provider resolved from env/settings. */
  provider?: ModelProvider;
}

export function createCoreRuntime({ env, options, log, provider: given }: CoreRuntimeOptions): AgentRuntime {
  const qwenHome = resolveQwenHome(env as NodeJS.ProcessEnv);
  const provider =
    given ??
    createModelProvider(resolveModelConfig({ env, qwenHome }), {
      openai: { onRetry: (notice) => log.warn(`model request retry: ${JSON.stringify(notice)}`) },
    });
  log.info(`model: ${describeModelProvider(provider)}`);
  // Describing calls for replay needs only the tools' describe(); one registry serves every session.
  const describer = new ToolRegistry(sessionTools());

  const open = async (args: OpenSessionArgs, load?: { suppressRestore: boolean }): Promise<RuntimeSession> => {
    const config = new Config({
      restoreAskUserQuestion: options.restoreAskUserQuestion,
      approvalMode: args.approvalMode,
      experimentalLsp: options.experimentalLsp,
    });
    if (args.mcpServers.length > 0) {
      // TODO(mcp): connect these through core's MCP manager once it lands; until then they are not offered.
      log.warn(`session ${args.sessionId}: ${args.mcpServers.length} MCP server(s) requested; MCP is not wired yet`);
    }
    const sessionOptions: AgentSessionOptions = {
      sessionId: args.sessionId,
      cwd: args.cwd,
      qwenHome,
      provider,
      config,
      tools: new ToolRegistry(sessionTools()),
      onEvent: args.hooks.onEvent,
      confirm: args.hooks.confirm,
    };
    const agent = load
      ? await AgentSession.load({ ...sessionOptions, suppressRestore: load.suppressRestore })
      : await AgentSession.create(sessionOptions);
    let disposed: Promise<void> | undefined;
    return {
      agent,
      setApprovalMode: (mode) => {
        config.approvalMode = mode;
      },
      dispose: () => {
        disposed ??= agent.close();
        return disposed;
      },
    };
  };

  return {
    qwenHome,
    createSession: (args) => open(args),
    loadSession: (args) => open(args, { suppressRestore: args.suppressRestore }),
    async sessionExists(cwd, sessionId) {
      try {
        await access(transcriptPath(qwenHome, cwd, sessionId));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
    },
    async readRecords(cwd, sessionId): Promise<TranscriptRecord[] | undefined> {
      try {
        return (await readTranscript(transcriptPath(qwenHome, cwd, sessionId))).records;
      } catch (error) {
        if (error instanceof TranscriptNotFoundError) return undefined;
        throw error;
      }
    },
    async listSessions(cwd): Promise<SessionInfo[]> {
      const persisted = await listPersistedSessions(qwenHome, cwd);
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

/** An ACP client can collect answers, so ask_user_question is always offered here. */
function sessionTools() {
  return createBuiltinTools({ includeAskUserQuestion: true, askUserQuestionTool: createAskUserQuestionTool() });
}

