// How a daemon hands its storage to the agents it starts (docs/storage.md "The URL"): environment variables,
// never argv (`ps` shows argv to every local user). Plain data and string work with no imports beyond
// node:path, so `qwen serve` can build an agent's environment before its socket is bound, before core loads
// (the cli starts the workspace's agent then; package subpath `@qwen-daemon/core/storage-env`).
import { isAbsolute, resolve } from "node:path";

/** The environment a daemon gives its agents. */
export const STORAGE_ENV = {
  url: "QWEN_STORAGE_URL",
  ownerId: "QWEN_STORAGE_OWNER_ID",
  ownerUrl: "QWEN_STORAGE_OWNER_URL",
  leaseMs: "QWEN_SESSION_LEASE_MS",
} as const;

export const DEFAULT_SESSION_LEASE_MS = 15_000;

/** A URL's scheme: at least two letters (one letter before a colon is a Windows drive). */
export function urlScheme(text: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  return scheme !== undefined && scheme.length > 1 ? scheme : undefined;
}

/**
 * A --storage value as an agent in another folder must see it: a relative folder made absolute against `cwd`
 * (the daemon's), anything with a scheme (postgres://, file:) as it is.
 */
export function absoluteStorageValue(text: string, cwd: string): string {
  const value = text.trim();
  if (value === "" || urlScheme(value) !== undefined || isAbsolute(value)) return value;
  return resolve(cwd, value);
}

/**
 * The variables an agent gets so it writes to the daemon's storage as the daemon's owner (its leases
 * fence the agent's writes too). `value` is absolute (absoluteStorageValue).
 */
export function agentStorageEnv(
  value: string,
  owner: { id: string; url: string },
  leaseMs: number,
): Record<string, string> {
  return {
    [STORAGE_ENV.url]: value,
    [STORAGE_ENV.ownerId]: owner.id,
    [STORAGE_ENV.ownerUrl]: owner.url,
    [STORAGE_ENV.leaseMs]: String(leaseMs),
  };
}
