// What of a prompt block the daemon echoes to the session's clients (`user_message_chunk`). The echo is an
// event: the ring keeps it for replay and every subscriber queues it, so a 9 MB prompt echoed whole would be
// held many times over. Ordinary blocks are echoed as they are; a huge one is echoed clipped to its first
// MAX_ECHO_BLOCK_CHARS characters of text (binary data dropped), and the echo says how long it was. The
// agent always gets the whole prompt.
import type { ContentBlock } from "@qwen-daemon/core/protocol";

export const MAX_ECHO_BLOCK_CHARS = 64 * 1024;
/** Names and uris of a clipped block are kept up to this length. */
const MAX_NAME_CHARS = 2048;

export type EchoedContent = {
  content: Record<string, unknown>;
  /** Set when the echo is a clipped copy: the block's size as JSON text. */
  truncated?: { originalBlockChars: number };
};

export function echoedContent(block: ContentBlock): EchoedContent {
  const size = JSON.stringify(block).length;
  if (size <= MAX_ECHO_BLOCK_CHARS) return { content: block };
  return { content: clipped(block), truncated: { originalBlockChars: size } };
}

// The block's own shape, its long fields cut and its _meta and annotations left out.
function clipped(block: ContentBlock): Record<string, unknown> {
  const name = (value: unknown) => (typeof value === "string" ? value.slice(0, MAX_NAME_CHARS) : undefined);
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, MAX_ECHO_BLOCK_CHARS) : "");
  const optional = (key: string, value: unknown) =>
    value === undefined || value === null ? {} : { [key]: value };
  switch (block.type) {
    case "text":
      return { type: "text", text: text(block.text) };
    case "image":
    case "audio":
      return {
        type: block.type,
        ...optional("mimeType", name(block.mimeType)),
        data: "",
        ...optional("uri", name(block.uri)),
      };
    case "resource_link":
      return {
        type: "resource_link",
        uri: name(block.uri) ?? "",
        name: name(block.name) ?? "",
        ...optional("mimeType", name(block.mimeType)),
      };
    case "resource": {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      return {
        type: "resource",
        resource: {
          uri: name(resource.uri) ?? "",
          ...optional("mimeType", name(resource.mimeType)),
          ...("text" in resource ? { text: text(resource.text) } : { blob: "" }),
        },
      };
    }
    default:
      return { type: name(block.type) ?? "unknown" };
  }
}
