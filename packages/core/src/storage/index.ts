// Public API of session storage: the interface every backend implements, the JSONL backend and its layout, the
// in-memory one (tests), the PostgreSQL backend, leases, and the one URL that chooses between them.
export { type DurableFile, type DurableFileOptions, DurableFs, durableFsFromEnv } from "./durable-fs.js";
export { FS_OP_LOG_ENV, FsOp, type FsOpRecorder, fileOpRecorder, parseFsOpLog } from "./fs-op-log.js";
export { type JsonlDecoder, type JsonlReadResult, readJsonlFile } from "./jsonl/jsonl-file.js";
export { type JsonlStorageOptions, jsonlSessionStorage } from "./jsonl/jsonl-storage.js";
export * from "./jsonl/paths.js";
export * from "./jsonl/writer.js";
export {
  type MemorySessionStorage,
  type MemoryStorageOptions,
  memorySessionStorage,
} from "./memory/memory-storage.js";
export * from "./open-storage.js";
export type { SharedOutbox } from "./postgres/postgres-outbox.js";
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
