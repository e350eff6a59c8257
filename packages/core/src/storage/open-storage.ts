// The one place the storage backend is chosen. The ACP child (which writes transcripts and ledgers) and the
// daemon (which writes its journals and reads what the child wrote) both open their storage here, so they
// always agree on it; a new backend is selected here and nowhere else.
import { type DurableFs, durableFsFromEnv } from "./durable-fs.js";
import { jsonlSessionStorage } from "./jsonl/jsonl-storage.js";
import type { SessionStorage } from "./session-storage.js";

/**
 * The storage under `qwenHome` (resolveQwenHome()): JSONL files, docs/protocol.md "On disk". `fs` is
 * the process's DurableFs (by default from the environment: QWEN_FS_OP_LOG records its operations).
 */
export function openSessionStorage(
  qwenHome: string,
  fs: DurableFs = durableFsFromEnv(process.env),
): SessionStorage {
  return jsonlSessionStorage(qwenHome, { fs });
}
