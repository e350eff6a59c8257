// A permission request as the mediator holds it while it waits: what the agent asked (`PermissionRequest`),
// what callers may see of it (`PendingPermission`), and the mediator's own bookkeeping around it.
import type {
  OfferedPermissionOption,
  PermissionRequestData,
  PermissionToolCall,
} from "@qwen-daemon/core/protocol";
import type { TimerHandle } from "../events/clock.js";
import type { ConsensusTally } from "./consensus.js";
import type { PermissionPolicy } from "./policy.js";
import type { PermissionDecision } from "./vote.js";

export type PermissionRequest = {
  sessionId: string;
  /** Must be unique among the daemon's pending requests (the bridge mints uuids). */
  requestId: string;
  toolCall: PermissionToolCall;
  /** Relayed to clients exactly as the child offered them. */
  options: readonly OfferedPermissionOption[];
  /** Client whose prompt led to the request: the only voter under `designated`. */
  originatorClientId?: string;
  promptId?: string;
  /** Clients attached to the session now: the electorate under `consensus`. */
  attachedClientIds: readonly string[];
  createdAt?: number;
};

export type PendingPermission = {
  requestId: string;
  sessionId: string;
  toolCall: PermissionToolCall;
  options: readonly OfferedPermissionOption[];
  createdAt: number;
  originatorClientId?: string;
  promptId?: string;
  policy: PermissionPolicy;
};

/** The mediator's record of a waiting request. */
export type PendingEntry = PendingPermission & {
  optionIds: ReadonlySet<string>;
  /** Present under `consensus` with a non-empty electorate. */
  tally?: ConsensusTally;
  timer?: TimerHandle;
  settle: (decision: PermissionDecision) => void;
};

export class DuplicatePermissionRequestError extends Error {
  constructor(sessionId: string, requestId: string) {
    super(`Permission request ${requestId} is already pending on session ${sessionId}`);
    this.name = "DuplicatePermissionRequestError";
  }
}

/** The `data` of a `permission_request` event. */
export function permissionRequestData(entry: PendingEntry): PermissionRequestData {
  return {
    requestId: entry.requestId,
    sessionId: entry.sessionId,
    toolCall: entry.toolCall,
    options: [...entry.options],
  };
}

export function publicView(entry: PendingEntry): PendingPermission {
  return {
    requestId: entry.requestId,
    sessionId: entry.sessionId,
    toolCall: entry.toolCall,
    options: entry.options,
    createdAt: entry.createdAt,
    ...(entry.originatorClientId !== undefined ? { originatorClientId: entry.originatorClientId } : {}),
    ...(entry.promptId !== undefined ? { promptId: entry.promptId } : {}),
    policy: entry.policy,
  };
}
