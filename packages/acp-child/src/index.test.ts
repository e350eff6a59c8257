import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@qwen-daemon/acp-child public API", () => {
  it("lists exactly these exports", () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        "AGENT_INFO",
        "CONTINUE_LAST_TURN_META_KEY",
        "DEFAULT_ACP_CHILD_OPTIONS",
        "ExtensionMethod",
        "LoadUpdatesParams",
        "MISSING_TOOL_RESULT_TEXT",
        "OptionId",
        "PERMISSION_CANCEL_REASON_META_KEY",
        "PROMPT_ID_META_KEY",
        "PermissionResponse",
        "RESTORE_ASK_USER_QUESTION_META_KEY",
        "SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY",
        "SessionContinueParams",
        "buildPermissionRequest",
        "createAcpAgent",
        "createCoreRuntime",
        "interpretPermissionResponse",
        "parseAcpArgv",
        "permissionOptions",
        "replayUpdates",
        "runAcpAgent",
        "startAcpAgent",
        "stderrLogger",
      ].sort(),
    );
  });

  it("names the wire keys and methods exactly", () => {
    expect(api.RESTORE_ASK_USER_QUESTION_META_KEY).toBe("qwen.daemon.restoreAskUserQuestion");
    expect(api.SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY).toBe(
      "qwen.daemon.suppressRestoreAskUserQuestion",
    );
    expect(api.PERMISSION_CANCEL_REASON_META_KEY).toBe("qwen.daemon.permissionCancelReason");
    expect(api.CONTINUE_LAST_TURN_META_KEY).toBe("qwen.daemon.continueLastTurn");
    expect(api.ExtensionMethod).toEqual({
      loadUpdates: "qwen/session/loadUpdates",
      sessionContinue: "qwen/control/session/continue",
    });
  });
});
