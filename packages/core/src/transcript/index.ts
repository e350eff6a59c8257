// Public API of the transcript (PROTOCOL.md "Transcript on disk"), kept in a SessionStorage (storage/).
export * from "./history.js";
export * from "./ledger.js";
export * from "./reader.js";
export * from "./records.js";
export * from "./session-list.js";
export * from "./session-transcript.js";
export * from "./trailing-turn.js";
