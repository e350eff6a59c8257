// JSON request bodies: at most 10 MB (413), malformed -> 400, prototype keys dropped at every depth.
import { bodyTooLarge, invalidJson, requestAborted } from "./errors.js";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export type JsonObject = Record<string, unknown>;

/**
 * Parses `text` as JSON, dropping `__proto__` / `constructor` / `prototype` keys wherever they appear
 * (a reviver returning undefined deletes the key). Throws the 400 error on malformed JSON.
 */
export function parseJsonSafely(text: string): unknown {
  try {
    return JSON.parse(text, (key, value) => (PROTOTYPE_KEYS.has(key) ? undefined : value));
  } catch {
    throw invalidJson();
  }
}

/**
 * Reads the body of `request` as a JSON object. An empty body, or one that is valid JSON but not an
 * object, reads as `{}` (like the reference's body parser), so each route reports the field it needs.
 * The size cap is checked against Content-Length first and then while streaming, so a lying or chunked
 * request cannot make the daemon buffer more than the cap.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<JsonObject> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") return {};
  const value = parseJsonSafely(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw bodyTooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-upload (the stream errors with "aborted"): nobody is left to answer, and it
      // is no daemon fault to log.
      throw requestAborted();
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
