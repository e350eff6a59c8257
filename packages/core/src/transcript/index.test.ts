import { describe, expect, it } from "vitest";
import * as transcript from "./index.js";

describe("transcript public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(transcript).sort()).toEqual(
      [
        "AssistantRecord",
        "DAEMON_LOST",
        "DISPLAY_NAME_MAX_CHARS",
        "LedgerEntry",
        "PromptLedger",
        "SESSION_CREATED_SUBTYPE",
        "SessionTranscript",
        "SystemRecord",
        "TOOL_STARTED_SUBTYPE",
        "TURN_RESULT_SUBTYPE",
        "ToolStartApproval",
        "ToolStartedData",
        "ToolStartedRecord",
        "ToolCallResult",
        "ToolResultRecord",
        "TranscriptNotFoundError",
        "TranscriptRecord",
        "UNKNOWN_TRANSCRIPT_VERSION",
        "UsageMetadata",
        "UserRecord",
        "activeBranch",
        "decodeLedgerEntry",
        "decodeTranscriptRecord",
        "displayNameOf",
        "findPersistedSession",
        "historyFromRecords",
        "listPersistedSessions",
        "openPromptIds",
        "readSessionTranscript",
        "readSessionTranscriptTail",
        "readTranscript",
        "readTranscriptTail",
        "transcriptLog",
        "readSessionTrailingTurn",
        "TrailingTurnCollector",
        "TRAILING_TURN_MAX_RECORDS",
      ].sort(),
    );
  });
});
