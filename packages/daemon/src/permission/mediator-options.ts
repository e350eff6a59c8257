// How a PermissionMediator is configured, and how it publishes its events.
import type { DaemonEventData, DaemonEventType } from "@qwen-daemon/core/protocol";
import type { Clock } from "../events/clock.js";
import type { DaemonEventExtra } from "../events/daemon-event.js";
import type { PermissionPolicy } from "./policy.js";

/** How the mediator publishes on a session's event bus (`bus.emit` fits), typed by the contract's events. */
export type PermissionEmit = <T extends DaemonEventType>(
  sessionId: string,
  type: T,
  data: DaemonEventData<T>,
  extra?: DaemonEventExtra,
) => void;

export type PermissionMediatorOptions = {
  policy?: PermissionPolicy;
  /** Consensus quorum override; capped at the electorate size per request. */
  consensusQuorum?: number;
  /** `--permission-response-timeout-ms`; 0 (default) waits forever. */
  timeoutMs?: number;
  clock?: Clock;
  /** How many resolved ids are remembered for "already resolved" answers. */
  resolvedCapacity?: number;
  auditCapacity?: number;
  emit: PermissionEmit;
  /** Where a throwing `emit` is reported (resolution goes on regardless); default console.error. */
  reportError?: (error: unknown, context: string) => void;
};
