import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@qwen-daemon/acp-child public API", () => {
  it("lists exactly these exports", () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        "AGENT_INFO",
        "CONTINUE_LAST_TURN_META_KEY",
        "DEFAULT_ACP_CHILD_OPTIONS",
        "ElicitationResponse",
        "EXTERNAL_TOOL_GUARD_PREPARE_METHOD",
        "EXTERNAL_TOOL_GUARD_READY_META_KEY",
        "EXTERNAL_TOOL_GUARD_REQUIRED",
        "ExtensionMethod",
        "INVOCATION_META_KEY",
        "JOURNALED_ANSWERS_META_KEY",
        "LoadUpdatesParams",
        "MISSING_TOOL_RESULT_TEXT",
        "OptionId",
        "PERMISSION_CANCEL_REASON_META_KEY",
        "PRIVATE_PARENT_CAPABILITY_META_KEY",
        "PROMPT_ID_META_KEY",
        "PermissionResponse",
        "REQUESTED_SESSION_ID_META_KEY",
        "RESTORE_ASK_USER_QUESTION_META_KEY",
        "SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY",
        "SessionContinueParams",
        "SpecExtensionMethod",
        "buildPermissionRequest",
        "buildQuestionElicitation",
        "clientServicesOf",
        "createAcpAgent",
        "createCoreRuntime",
        "interpretElicitationResponse",
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
    expect(api.JOURNALED_ANSWERS_META_KEY).toBe("qwen.daemon.journaledAnswers");
    expect(api.INVOCATION_META_KEY).toBe("qwen-code/invocation");
    expect(api.REQUESTED_SESSION_ID_META_KEY).toBe("qwen-code/sessionId");
    expect(api.PRIVATE_PARENT_CAPABILITY_META_KEY).toBe("qwen-code/private-parent-capability");
    expect(api.EXTERNAL_TOOL_GUARD_READY_META_KEY).toBe("qwen-code/external-tool-guard-ready");
    expect(api.EXTERNAL_TOOL_GUARD_REQUIRED).toBe("required-v1");
    expect(api.EXTERNAL_TOOL_GUARD_PREPARE_METHOD).toBe("qwen/control/external_tool_guard/prepare");
    expect(api.ExtensionMethod).toEqual({
      loadUpdates: "qwen/session/loadUpdates",
      sessionContinue: "qwen/control/session/continue",
    });
    expect(api.SpecExtensionMethod).toEqual({
      loadUpdates: "_qwen/session/loadUpdates",
      sessionContinue: "_qwen/control/session/continue",
    });
  });
});
