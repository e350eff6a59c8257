// What `qwen serve` loads once its socket is bound: the daemon, and the few core functions the cli needs for
// the daemon's options and the banner. Named static imports (rather than `import("@qwen-daemon/core")`,
// which keeps every export of core alive) let the bundler leave the agent loop, tools and MCP code that only
// the ACP child runs out of the daemon's chunks: less to parse at start and less memory held while idle.

export {
  createModelProvider,
  describeModelProvider,
  resolveModelConfig,
  resolveQwenHome,
} from "@qwen-daemon/core";
export { installSignalHandlers, startDaemon } from "@qwen-daemon/daemon";
