// The child's extension methods (loadUpdates, sessionContinue), answered under qwen's name and the spec's
// `_` name (agent.ts registers both). Both read a session without changing it.
import { RequestError } from "@agentclientprotocol/sdk";
import { isValidSessionId } from "@qwen-daemon/core";
import {
  type LoadUpdatesParams,
  RESTORE_KIND_NAMES,
  type SessionContinueParams,
} from "@qwen-daemon/core/protocol";
import type { Logger } from "./logger.js";
import { replayUpdates } from "./replay.js";
import { continueDecision } from "./restore.js";
import type { AgentRuntime } from "./runtime.js";
import { requireAbsolute } from "./session-listing.js";
import type { AcpSessions } from "./sessions.js";

export interface ExtensionHandlerDeps {
  runtime: AgentRuntime;
  log: Logger;
  /** Workspace for a loadUpdates that names none. */
  defaultCwd: string;
  sessions: AcpSessions;
}

export function extensionHandlers({ runtime, log, defaultCwd, sessions }: ExtensionHandlerDeps) {
  const describe = (cwd: string) => sessions.describe(cwd);
  // Read-only: never re-hangs, so no skip ids; a running turn's calls are left open, not failed.
  const loadUpdates = async (params: LoadUpdatesParams) => {
    const live = await sessions.settled(params.sessionId);
    if (live) {
      const records = live.agent.records();
      return {
        updates: replayUpdates(records, {
          finalizeDangling: !live.promptActive,
          describe: describe(live.cwd),
        }),
      };
    }
    if (!isValidSessionId(params.sessionId)) {
      throw RequestError.invalidParams({ sessionId: params.sessionId }, "Invalid session id");
    }
    const cwd = params.cwd ?? defaultCwd;
    requireAbsolute(cwd);
    const records = await runtime.readRecords(cwd, params.sessionId);
    if (!records) return { updates: [] };
    return { updates: replayUpdates(records, { finalizeDangling: true, describe: describe(cwd) }) };
  };

  const sessionContinue = async (params: SessionContinueParams) => {
    const session = await sessions.settled(params.sessionId);
    if (!session) throw RequestError.sessionNotFound(params.sessionId);
    const decision = continueDecision({
      restoreSwitch: RESTORE_KIND_NAMES.some((kind) => sessions.switches[kind]),
      // A restore (question or approvals) would ask the session's trailing calls again: continue refuses.
      restorable: () => sessions.restorable(session),
      promptActive: session.promptActive,
      records: session.agent.records(),
    });
    log.info(
      `continue ${params.sessionId}: accepted=${decision.accepted} interruption=${decision.interruption}`,
    );
    return decision;
  };

  return { loadUpdates, sessionContinue };
}
