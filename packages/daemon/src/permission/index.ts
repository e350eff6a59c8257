export type { ForbiddenReason } from "@qwen-daemon/core/protocol";
export {
  PermissionOption,
  PermissionOptionKind,
  PermissionVoteBody,
  VoteAnswers,
  VoteOutcome,
} from "@qwen-daemon/core/protocol";
export type { Clock } from "../events/clock.js";
export type { AuditEntry, AuditKind } from "./audit-log.js";
export { DEFAULT_AUDIT_CAPACITY, PermissionAuditLog } from "./audit-log.js";
export type { ConsensusProgress } from "./consensus.js";
export { ConsensusTally, consensusQuorum } from "./consensus.js";
export { isLoopbackAddress } from "./loopback-address.js";
export type {
  PendingPermission,
  PermissionEmit,
  PermissionMediatorOptions,
  PermissionRequest,
  PermissionVote,
  VoteCheck,
  VoteResult,
} from "./mediator.js";
export {
  ANSWER_JOURNAL_SOURCE,
  DuplicatePermissionRequestError,
  PermissionMediator,
} from "./mediator.js";
export { DEFAULT_PERMISSION_POLICY } from "./policies.js";
export { PermissionPolicy } from "./policy.js";
export type { ResolvedRequest } from "./resolved-requests.js";
export { DEFAULT_RESOLVED_CAPACITY, ResolvedRequests } from "./resolved-requests.js";
export type { CancelReason, PermissionDecision } from "./vote.js";
