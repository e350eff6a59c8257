// Public API of session storage: the interface every backend implements, the JSONL backend and its layout, the
// in-memory one (tests), the PostgreSQL backend, leases, and the one URL that chooses between them; and the
// daemon's notification outbox, one interface with the same three backends.
export { type DurableFile, type DurableFileOptions, DurableFs, durableFsFromEnv } from "./durable-fs.js";
export { FS_OP_LOG_ENV, FsOp, type FsOpRecorder, fileOpRecorder, parseFsOpLog } from "./fs-op-log.js";
export { type JsonlDecoder, type JsonlReadResult, readJsonlFile } from "./jsonl/jsonl-file.js";
export { type JsonlOutboxOptions, jsonlOutboxStorage } from "./jsonl/jsonl-outbox.js";
export { type JsonlStorageOptions, jsonlSessionStorage } from "./jsonl/jsonl-storage.js";
export * from "./jsonl/paths.js";
export * from "./jsonl/writer.js";
export {
  type MemoryOutboxOptions,
  type MemoryOutboxStorage,
  memoryOutboxStorage,
} from "./memory/memory-outbox.js";
export {
  type MemorySessionStorage,
  type MemoryStorageOptions,
  memorySessionStorage,
} from "./memory/memory-storage.js";
export * from "./open-storage.js";
export type { OutboxRecord } from "./outbox-records.js";
export * from "./outbox-storage.js";
export {
  type PostgresSessionStorage,
  type PostgresStorageOptions,
  postgresSessionStorage,
} from "./postgres/postgres-storage.js";
export * from "./session-id.js";
export * from "./session-lease.js";
export * from "./session-storage.js";
export * from "./storage-env.js";
export * from "./storage-url.js";
