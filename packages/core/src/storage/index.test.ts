import { describe, expect, it } from "vitest";
import * as storage from "./index.js";

describe("storage public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(storage).sort()).toEqual(
      [
        "ANSWERS_SUFFIX",
        "DurableFs",
        "FS_OP_LOG_ENV",
        "FsOp",
        "durableFsFromEnv",
        "fileOpRecorder",
        "parseFsOpLog",
        "InvalidSessionIdError",
        "LEDGER_SUFFIX",
        "NAMES_SUFFIX",
        "PROMPTS_SUFFIX",
        "SessionLogNotFoundError",
        "TRANSCRIPT_SUFFIX",
        "TranscriptWriter",
        "answersPath",
        "assertValidSessionId",
        "chatsDir",
        "isValidSessionId",
        "jsonlSessionStorage",
        "ledgerPath",
        "namesPath",
        "openSessionStorage",
        "openStorage",
        "openStorageFromEnv",
        "storageEnvironment",
        "postgresSessionStorage",
        "SessionFencedError",
        "DEFAULT_SESSION_LEASE_MS",
        "InvalidStorageUrlError",
        "STORAGE_ENV",
        "absoluteStorageValue",
        "agentStorageEnv",
        "urlScheme",
        "describeStorage",
        "parseStorageUrl",
        "redactStorageSecrets",
        "redactStorageUrl",
        "projectDirName",
        "promptsPath",
        "readJsonlFile",
        "resolveQwenHome",
        "sessionIdOfFileName",
        "transcriptPath",
      ].sort(),
    );
  });
});
