import { describe, expect, it } from "vitest";
import * as permission from "./index.js";

describe("permission public API", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(permission).sort()).toEqual([
      "ANSWER_JOURNAL_SOURCE",
      "ConsensusTally",
      "DEFAULT_AUDIT_CAPACITY",
      "DEFAULT_PERMISSION_POLICY",
      "DEFAULT_RESOLVED_CAPACITY",
      "DuplicatePermissionRequestError",
      "PermissionAuditLog",
      "PermissionMediator",
      "PermissionOption",
      "PermissionOptionKind",
      "PermissionPolicy",
      "PermissionVoteBody",
      "ResolvedRequests",
      "VoteAnswers",
      "VoteOutcome",
      "consensusQuorum",
      "isLoopbackAddress",
    ]);
  });

  it("the vote body schema accepts the two shapes of docs/protocol.md and nothing else", () => {
    const ok = [
      { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "yes" } },
      { outcome: { outcome: "cancelled" } },
    ];
    for (const body of ok) expect(permission.PermissionVoteBody.safeParse(body).success).toBe(true);
    const bad = [
      { outcome: { outcome: "selected" } },
      { outcome: { outcome: "approved", optionId: "x" } },
      { outcome: "cancelled" },
      { outcome: { outcome: "selected", optionId: "x" }, answers: { "0": 1 } },
    ];
    for (const body of bad) expect(permission.PermissionVoteBody.safeParse(body).success).toBe(false);
  });
});
