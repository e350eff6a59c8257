// GET /daemon/status: diagnostics for operators (pid, uptime, startup timings, sessions, children, memory).
import type { DaemonStatusResponse } from "@qwen-daemon/core/protocol";
import type { BudgetSnapshot } from "../http/byte-budget.js";
import type { SessionService } from "../sessions/session-service.js";

export type StartupTimings = Record<string, number>;

export function daemonStatus(
  service: SessionService,
  info: { startedAt: number; now: number; startup: StartupTimings; requestBodies?: BudgetSnapshot },
): DaemonStatusResponse {
  const memory = process.memoryUsage();
  return {
    v: 1,
    pid: process.pid,
    node: process.version,
    startedAt: new Date(info.startedAt).toISOString(),
    uptimeMs: Math.max(0, info.now - info.startedAt),
    startup: info.startup,
    workspaceCwd: service.workspace,
    sessions: {
      live: service.registry.liveCount,
      limit: service.limits.maxSessions,
      ids: service.registry.live().map((s) => s.sessionId),
    },
    permissions: { policy: service.mediator.policy, pending: service.mediator.pendingCount },
    answerJournal: service.journalHealth.snapshot(),
    ...(info.requestBodies !== undefined ? { requestBodies: info.requestBodies } : {}),
    children: { spawned: service.children.spawnCount, running: service.children.describe() },
    memory: {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
    },
  };
}
