// Public API of @qwen-daemon/acp-child.
export { type AcpAgent, type AcpAgentDeps, createAcpAgent } from "./agent.js";
export { type ClientServices, clientServicesOf } from "./client-services.js";
export { type CoreRuntimeOptions, createCoreRuntime } from "./core-runtime.js";
export {
  buildQuestionElicitation,
  ElicitationResponse,
  interpretElicitationResponse,
} from "./elicitation.js";
export {
  ExtensionMethod,
  LoadUpdatesParams,
  SessionContinueParams,
  SpecExtensionMethod,
} from "./extension-methods.js";
export {
  EXTERNAL_TOOL_GUARD_PREPARE_METHOD,
  EXTERNAL_TOOL_GUARD_READY_META_KEY,
  EXTERNAL_TOOL_GUARD_REQUIRED,
  type ExternalToolGuardRequest,
  PRIVATE_PARENT_CAPABILITY_META_KEY,
  type PrivateParentEnv,
} from "./external-tool-guard.js";
export { type Logger, stderrLogger } from "./logger.js";
export {
  AGENT_INFO,
  type RunAcpAgentOptions,
  type RunningAcpAgent,
  runAcpAgent,
  startAcpAgent,
} from "./main.js";
export {
  CONTINUE_LAST_TURN_META_KEY,
  INVOCATION_META_KEY,
  JOURNALED_ANSWERS_META_KEY,
  PERMISSION_CANCEL_REASON_META_KEY,
  PROMPT_ID_META_KEY,
  REQUESTED_SESSION_ID_META_KEY,
  RESTORE_ASK_USER_QUESTION_META_KEY,
  SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
} from "./meta.js";
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
  PermissionResponse,
  permissionOptions,
} from "./permissions.js";
export { type DescribeCall, MISSING_TOOL_RESULT_TEXT, type ReplayOptions, replayUpdates } from "./replay.js";
export type { ContinueDecision } from "./restore.js";
export type {
  AgentRuntime,
  OpenSessionArgs,
  RuntimeSession,
  SessionHooks,
  ToolBackends,
} from "./runtime.js";
