// GET /daemon/status: diagnostics for operators (pid, uptime, startup timings, sessions, children, memory).
import type { DaemonStatusResponse } from "@qwen-daemon/core/protocol";
import type { BufferBudgetSnapshot } from "../budget/buffer-budget.js";
import type { BudgetSnapshot } from "../http/byte-budget.js";
import type { Sessions } from "../sessions/sessions.js";

export type StartupTimings = Record<string, number>;

export function daemonStatus(
  sessions: Sessions,
  info: {
    startedAt: number;
    now: number;
    startup: StartupTimings;
    requestBodies?: BudgetSnapshot;
    buffers?: BufferBudgetSnapshot;
  },
): DaemonStatusResponse {
  const memory = process.memoryUsage();
  return {
    v: 1,
    pid: process.pid,
    node: process.version,
    startedAt: new Date(info.startedAt).toISOString(),
    uptimeMs: Math.max(0, info.now - info.startedAt),
    startup: info.startup,
    workspaceCwd: sessions.workspace,
    ...(sessions.options.storageDescription !== undefined
      ? { storage: sessions.options.storageDescription }
      : {}),
    sessions: {
      live: sessions.registry.liveCount,
      limit: sessions.limits.maxSessions,
      ids: sessions.registry.live().map((s) => s.sessionId),
    },
    permissions: { policy: sessions.mediator.policy, pending: sessions.mediator.pendingCount },
    answerJournal: sessions.journalHealth.snapshot(),
    ...(info.requestBodies !== undefined ? { requestBodies: info.requestBodies } : {}),
    ...(info.buffers !== undefined ? { buffers: info.buffers } : {}),
    children: { spawned: sessions.children.spawnCount, running: sessions.children.describe() },
    memory: {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
    },
  };
}
