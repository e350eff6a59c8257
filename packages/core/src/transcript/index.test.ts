import { describe, expect, it } from "vitest";
import * as transcript from "./index.js";

describe("transcript public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(transcript).sort()).toEqual(
      [
        "ANSWERS_SUFFIX",
        "AssistantRecord",
        "DAEMON_LOST",
        "DISPLAY_NAME_MAX_CHARS",
        "InvalidSessionIdError",
        "LEDGER_SUFFIX",
        "LedgerEntry",
        "PROMPTS_SUFFIX",
        "PromptLedger",
        "SESSION_CREATED_SUBTYPE",
        "SessionTranscript",
        "SystemRecord",
        "TOOL_STARTED_SUBTYPE",
        "TRANSCRIPT_SUFFIX",
        "ToolStartApproval",
        "ToolStartedData",
        "ToolStartedRecord",
        "ToolCallResult",
        "ToolResultRecord",
        "TranscriptNotFoundError",
        "TranscriptRecord",
        "TranscriptWriter",
        "UNKNOWN_TRANSCRIPT_VERSION",
        "UserRecord",
        "activeBranch",
        "answersPath",
        "assertValidSessionId",
        "chatsDir",
        "decodeTranscriptRecord",
        "displayNameOf",
        "historyFromRecords",
        "isValidSessionId",
        "ledgerPath",
        "listPersistedSessions",
        "openPromptIds",
        "projectDirName",
        "promptsPath",
        "readJsonlFile",
        "readTranscript",
        "readTranscriptTail",
        "resolveQwenHome",
        "sessionIdOfFileName",
        "transcriptPath",
      ].sort(),
    );
  });
});
