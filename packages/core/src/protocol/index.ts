// @qwen-daemon/core/protocol: the wire contract between the daemon, its ACP children and HTTP clients.
// Every shape that crosses a process boundary is defined here once, as a zod schema with its type.
export * from "./meta.js";
export * from "./methods.js";
export * from "./permission.js";
