// Public API of the transcript (docs/protocol.md "On disk"), kept in a SessionStorage (storage/).
export * from "./history.js";
export * from "./ledger.js";
export * from "./reader.js";
export * from "./records.js";
export * from "./session-list.js";
export * from "./session-transcript.js";
export * from "./trailing-turn.js";
