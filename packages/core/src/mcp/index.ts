export * from "./server-config.js";
export * from "./tool-name.js";
export * from "./call-result.js";
export * from "./connection.js";
export * from "./mcp-tool.js";
export * from "./manager.js";
