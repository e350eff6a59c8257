// JSON request bodies: at most 10 MB (413), malformed -> 400, prototype keys dropped at every depth.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { bodyTooLarge, invalidJson, requestAborted } from "./errors.js";
import { HttpError } from "./http-error.js";
import { declaredBodyLength, hasRequestBody } from "./request-body.js";

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
 * Middleware: the 10 MB cap on every request body, answering with our 413: by Content-Length before a byte is
 * read, and, for a body without one, by Hono's own `bodyLimit` counting it. The declared length is checked
 * here as `bodyLimit` checks it, because `bodyLimit` reads it through the fetch Request, which on the Node
 * server costs every request that Request (request-body.ts). A body whose client goes away mid-upload ends
 * the request as `request_aborted` (nobody is left to answer, and it is no daemon fault to log). Errors of
 * the handlers after it never reach here (Hono answers them at their own level).
 */
export function bodyCap(maxBytes = MAX_BODY_BYTES): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw bodyTooLarge();
    },
  });
  return async function bodyCap(c, next) {
    if (!hasRequestBody(c)) return next();
    const declared = declaredBodyLength(c);
    if (declared !== undefined) {
      if (declared > maxBytes) throw bodyTooLarge();
      return next();
    }
    try {
      return await limit(c, next);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw requestAborted();
    }
  };
}

/**
 * Reads the body of `request` as a JSON object (its size already capped by {@link bodyCap}). An empty body,
 * or one that is valid JSON but not an object, reads as `{}` (like the reference's body parser), so each route
 * reports the field it needs.
 */
export async function readJsonObject(request: Request): Promise<JsonObject> {
  let text: string;
  try {
    text = await request.text();
  } catch {
    // The client went away mid-upload (the stream errors with "aborted").
    throw requestAborted();
  }
  if (text.trim() === "") return {};
  const value = parseJsonSafely(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}
