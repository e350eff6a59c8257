// Public API of @qwen-daemon/core. Each domain lists its own exports in its index.

export * from "./agent/index.js";
export * from "./config.js";
export * from "./content.js";
export * from "./history/index.js";
export * from "./mcp/index.js";
export * from "./model/index.js";
export * from "./storage/index.js";
export * from "./tools/index.js";
export * from "./transcript/index.js";
