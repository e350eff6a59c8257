import { describe, expect, it } from "vitest";
import * as protocol from "./index.js";

describe("@qwen-daemon/core/protocol", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(protocol).sort()).toMatchInlineSnapshot(`
      [
        "ASK_USER_QUESTION_TOOL",
        "AttachResponse",
        "CLIENT_DEVICE_HEADER",
        "CLIENT_ID_HEADER",
        "CONTINUE_LAST_TURN_META_KEY",
        "CapabilitiesResponse",
        "ContinueDecision",
        "ContinueResponse",
        "CreateSessionBody",
        "DAEMON_META_PREFIX",
        "DRAINED_MID_TURN_QUEUE",
        "DRAIN_MID_TURN_QUEUE_METHOD",
        "DaemonEventType",
        "DaemonEvents",
        "DaemonStatusResponse",
        "EVENT_EPOCH_HEADER",
        "EVENT_SCHEMA_VERSION",
        "EXTERNAL_TOOL_GUARD_PREPARE_METHOD",
        "EXTERNAL_TOOL_GUARD_READY_META_KEY",
        "EXTERNAL_TOOL_GUARD_REQUIRED",
        "EmptyResponse",
        "ErrorBody",
        "ExtensionMethod",
        "ForbiddenReason",
        "HealthResponse",
        "HeartbeatResponse",
        "HttpRouteLines",
        "HttpRoutes",
        "INTERACTION_KIND_META_KEY",
        "INVOCATION_META_KEY",
        "InteractionOption",
        "JOURNALED_ANSWERS_META_KEY",
        "LAST_EVENT_ID_HEADER",
        "LINK_PATH_PREFIX",
        "LinkCapability",
        "LinkDecision",
        "LoadUpdatesParams",
        "MAX_CAPABILITY_LENGTH",
        "MAX_CLIENT_ID_LENGTH",
        "NotifyAction",
        "OfferedPermissionOption",
        "OpenSessionBody",
        "OpenSessionResponse",
        "PERMISSION_CANCEL_REASON_META_KEY",
        "PRIVATE_PARENT_CAPABILITY_META_KEY",
        "PROMPT_BLOCK_TYPES",
        "PROMPT_ID_META_KEY",
        "PendingInteraction",
        "PendingOnDiskKind",
        "PendingPrompt",
        "PendingPromptsResponse",
        "PermissionCancelReason",
        "PermissionInteraction",
        "PermissionOption",
        "PermissionOptionKind",
        "PermissionRequestData",
        "PermissionRequestParams",
        "PermissionResponse",
        "PermissionToolCall",
        "PermissionVoteBody",
        "PromptAccepted",
        "PromptBody",
        "PromptContentBlock",
        "PromptTerminal",
        "PromptTerminalState",
        "QUESTIONS_META_KEY",
        "QUESTION_ANSWERS_CAPABILITY_META_KEY",
        "REQUESTED_SESSION_ID_META_KEY",
        "RESTORE_ASK_USER_QUESTION_META_KEY",
        "RESTORE_FLAGS",
        "RESTORE_KINDS",
        "RESTORE_KIND_NAMES",
        "RESTORE_PENDING_APPROVALS_META_KEY",
        "RESTORE_PROMPT_CAPABILITY_META_KEY",
        "RenameSessionBody",
        "RenameSessionResponse",
        "ReplayedEvent",
        "RestoreKinds",
        "RestoreReport",
        "SESSION_USAGE_META_KEY",
        "SSE_STREAM_ID_HEADER",
        "STREAM_CONTROL_EVENT_TYPES",
        "SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY",
        "SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY",
        "SessionConfigOption",
        "SessionContinueParams",
        "SessionListPage",
        "SessionSummary",
        "SessionUpdateParams",
        "SessionUpdatePayload",
        "SetConfigBody",
        "SetConfigResponse",
        "SpecExtensionMethod",
        "TOOL_NAME_META_KEY",
        "TranscriptResponse",
        "TurnError",
        "TurnInterruption",
        "USER_MESSAGE_ID_META_KEY",
        "USER_MESSAGE_ID_RESPONSE_META_KEY",
        "USER_QUESTION_INTERACTION",
        "UserQuestionInteraction",
        "VoteAnswers",
        "VoteOutcome",
        "cancelReasonOf",
        "cancelledPermissionResponse",
        "daemonPromptId",
        "defineEvent",
        "effectiveRestoreSwitches",
        "eventDefinition",
        "isDaemonEventType",
        "isQuestionToolCall",
        "isValidSessionId",
        "isWellFormedClientId",
        "kindSwitchesOf",
        "metaFlag",
        "metaString",
        "pickRestoreSwitches",
        "restoreFlagArgs",
        "restoreKindCovering",
        "restoreSwitchesFromArgv",
        "routeOf",
        "routePath",
        "stripBlockMeta",
        "stripDaemonMeta",
        "toolCallMeta",
        "toolCallQuestions",
      ]
    `);
  });

  it("defines each event type once, the stream-control ones marked (the list: daemon events/index.test.ts)", () => {
    const types = Object.values(protocol.DaemonEvents).map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...protocol.STREAM_CONTROL_EVENT_TYPES].sort()).toEqual([
      "client_evicted",
      "replay_complete",
      "state_resync_required",
    ]);
    expect(protocol.DaemonEventType.turnComplete).toBe("turn_complete");
    expect(protocol.eventDefinition("nope")).toBeUndefined();
  });

  it("checks an event's data against its definition", () => {
    const turn = protocol.DaemonEvents.turnComplete.schema;
    expect(turn.safeParse({ sessionId: "s", promptId: "p", stopReason: "end_turn" }).success).toBe(true);
    expect(turn.safeParse({ sessionId: "s", promptId: "p" }).success).toBe(false);
  });

  it("finds the route of a request by method and path, parameters as one segment each", () => {
    const { HttpRoutes, routeOf } = protocol;
    expect(routeOf("POST", "/session")).toBe(HttpRoutes.createSession);
    expect(routeOf("POST", "/session/s-1/load")).toBe(HttpRoutes.loadSession);
    expect(routeOf("DELETE", "/session/s-1")).toBe(HttpRoutes.closeSession);
    expect(routeOf("GET", "/session/s-1/transcript?limit=3")).toBe(HttpRoutes.transcript);
    expect(routeOf("POST", "/session/s-1/permission/r-1")).toBe(HttpRoutes.vote);
    expect(routeOf("GET", "/session//status")).toBeUndefined();
    expect(routeOf("PUT", "/session")).toBeUndefined();
  });

  it("validates a prompt body: a non-empty array of known blocks, a positive integer deadline", () => {
    const { PromptBody } = protocol;
    expect(PromptBody.safeParse({ prompt: [{ type: "text", text: "hi" }], deadlineMs: 5 }).success).toBe(
      true,
    );
    expect(PromptBody.safeParse({ prompt: [{ type: "text", text: "hi" }], deadlineMs: null }).success).toBe(
      true,
    );
    expect(PromptBody.safeParse({ prompt: [] }).success).toBe(false);
    expect(PromptBody.safeParse({ prompt: [{ type: "video" }] }).success).toBe(false);
    expect(PromptBody.safeParse({ prompt: [{ type: "text", text: "hi" }], deadlineMs: 0 }).success).toBe(
      false,
    );
    expect(
      PromptBody.safeParse({ prompt: [{ type: "text", text: "hi" }], deadlineMs: 2 ** 60 }).success,
    ).toBe(false);
  });
});
