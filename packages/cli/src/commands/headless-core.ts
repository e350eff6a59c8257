// What a headless run loads from core, as named imports: `import("@qwen-daemon/core")` would make every
// export of core live in the bundle and stop the bundler from keeping the daemon's chunks to the transcript
// code it uses (see tsup.config.ts).
export {
  AgentSession,
  Config,
  createBuiltinTools,
  createModelProvider,
  openSessionStorage,
  resolveModelConfig,
  resolveQwenHome,
  ToolRegistry,
} from "@qwen-daemon/core";
