// An MCP tool result as our ToolResult: text blocks joined, other blocks described in one line each
// (the model cannot use raw base64 here), `isError` mapped to an error. Pure.
import type { ToolResult } from "../tools/tool.js";

interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

export interface CallResultLike {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Pre-2024-11 servers answer with `toolResult` instead of `content`. */
  toolResult?: unknown;
}

function blockText(block: ContentBlock, toolName: string): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[Tool '${toolName}' provided ${block.type} data with mime-type: ${block.mimeType ?? "unknown"}]`;
    case "resource":
      if (typeof block.resource?.text === "string") return block.resource.text;
      return `[Tool '${toolName}' provided an embedded resource: ${block.resource?.uri ?? "(no uri)"}]`;
    case "resource_link":
      return `Resource Link: ${block.title ?? block.name ?? ""} at ${block.uri ?? "(no uri)"}`;
    default:
      return `[Tool '${toolName}' provided a content block of unknown type "${block.type}"]`;
  }
}

export function flattenCallResult(result: CallResultLike, toolName: string): ToolResult {
  let text: string;
  if (result.content && result.content.length > 0) {
    text = result.content.map((b) => blockText(b, toolName)).join("\n");
  } else if (result.structuredContent !== undefined) {
    text = JSON.stringify(result.structuredContent);
  } else if (result.toolResult !== undefined) {
    text = typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult);
  } else {
    text = "";
  }
  if (result.isError)
    return { error: text === "" ? `MCP tool '${toolName}' reported an error without details.` : text };
  return { output: text };
}
