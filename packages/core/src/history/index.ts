// Pure scans and repairs of conversation history (no I/O).
export * from "./ask-user-question-restore.js";
export * from "./orphan-repair.js";
export * from "./pending-approval-restore.js";
export * from "./pending-on-disk.js";
export * from "./restore-tail.js";
export * from "./session-recovery.js";
export * from "./tool-restore-class.js";
export * from "./transcript-calls.js";
