// Whether a request's policy lets this voter answer it: the reason it does not, or undefined. Fails closed:
// a policy without a case here refuses every vote, and the `never` below makes the compiler reject it first.

import { isLoopbackAddress } from "./loopback.js";
import type { PendingEntry } from "./pending-request.js";
import type { ForbiddenReason } from "./policy.js";
import type { PermissionVote } from "./vote-result.js";

export function policyRefusal(entry: PendingEntry, v: PermissionVote): ForbiddenReason | undefined {
  switch (entry.policy) {
    case "first-responder":
      return undefined;
    case "designated":
      // A request with no known originator (e.g. raised outside any client's prompt) has
      // nobody to designate; it falls back to first-responder rather than being unanswerable.
      if (entry.originatorClientId === undefined) return undefined;
      return v.clientId === entry.originatorClientId ? undefined : "designated_mismatch";
    case "consensus":
      // Outside the frozen electorate (or anonymous): same reason the reference uses.
      if (entry.tally === undefined) return undefined;
      return entry.tally.mayVote(v.clientId) ? undefined : "designated_mismatch";
    case "local-only":
      return isLoopbackAddress(v.remoteAddress) ? undefined : "remote_not_allowed";
    default: {
      // A new PermissionPolicy value without a case above does not compile here.
      const unhandled: never = entry.policy;
      void unhandled;
      // Of the two reasons clients know, the one that says "not you": nobody may answer under a policy
      // this code cannot judge.
      return "designated_mismatch";
    }
  }
}
