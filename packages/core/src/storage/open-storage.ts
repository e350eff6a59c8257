// The one place the storage backend is chosen. The ACP child (which writes transcripts and ledgers) and the
// daemon (which writes its journals and reads what the child wrote) both open their storage here, so they
// always agree on it; a new backend is selected here and nowhere else.
import { jsonlSessionStorage } from "./jsonl/jsonl-storage.js";
import type { SessionStorage } from "./session-storage.js";

/** The storage under `qwenHome` (resolveQwenHome()): JSONL files, docs/protocol.md "On disk". */
export function openSessionStorage(qwenHome: string): SessionStorage {
  return jsonlSessionStorage(qwenHome);
}
