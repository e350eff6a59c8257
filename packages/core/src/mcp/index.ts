export * from "./call-result.js";
export * from "./connection.js";
export * from "./manager.js";
export * from "./mcp-tool.js";
export * from "./server-config.js";
export * from "./tool-name.js";
