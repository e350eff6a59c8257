// Public API of @qwen-daemon/daemon.

export { type AnswerJournal, memoryAnswerJournal, storedAnswerJournal } from "./answers/answer-journal.js";
export { type AppDeps, createApp } from "./app.js";
export type { ChannelFactory, ChannelSpec, ChildChannel, ChildExit } from "./bridge/channel.js";
export { DEFAULT_AGENT_PACKAGE, defaultChildCommand } from "./bridge/default-child-command.js";
export { childArgv, forwardedChildFlags, spawnChannelFactory } from "./bridge/spawn-channel.js";
export { installSignalHandlers, type SignalHandlerOptions, type Stoppable } from "./lifecycle/signals.js";
export { ensureLinkKey, linkKeyPath, rotateLinkKey } from "./links/link-key.js";
export {
  memoryOutbox,
  NotifyEvent,
  type NotifyOutbox,
  type NotifySource,
  webhookSignature,
} from "./notify/index.js";
export {
  DAEMON_OPTION_SPECS,
  type DaemonOptionKey,
  MAX_TIMER_MS,
  type OptionSpec,
  type OptionValues,
  PERMISSION_POLICIES,
} from "./option-specs.js";
export {
  DaemonOptions,
  type DaemonOptionsInput,
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  resolveDaemonOptions,
} from "./options.js";
export { PermissionPolicy } from "./permission/policy.js";
export { coreSessionStore, emptySessionStore } from "./persisted/core-session-store.js";
export type { SessionStore } from "./persisted/session-store.js";
export { memoryPromptJournal, type PromptJournal, storedPromptJournal } from "./prompts/prompt-journal.js";
export { type DaemonInternals, type RunningDaemon, startDaemon } from "./server.js";
export { Sessions, type SessionsOptions } from "./sessions/sessions.js";
export { webClientRoot } from "./web-client.js";
