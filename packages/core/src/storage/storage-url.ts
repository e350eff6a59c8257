// The one value that chooses where sessions are stored (docs/storage.md): `qwen serve --storage <url>`, or
// QWEN_STORAGE_URL. A postgres:// (or postgresql://) URL means the PostgreSQL backend; a plain path or a
// file: URL means JSONL files under that folder; nothing means JSONL under QWEN_HOME, as always. A URL can
// hold a password: whatever is shown (logs, /daemon/status, errors) goes through redactStorageUrl.
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { urlScheme } from "./storage-env.js";

export type StorageTarget = { kind: "jsonl"; root: string } | { kind: "postgres"; url: string };

export class InvalidStorageUrlError extends Error {
  override readonly name = "InvalidStorageUrlError";
}

const POSTGRES = /^postgres(ql)?:\/\//i;

/** Reads a --storage value; `qwenHome` is the default folder. Throws InvalidStorageUrlError (redacted). */
export function parseStorageUrl(value: string | undefined, qwenHome: string): StorageTarget {
  const text = value?.trim() ?? "";
  if (text === "") return { kind: "jsonl", root: qwenHome };
  if (POSTGRES.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new InvalidStorageUrlError(`--storage: not a valid URL: ${redactStorageUrl(text)}`);
    }
    if (url.hostname === "" && !url.searchParams.has("host"))
      throw new InvalidStorageUrlError(`--storage: no host in ${redactStorageUrl(text)}`);
    return { kind: "postgres", url: text };
  }
  if (/^file:/i.test(text)) {
    let path: string;
    try {
      path = fileURLToPath(text);
    } catch (error) {
      throw new InvalidStorageUrlError(`--storage: ${text}: ${(error as Error).message}`);
    }
    return { kind: "jsonl", root: path };
  }
  const scheme = urlScheme(text);
  if (scheme !== undefined)
    throw new InvalidStorageUrlError(
      `--storage: unsupported scheme "${scheme}:" in ${redactStorageUrl(text)} (use postgres://..., file:..., or a folder path)`,
    );
  return { kind: "jsonl", root: isAbsolute(text) ? text : resolve(text) };
}

/** The URL without its password (and any password= parameter), for anything a person or a log sees. */
export function redactStorageUrl(text: string): string {
  return text
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^@/]*@/i, "$1:***@")
    .replace(/([?&](password|sslpassword|sslkey)=)[^&]*/gi, "$1***");
}

/** What the storage is, for logs and /daemon/status: `jsonl:<folder>` or the redacted URL. */
export function describeStorage(target: StorageTarget): string {
  return target.kind === "jsonl" ? `jsonl:${target.root}` : redactStorageUrl(target.url);
}

/** Replaces every appearance of the URL's password in `text` (a driver's error message, say). */
export function redactStorageSecrets(text: string, target: StorageTarget): string {
  if (target.kind !== "postgres") return text;
  let out = text.split(target.url).join(redactStorageUrl(target.url));
  try {
    const password = decodeURIComponent(new URL(target.url).password);
    if (password.length >= 4) out = out.split(password).join("***");
  } catch {
    // not a URL we can take apart: the whole-URL replacement above is what can be done
  }
  return out;
}
