// Public API of the transcript store (PROTOCOL.md "Transcript on disk").
export * from "./history.js";
export { type JsonlDecoder, type JsonlReadResult, readJsonlFile } from "./jsonl-file.js";
export * from "./ledger.js";
export * from "./paths.js";
export * from "./reader.js";
export * from "./records.js";
export * from "./session-id.js";
export * from "./session-list.js";
export * from "./session-transcript.js";
export * from "./writer.js";
