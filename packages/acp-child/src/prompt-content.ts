// ACP prompt content blocks -> the user message parts core records and sends.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Part } from "@qwen-daemon/core";

/**
 * Text as is; a resource link as an `@uri` mention (the model can read it with its tools); an embedded
 * text resource as its text, introduced by its uri. Images, audio and binary resources are not advertised
 * in promptCapabilities, so a client should not send them; they are named rather than silently dropped.
 */
export function promptToParts(blocks: readonly ContentBlock[]): Part[] {
  const parts: Part[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ text: block.text });
        break;
      case "resource_link":
        parts.push({ text: `@${block.uri}` });
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource && typeof resource.text === "string") {
          parts.push({ text: `Content of ${resource.uri}:\n${resource.text}` });
        } else {
          parts.push({ text: `[binary resource ${resource.uri} omitted]` });
        }
        break;
      }
      default:
        parts.push({ text: `[${block.type} content omitted: not supported by this agent]` });
    }
  }
  return parts;
}
