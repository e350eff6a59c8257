import { appendFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "vitest";
import { describeSessionStorageContract } from "../../testing/storage-contract.js";
import type { SessionLogKind } from "../session-storage.js";
import { jsonlSessionStorage } from "./jsonl-storage.js";
import { answersPath, ledgerPath, namesPath, promptsPath, transcriptPath } from "./paths.js";

const PATH_OF: Record<SessionLogKind, typeof transcriptPath> = {
  transcript: transcriptPath,
  ledger: ledgerPath,
  answers: answersPath,
  prompts: promptsPath,
  names: namesPath,
};

describeSessionStorageContract(
  "JSONL files",
  async () => {
    const root = await mkdtemp(join(tmpdir(), "jsonl-storage-"));
    let syncs = 0;
    return {
      storage: jsonlSessionStorage(root, { onSync: () => syncs++ }),
      syncs: () => syncs,
      async damage(key, kind, how) {
        const path = PATH_OF[kind](root, key.cwd, key.sessionId);
        await mkdir(dirname(path), { recursive: true });
        await appendFile(path, how === "torn" ? '{"n": 7, "text": "cut sh' : "not json at all\n");
      },
      dispose: () => rm(root, { recursive: true, force: true }),
    };
  },
  { describe, it },
);
