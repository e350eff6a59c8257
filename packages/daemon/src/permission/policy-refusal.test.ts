import { describe, expect, it } from "vitest";
import type { PendingEntry } from "./pending-request.js";
import type { PermissionPolicy } from "./policy.js";
import { policyRefusal } from "./policy-refusal.js";

function entry(policy: PermissionPolicy, extra: Partial<PendingEntry> = {}): PendingEntry {
  return {
    requestId: "r",
    sessionId: "s",
    toolCall: { toolCallId: "t" },
    options: [],
    createdAt: 0,
    policy,
    optionIds: new Set(),
    settle: () => {},
    ...extra,
  };
}

const vote = { requestId: "r", outcome: { outcome: "cancelled" as const } };

describe("policyRefusal", () => {
  it("judges each policy it knows", () => {
    expect(policyRefusal(entry("first-responder"), vote)).toBeUndefined();
    expect(policyRefusal(entry("designated", { originatorClientId: "a" }), { ...vote, clientId: "b" })).toBe(
      "designated_mismatch",
    );
    expect(policyRefusal(entry("designated", { originatorClientId: "a" }), { ...vote, clientId: "a" })).toBe(
      undefined,
    );
    expect(policyRefusal(entry("local-only"), { ...vote, remoteAddress: "10.0.0.2" })).toBe(
      "remote_not_allowed",
    );
    expect(policyRefusal(entry("local-only"), { ...vote, remoteAddress: "127.0.0.1" })).toBeUndefined();
  });

  it("fails closed for a policy it has no case for (a vote is never let through by omission)", () => {
    // What a policy added to PermissionPolicy without a case here would look like at run time; the
    // compiler refuses such a policy (the switch's `never` default), this checks the run-time answer too.
    const unknownPolicy = "newly-added" as unknown as PermissionPolicy;
    expect(policyRefusal(entry(unknownPolicy), { ...vote, clientId: "a", remoteAddress: "127.0.0.1" })).toBe(
      "designated_mismatch",
    );
  });
});
