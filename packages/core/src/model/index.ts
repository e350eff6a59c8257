export { abortableSleep, type Sleep } from "./abortable-sleep.js";
export {
  DEMO_DESCRIPTION,
  DemoModelProvider,
  type DemoProviderOptions,
  demoDeltas,
} from "./demo-provider.js";
export {
  DEMO_LABEL,
  DEMO_NOTES_FILE,
  DEMO_OPTIONS,
  DEMO_QUESTION_HEADER,
  type DemoAnswer,
  type DemoReply,
  parseAnswers,
  planDemoReply,
} from "./demo-script.js";
export {
  errorKindForStatus,
  type HeaderReader,
  modelErrorFromHttp,
  parseRetryAfterMs,
} from "./http-error.js";
export type { ModelFetch, ModelHttpRequest, ModelHttpResponse } from "./http-transport.js";
export {
  createModelCatalog,
  type ModelCatalog,
  type ModelEntry,
  singleModelCatalog,
} from "./model-catalog.js";
export {
  buildOpenAIChatRequest,
  type ChatRequestInput,
  functionResponseText,
  toOpenAIMessages,
  toOpenAITools,
} from "./openai-messages.js";
export {
  DEFAULT_OPENAI_BASE_URL,
  OpenAICompatibleProvider,
  type OpenAIProviderOptions,
  type RetryNotice,
} from "./openai-provider.js";
export { ChatChunkAssembler, parseToolArguments } from "./openai-stream-assembler.js";
export {
  OpenAIChatChunk,
  OpenAIChatCompletion,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAITool,
  OpenAIToolCall,
} from "./openai-wire.js";
export * from "./provider.js";
export {
  type CreateModelProviderOptions,
  createModelProvider,
  DEFAULT_OPENAI_MODEL,
  describeModelProvider,
  hasConfiguredModel,
} from "./resolve-provider.js";
export { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from "./retry-policy.js";
export {
  MODEL_SETTING_KEYS,
  ModelChoice,
  type ModelConfig,
  ModelConfigError,
  type ModelConfigSource,
  ModelSettingsFile,
  type ResolveModelConfigInput,
  resolveModelConfig,
  settingsFilePath,
} from "./settings.js";
export { SseDecoder } from "./sse-decoder.js";
