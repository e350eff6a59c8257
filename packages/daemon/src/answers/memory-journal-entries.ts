// A journal over a storage in memory shows tests every session's entries in the order they were written (the
// answer and prompt journals alike): `entries` reads them back from the storage on each access.
import type { LogDecoder, MemorySessionStorage, SessionLogKind } from "@qwen-daemon/core";

export function withMemoryEntries<J extends object, E>(
  journal: J,
  storage: MemorySessionStorage,
  kind: SessionLogKind,
  decode: LogDecoder<E>,
): J & { readonly entries: E[] } {
  return Object.defineProperty(journal, "entries", {
    get: () => storage.peekAll(kind, decode),
  }) as J & { readonly entries: E[] };
}
