// OpenAI Chat Completions wire shapes, as far as this project speaks them.
// Schemas are lenient where real servers differ (vLLM, Ollama, llama.cpp, DashScope): unknown keys pass,
// optional fields may be null. Requests from other clients (the reference CLI sends content arrays) parse too.
import { z } from "zod";

/** A content part of the array form of `content` (`[{type:"text", text}]`); other part types pass through. */
export const OpenAIContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
export type OpenAIContentPart = z.infer<typeof OpenAIContentPart>;

export const OpenAIMessageContent = z.union([z.string(), z.array(OpenAIContentPart), z.null()]);
export type OpenAIMessageContent = z.infer<typeof OpenAIMessageContent>;

export const OpenAIToolCall = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export type OpenAIToolCall = z.infer<typeof OpenAIToolCall>;

export const OpenAIChatMessage = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content: OpenAIMessageContent }),
  z.looseObject({ role: z.literal("developer"), content: OpenAIMessageContent }),
  z.looseObject({ role: z.literal("user"), content: OpenAIMessageContent }),
  z.looseObject({
    role: z.literal("assistant"),
    content: OpenAIMessageContent.optional(),
    tool_calls: z.array(OpenAIToolCall).optional(),
    reasoning_content: z.string().optional(),
  }),
  z.looseObject({ role: z.literal("tool"), tool_call_id: z.string(), content: OpenAIMessageContent }),
]);
export type OpenAIChatMessage = z.infer<typeof OpenAIChatMessage>;

export const OpenAITool = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type OpenAITool = z.infer<typeof OpenAITool>;

export const OpenAIChatRequest = z.looseObject({
  model: z.string(),
  messages: z.array(OpenAIChatMessage),
  tools: z.array(OpenAITool).optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});
export type OpenAIChatRequest = z.infer<typeof OpenAIChatRequest>;

export const OpenAIUsage = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
});
export type OpenAIUsage = z.infer<typeof OpenAIUsage>;

/** A tool-call fragment inside a streamed delta; only the first fragment of a call carries id and name. */
export const OpenAIToolCallDelta = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
export type OpenAIToolCallDelta = z.infer<typeof OpenAIToolCallDelta>;

export const OpenAIChatChunk = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().nullish(),
        delta: z
          .looseObject({
            role: z.string().nullish(),
            content: z.string().nullish(),
            // DashScope / vLLM / DeepSeek use reasoning_content; Ollama and OpenRouter use reasoning.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(OpenAIToolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: OpenAIUsage.nullish(),
  /** Some servers report a failure inside an otherwise 200 stream. */
  error: z.unknown().optional(),
});
export type OpenAIChatChunk = z.infer<typeof OpenAIChatChunk>;

/** The non-streaming response, for servers that ignore `stream: true` and answer with one JSON body. */
export const OpenAIChatCompletion = z.looseObject({
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z.array(OpenAIToolCall).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: OpenAIUsage.nullish(),
});
export type OpenAIChatCompletion = z.infer<typeof OpenAIChatCompletion>;
