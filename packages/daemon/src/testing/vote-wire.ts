// A mediator's vote result as the vote routes answer it (status from the HTTP edge's code table, body), so
// the mediator's tests can state what a voter is told.
import { statusOf } from "../http/error-statuses.js";
import type { VoteResult } from "../permission/mediator.js";

export type VoteOnTheWire = { status: number; kind: VoteResult["kind"]; body: Record<string, unknown> };

export function wire(result: VoteResult): VoteOnTheWire {
  if ("error" in result)
    return { status: statusOf(result.error), kind: result.kind, body: result.error.body };
  return { status: 200, kind: result.kind, body: {} };
}
