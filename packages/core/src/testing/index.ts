// Test helpers for this package and its dependents (`@qwen-daemon/core/testing`); never imported by production code.
export { checkToolCallPairing } from "./chat-request-rules.js";
export {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeMessageReply,
  type FakeQuestion,
  type FakeReply,
  type FakeToolCall,
  type FakeUsage,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
  toolCallFor,
  trailingToolMessages,
} from "./fake-openai-replies.js";
export { type QuestionFlowOptions, questionFlowHandler } from "./fake-openai-scripts.js";
export {
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeRejection,
  type FakeScript,
  type FakeServerScript,
  startFakeOpenAIServer,
} from "./fake-openai-server.js";
export {
  architectureProblems,
  fileCycles,
  folderCycles,
  forbiddenImports,
  type ModuleGraph,
  moduleGraph,
} from "./module-graph.js";
export { describeOutboxStorageContract, type OutboxUnderTest } from "./outbox-contract.js";
export { afterPowerLoss, type DiskState, diskStateKey, withoutPowerLoss } from "./power-loss-model.js";
export {
  describeSharedStorageContract,
  type SharedStorageHost,
  type SharedStorageUnderTest,
} from "./shared-storage-contract.js";
export {
  type ContractTestApi,
  describeSessionStorageContract,
  type StorageUnderTest,
} from "./storage-contract.js";
