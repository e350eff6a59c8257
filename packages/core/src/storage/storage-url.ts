// The one value that chooses where sessions are stored (docs/storage.md): `qwen serve --storage <url>`, or
// QWEN_STORAGE_URL. A postgres:// (or postgresql://) URL means the PostgreSQL backend; a plain path or a
// file: URL means JSONL files under that folder; nothing means JSONL under QWEN_HOME, as always. A URL can
// hold a password: whatever is shown (logs, /daemon/status, errors) goes through redactStorageUrl.
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type StorageTarget = { kind: "jsonl"; root: string } | { kind: "postgres"; url: string };

/** The environment a daemon gives its agents (never their argv: `ps` shows argv to every local user). */
export const STORAGE_ENV = {
  url: "QWEN_STORAGE_URL",
  ownerId: "QWEN_STORAGE_OWNER_ID",
  ownerUrl: "QWEN_STORAGE_OWNER_URL",
  leaseMs: "QWEN_SESSION_LEASE_MS",
} as const;

export const DEFAULT_SESSION_LEASE_MS = 15_000;

export class InvalidStorageUrlError extends Error {
  override readonly name = "InvalidStorageUrlError";
}

const POSTGRES = /^postgres(ql)?:\/\//i;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

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
  const scheme = SCHEME.exec(text)?.[1];
  // One letter before a colon is a Windows drive, not a scheme.
  if (scheme !== undefined && scheme.length > 1)
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
