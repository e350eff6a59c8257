// The one place the storage backend is chosen. The ACP child (which writes transcripts and ledgers) and the
// daemon (which writes its journals and its notification outbox, and reads what the child wrote) both open
// their storage here, from the same --storage URL (storage-url.ts), so they always agree on it; a new backend
// is selected here and nowhere else.
import { type DurableFs, durableFsFromEnv } from "./durable-fs.js";
import { jsonlOutboxStorage } from "./jsonl/jsonl-outbox.js";
import { jsonlSessionStorage } from "./jsonl/jsonl-storage.js";
import type { OpenOutbox } from "./outbox-storage.js";
import { postgresSessionStorage } from "./postgres/postgres-storage.js";
import type { SessionLeases, StorageOwner } from "./session-lease.js";
import type { SessionStorage } from "./session-storage.js";
import { agentStorageEnv, DEFAULT_SESSION_LEASE_MS, STORAGE_ENV } from "./storage-env.js";
import { describeStorage, parseStorageUrl, type StorageTarget } from "./storage-url.js";

/**
 * The storage under `qwenHome` (resolveQwenHome()): JSONL files, docs/protocol.md "On disk". `fs` is
 * the process's DurableFs (by default from the environment: QWEN_FS_OP_LOG records its operations).
 */
export function openSessionStorage(
  qwenHome: string,
  fs: DurableFs = durableFsFromEnv(process.env),
): SessionStorage {
  return jsonlSessionStorage(qwenHome, { fs });
}

export interface OpenStorageOptions {
  /** Who writes, in a store shared by hosts: its writes are fenced by its leases (session-lease.ts). */
  owner?: StorageOwner;
  /** How long a lease lasts unless renewed (default 15000 ms). */
  leaseMs?: number;
  /** Errors of idle database connections, already redacted. */
  onError?: (error: Error) => void;
  /** JSONL: the process's DurableFs (default: from the environment, as openSessionStorage). */
  fs?: DurableFs;
  /**
   * JSONL: the daemon's QWEN_HOME, where its outbox file is (`notify/outbox.jsonl`, beside its other own
   * files such as the link key) when the sessions are kept in another folder; default: the storage's folder.
   * Every earlier release kept the file there, so a daemon given `--storage <folder>` finds it again.
   */
  qwenHome?: string;
}

/** A storage as a process holds it: its leases (shared stores), a printable name, and its lifetime. */
export interface OpenedStorage extends SessionStorage {
  /** Undefined for a store one host keeps alone (JSONL), or when opened without an owner. */
  readonly leases: SessionLeases | undefined;
  /**
   * Opens the daemon's notification outbox in this storage (outbox-storage.ts): `notify/outbox.jsonl` under
   * the `qwenHome` option (else the root), or rows shared by hosts (PostgreSQL: opened with an owner only, it
   * throws without one).
   */
  readonly outbox: OpenOutbox;
  /** `jsonl:<folder>` or the URL without its password: safe for logs and /daemon/status. */
  readonly description: string;
  readonly target: StorageTarget;
  /** Connects (and migrates a database's schema); rejects with an error that holds no password. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function openStorage(target: StorageTarget, options: OpenStorageOptions = {}): OpenedStorage {
  const description = describeStorage(target);
  if (target.kind === "jsonl") {
    const fs = options.fs ?? durableFsFromEnv(process.env);
    const storage = openSessionStorage(target.root, fs);
    return {
      ...storage,
      leases: undefined,
      outbox: (decode) => jsonlOutboxStorage(options.qwenHome ?? target.root, decode, { fs }),
      description,
      target,
      ready: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }
  const storage = postgresSessionStorage({
    url: target.url,
    leaseMs: options.leaseMs ?? DEFAULT_SESSION_LEASE_MS,
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  return {
    log: storage.log,
    listSessions: storage.listSessions,
    leases: storage.leases,
    outbox:
      storage.outbox ??
      (() => {
        throw new Error("A PostgreSQL outbox is held by an owner: open the storage with one");
      }),
    description,
    target,
    ready: storage.ready,
    close: storage.close,
  };
}

/**
 * The storage an agent started by a daemon uses: the daemon's URL and owner, from the environment it was
 * given (storageEnvironment). Without them: JSONL under `qwenHome`, or the URL given on the agent's own
 * command line (`qwen --acp --storage <url>`), unfenced: an agent on its own takes part in no leases.
 */
export function openStorageFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  qwenHome: string,
  options: { url?: string; onError?: (error: Error) => void } = {},
): OpenedStorage {
  const target = parseStorageUrl(options.url ?? env[STORAGE_ENV.url], qwenHome);
  const ownerId = env[STORAGE_ENV.ownerId];
  const leaseMs = Number(env[STORAGE_ENV.leaseMs]);
  return openStorage(target, {
    ...(ownerId === undefined || ownerId === ""
      ? {}
      : { owner: { id: ownerId, url: env[STORAGE_ENV.ownerUrl] ?? "" } }),
    ...(Number.isSafeInteger(leaseMs) && leaseMs >= 0 ? { leaseMs } : {}),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
}

/** The variables a daemon gives its agents so they write to its storage as its owner (never argv). */
export function storageEnvironment(
  target: StorageTarget,
  owner: StorageOwner,
  leaseMs: number,
): Record<string, string> {
  return agentStorageEnv(target.kind === "jsonl" ? target.root : target.url, owner, leaseMs);
}
