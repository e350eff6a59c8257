// Public API of @qwen-daemon/acp-child.

// The wire contract this agent speaks with a daemon (`_meta` keys, extension methods, the permission answer),
// defined in @qwen-daemon/core/protocol and re-exported so a user of this package needs nothing else.
export {
  CONTINUE_LAST_TURN_META_KEY,
  type ContinueDecision,
  EXTERNAL_TOOL_GUARD_PREPARE_METHOD,
  EXTERNAL_TOOL_GUARD_READY_META_KEY,
  EXTERNAL_TOOL_GUARD_REQUIRED,
  ExtensionMethod,
  INVOCATION_META_KEY,
  JOURNALED_ANSWERS_META_KEY,
  LoadUpdatesParams,
  PERMISSION_CANCEL_REASON_META_KEY,
  PermissionResponse,
  PRIVATE_PARENT_CAPABILITY_META_KEY,
  PROMPT_ID_META_KEY,
  REQUESTED_SESSION_ID_META_KEY,
  RESTORE_ASK_USER_QUESTION_META_KEY,
  SessionContinueParams,
  SpecExtensionMethod,
  SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
} from "@qwen-daemon/core/protocol";
export { type AcpAgent, type AcpAgentDeps, createAcpAgent } from "./agent.js";
export { type ClientServices, clientServicesOf } from "./client-services.js";
export { type CoreRuntimeOptions, createCoreRuntime } from "./core-runtime.js";
export {
  buildQuestionElicitation,
  ElicitationResponse,
  interpretElicitationResponse,
} from "./elicitation.js";
export type { ExternalToolGuardRequest, PrivateParentEnv } from "./external-tool-guard.js";
export { type Logger, stderrLogger } from "./logger.js";
export {
  AGENT_INFO,
  type RunAcpAgentOptions,
  type RunningAcpAgent,
  runAcpAgent,
  startAcpAgent,
} from "./main.js";
export {
  type AcpChildOptions,
  DEFAULT_ACP_CHILD_OPTIONS,
  type ParsedAcpArgv,
  parseAcpArgv,
} from "./options.js";
export {
  buildPermissionRequest,
  interpretPermissionResponse,
  OptionId,
  permissionOptions,
} from "./permissions.js";
export { type DescribeCall, MISSING_TOOL_RESULT_TEXT, type ReplayOptions, replayUpdates } from "./replay.js";
export type {
  AgentRuntime,
  OpenSessionArgs,
  RuntimeSession,
  SessionHooks,
  ToolBackends,
} from "./runtime.js";
