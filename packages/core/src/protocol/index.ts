// @qwen-daemon/core/protocol: the wire contract between the daemon, its ACP children and HTTP clients.
// Every shape that crosses a process boundary is defined here once, as a zod schema with its type of the
// same name; routes.ts lists the HTTP routes with their bodies and answers. It imports nothing but zod.
export * from "./content.js";
export * from "./events.js";
export * from "./ids.js";
export * from "./links.js";
export * from "./meta.js";
export * from "./methods.js";
export * from "./permission.js";
export * from "./prompts.js";
export * from "./restore-kinds.js";
export * from "./route-lines.js";
export * from "./routes.js";
export * from "./service.js";
export * from "./sessions.js";
