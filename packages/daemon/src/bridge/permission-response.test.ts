import { describe, expect, it } from "vitest";
import { toAcpPermissionResponse } from "./permission-response.js";

describe("toAcpPermissionResponse", () => {
  it("puts answers top-level beside outcome", () => {
    expect(
      toAcpPermissionResponse({
        outcome: { outcome: "selected", optionId: "proceed_once" },
        answers: { "0": "Blue" },
      }),
    ).toEqual({ outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } });
    expect(toAcpPermissionResponse({ outcome: { outcome: "selected", optionId: "cancel" } })).toEqual({
      outcome: { outcome: "selected", optionId: "cancel" },
    });
  });

  it("a user's cancel is a plain decline; other cancels carry their reason", () => {
    expect(toAcpPermissionResponse({ outcome: { outcome: "cancelled" }, reason: "user" })).toEqual({
      outcome: { outcome: "cancelled" },
    });
    for (const reason of ["timeout", "session_closed", "agent_cancelled"] as const) {
      expect(toAcpPermissionResponse({ outcome: { outcome: "cancelled" }, reason })).toEqual({
        outcome: { outcome: "cancelled" },
        _meta: { "qwen.daemon.permissionCancelReason": reason },
      });
    }
  });
});
