// Who may answer a permission request (`--permission-policy`), as data: one object per policy with its help
// line, its rule and, for a policy that counts votes, the state it keeps per request (the consensus tally).
// This table is the one list of policies: the daemon's option schema takes its zod enum from it, `qwen serve`
// its choices and help. A policy without a rule does not compile, and a name with no entry (impossible through
// the typed options, but judged anyway) refuses every vote: never an allow by omission.
//
// Imports stay light (no zod): the cli's fast path reads this table through option-specs.ts before the socket
// is bound. To add a policy: one entry here; the mediator, the options and the cli follow.
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import { ConsensusTally } from "./consensus.js";
import { isLoopbackAddress } from "./loopback-address.js";
import type { PermissionVote } from "./vote.js";

/** What a rule sees of a waiting request: who caused it, and the tally of a counting policy. */
export type PolicyRequest = { originatorClientId?: string | undefined; tally?: ConsensusTally | undefined };

/** Who is voting: the registered client id and the socket's remote address (never a header). */
export type PolicyVoter = {
  clientId?: string | undefined;
  remoteAddress?: string | undefined;
  /**
   * A link answer from a notification (docs/notifications.md): never a registered client and never local,
   * whatever socket it came on (a reverse proxy puts it on loopback). `allowed`: `--allow-link-answers`.
   */
  link?: { allowed: boolean } | undefined;
};

export interface PermissionPolicyDefinition {
  /** One line for `qwen serve --help`. */
  readonly help: string;
  /** Why `voter` may not answer `request` under this policy, or undefined when it may. */
  refusal(request: PolicyRequest, voter: PolicyVoter): ForbiddenReason | undefined;
  /** Why a link answer is refused under this policy unless `--allow-link-answers`; undefined: links may answer. */
  readonly linkRefusal?: ForbiddenReason;
  /**
   * The state a counting policy keeps for one request, made when the request is registered from the clients
   * attached then. Undefined: every accepted vote decides at once.
   */
  tally?(electorate: readonly string[], configuredQuorum: number | undefined): ConsensusTally | undefined;
}

export const PERMISSION_POLICY_TABLE = {
  "first-responder": {
    help: "the first valid vote from any client wins",
    refusal: () => undefined,
  },
  designated: {
    help: "only the client whose prompt caused the request",
    // A request with no known originator (e.g. raised outside any client's prompt) has nobody to
    // designate; it falls back to first-responder rather than being unanswerable.
    refusal: (request, voter) =>
      request.originatorClientId === undefined || voter.clientId === request.originatorClientId
        ? undefined
        : "designated_mismatch",
    linkRefusal: "designated_mismatch",
  },
  consensus: {
    help: "a quorum of the clients attached when the request was made",
    // Outside the frozen electorate (or anonymous): the reason the reference uses.
    refusal: (request, voter) =>
      request.tally === undefined || request.tally.mayVote(voter.clientId)
        ? undefined
        : "designated_mismatch",
    linkRefusal: "designated_mismatch",
    // An empty electorate (nobody attached at issue time) could never reach a quorum; such a request is
    // answered first-responder instead of hanging until timeout or cancel.
    tally: (electorate, quorum) =>
      electorate.length > 0 ? new ConsensusTally(electorate, quorum) : undefined,
  },
  "local-only": {
    help: "only votes arriving over a loopback socket",
    refusal: (_request, voter) => (isLoopbackAddress(voter.remoteAddress) ? undefined : "remote_not_allowed"),
    linkRefusal: "remote_not_allowed",
  },
} as const satisfies Record<string, PermissionPolicyDefinition>;

export type PermissionPolicyName = keyof typeof PERMISSION_POLICY_TABLE;

/** The policy names, in help order. */
export const PERMISSION_POLICIES = Object.keys(PERMISSION_POLICY_TABLE) as [
  PermissionPolicyName,
  ...PermissionPolicyName[],
];

export const DEFAULT_PERMISSION_POLICY: PermissionPolicyName = "first-responder";

/** Every policy's help line, by name (for the cli's `--permission-policy` help). */
export const PERMISSION_POLICY_HELP: Readonly<Record<PermissionPolicyName, string>> = Object.fromEntries(
  PERMISSION_POLICIES.map((name) => [name, PERMISSION_POLICY_TABLE[name].help]),
) as Record<PermissionPolicyName, string>;

/** The policy of that name, or undefined for a name that is none. */
export function permissionPolicy(name: string): PermissionPolicyDefinition | undefined {
  return Object.hasOwn(PERMISSION_POLICY_TABLE, name)
    ? PERMISSION_POLICY_TABLE[name as PermissionPolicyName]
    : undefined;
}

/**
 * Whether a request's policy lets this voter answer it: the reason it does not, or undefined. Fails closed: a
 * policy name with no entry refuses with the reason that says "not you" (of the two reasons clients know).
 */
export function policyRefusal(
  request: PolicyRequest & { policy: string },
  voter: PermissionVote,
): ForbiddenReason | undefined {
  const definition = permissionPolicy(request.policy);
  if (definition === undefined) return "designated_mismatch";
  if (voter.link !== undefined) return linkAnswerRefusal(request.policy, voter.link.allowed);
  return definition.refusal(request, voter);
}

/**
 * Why a link answer is refused under `policy`, or undefined when it may answer: it depends on the policy and
 * `--allow-link-answers` alone, so it can be judged before a question is asked again after a restart.
 */
export function linkAnswerRefusal(policy: string, allowed: boolean): ForbiddenReason | undefined {
  const definition = permissionPolicy(policy);
  if (definition === undefined) return "designated_mismatch";
  if (allowed) return undefined;
  return "linkRefusal" in definition ? definition.linkRefusal : undefined;
}
