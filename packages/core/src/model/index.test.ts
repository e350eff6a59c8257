// Pins the public API of the model domain and of @qwen-daemon/core/testing: a removal or rename fails here.
import { describe, expect, it } from "vitest";
import * as testing from "../testing/index.js";
import * as model from "./index.js";

describe("public API", () => {
  it("model/index exports", () => {
    expect(Object.keys(model).sort()).toEqual(
      [
        "ChatChunkAssembler",
        "DEFAULT_OPENAI_BASE_URL",
        "DEFAULT_OPENAI_MODEL",
        "DEFAULT_RETRY_POLICY",
        "DEMO_DESCRIPTION",
        "DEMO_LABEL",
        "DEMO_NOTES_FILE",
        "DEMO_OPTIONS",
        "DEMO_QUESTION_HEADER",
        "DemoModelProvider",
        "MODEL_SETTING_KEYS",
        "ModelChoice",
        "ModelConfigError",
        "ModelError",
        "ModelSettingsFile",
        "OpenAIChatChunk",
        "OpenAIChatCompletion",
        "OpenAIChatMessage",
        "OpenAIChatRequest",
        "OpenAICompatibleProvider",
        "OpenAITool",
        "OpenAIToolCall",
        "SseDecoder",
        "abortableSleep",
        "backoffDelayMs",
        "buildOpenAIChatRequest",
        "createModelCatalog",
        "createModelProvider",
        "demoDeltas",
        "describeModelProvider",
        "errorKindForStatus",
        "functionResponseText",
        "hasConfiguredModel",
        "modelErrorFromHttp",
        "parseAnswers",
        "parseRetryAfterMs",
        "parseToolArguments",
        "planDemoReply",
        "resolveModelConfig",
        "retryDelayMs",
        "settingsFilePath",
        "singleModelCatalog",
        "toOpenAIMessages",
        "toOpenAITools",
      ].sort(),
    );
  });

  it("testing/index exports", () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        "DEFAULT_QUESTION",
        "RED_BLUE_QUESTION",
        "afterPowerLoss",
        "architectureProblems",
        "askUserQuestionCall",
        "checkToolCallPairing",
        "describeOutboxStorageContract",
        "describeSessionStorageContract",
        "describeSharedStorageContract",
        "diskStateKey",
        "fileCycles",
        "folderCycles",
        "forbiddenImports",
        "lastMessage",
        "messageText",
        "moduleGraph",
        "questionFlowHandler",
        "reply",
        "startFakeOpenAIServer",
        "toolCallFor",
        "trailingToolMessages",
        "withoutPowerLoss",
      ].sort(),
    );
  });
});
