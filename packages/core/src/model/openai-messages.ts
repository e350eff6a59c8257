// Pure mapping between our Gemini-style Content history and OpenAI Chat Completions messages.
import type { Content, FunctionResponse } from "../content.js";
import type { OpenAIChatMessage, OpenAIChatRequest, OpenAITool, OpenAIToolCall } from "./openai-wire.js";
import type { ToolDeclaration } from "./provider.js";

/**
 * The text a tool message carries: `output`, else `error` (our ToolResult shapes); anything else is
 * JSON so the model still sees it.
 */
export function functionResponseText(response: FunctionResponse["response"]): string {
  const value = response.output ?? response.error;
  if (typeof value === "string") return value;
  return JSON.stringify(value === undefined ? response : value);
}

/**
 * History → messages. Thought parts are never sent. Within one user content, tool messages come before
 * its text because OpenAI requires tool messages right after the assistant message that made the calls.
 * Calls or responses without an id (not produced by our turn loop, but legal in Content) get synthetic ids;
 * a response without an id pairs with the oldest unanswered call of the same name.
 */
export function toOpenAIMessages(
  contents: readonly Content[],
  systemInstruction?: string,
): OpenAIChatMessage[] {
  const messages: OpenAIChatMessage[] = [];
  if (systemInstruction) messages.push({ role: "system", content: systemInstruction });
  const unansweredSynthetic: { id: string; name: string }[] = [];

  contents.forEach((content, ci) => {
    const texts: string[] = [];
    if (content.role === "model") {
      const toolCalls: OpenAIToolCall[] = [];
      content.parts.forEach((part, pi) => {
        if (part.thought) return;
        if (part.text) texts.push(part.text);
        if (part.functionCall) {
          let id = part.functionCall.id;
          if (!id) {
            id = `call_${ci}_${pi}`;
            unansweredSynthetic.push({ id, name: part.functionCall.name });
          }
          toolCalls.push({
            id,
            type: "function",
            function: {
              name: part.functionCall.name,
              arguments: JSON.stringify(part.functionCall.args ?? {}),
            },
          });
        }
      });
      if (texts.length === 0 && toolCalls.length === 0) return;
      messages.push({
        role: "assistant",
        content: texts.length > 0 ? texts.join("") : null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
      return;
    }

    content.parts.forEach((part, pi) => {
      if (part.thought) return;
      if (part.text) texts.push(part.text);
      const fr = part.functionResponse;
      if (!fr) return;
      let id = fr.id;
      if (!id) {
        const match = unansweredSynthetic.findIndex((c) => c.name === fr.name);
        id = match >= 0 ? unansweredSynthetic.splice(match, 1)[0]!.id : `call_${ci}_${pi}`;
      }
      messages.push({ role: "tool", tool_call_id: id, content: functionResponseText(fr.response) });
    });
    if (texts.length > 0) messages.push({ role: "user", content: texts.join("\n") });
  });
  return messages;
}

export function toOpenAITools(tools: readonly ToolDeclaration[]): OpenAITool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export interface ChatRequestInput {
  model: string;
  systemInstruction?: string;
  contents: readonly Content[];
  tools: readonly ToolDeclaration[];
  /** Ask for a final usage chunk (`stream_options.include_usage`); a few old servers reject the key. */
  includeUsage?: boolean;
  /** Extra top-level keys (temperature, top_p, ...), applied before the keys this module owns. */
  extraBody?: Record<string, unknown>;
}

/** The streaming request body. `tools` is omitted when empty: several servers reject an empty array. */
export function buildOpenAIChatRequest(input: ChatRequestInput): OpenAIChatRequest {
  const body: OpenAIChatRequest = {
    ...input.extraBody,
    model: input.model,
    messages: toOpenAIMessages(input.contents, input.systemInstruction),
    stream: true,
  };
  if (input.includeUsage !== false) body.stream_options = { include_usage: true };
  if (input.tools.length > 0) body.tools = toOpenAITools(input.tools);
  return body;
}
