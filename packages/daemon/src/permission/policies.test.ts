import { describe, expect, it } from "vitest";
import type { PendingEntry } from "./pending-request.js";
import { policyRefusal } from "./policies.js";
import type { PermissionPolicy } from "./policy.js";

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
    // A name the policy table has no entry for (the typed options cannot produce one; a policy entry without
    // a rule does not compile): the run-time answer is a refusal all the same.
    const unknownPolicy = "newly-added" as unknown as PermissionPolicy;
    expect(policyRefusal(entry(unknownPolicy), { ...vote, clientId: "a", remoteAddress: "127.0.0.1" })).toBe(
      "designated_mismatch",
    );
  });
});
