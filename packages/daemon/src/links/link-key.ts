// The daemon's link key: 32 random bytes (hex) that sign the capabilities in action URLs, kept in
// `$QWEN_HOME/notify/link-key` with mode 0600. Created on first use and replaced by `qwen link-key rotate`,
// both through core's DurableFs (replaceFile: a temp file written and fsynced, renamed into place, the folder
// fsynced, the folders up to QWEN_HOME made durable), so a power cut leaves the old key or the new one. A file
// that holds no key (a hand edit) is replaced on first use: nothing can have been signed with it. Two daemons
// starting at once on one QWEN_HOME may each write one; the last rename wins and both read it. A rotation makes every link signed
// before it unusable, at once: the daemon reads the file again whenever it changed (size, mtime or inode)
// before it signs or checks a capability.
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DurableFs } from "@qwen-daemon/core";

const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}$/;

export function linkKeyPath(qwenHome: string): string {
  return join(qwenHome, "notify", "link-key");
}

/** Where the key lives and how it is written: `root` is QWEN_HOME (the storage's root). */
export type LinkKeyStore = { root: string; fs?: DurableFs };

/** Makes the key if there is none (or the file holds none); resolves once it is durable. True when it made it. */
export async function ensureLinkKey(path: string, store: LinkKeyStore): Promise<boolean> {
  try {
    readKey(path);
    return false;
  } catch (error) {
    if (!(error instanceof NotAKeyError) && (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await (store.fs ?? new DurableFs()).replaceFile(path, newKeyText(), { root: store.root, fileMode: 0o600 });
  return true;
}

/** Replaces the key with a new one, durably. Every capability signed with the old key stops working. */
export async function rotateLinkKey(path: string, store: LinkKeyStore): Promise<void> {
  const fs = store.fs ?? new DurableFs();
  await fs.replaceFile(path, newKeyText(), { root: store.root, fileMode: 0o600 });
}

/** The key as the daemon uses it: read again when the file changed; undefined while there is none. */
export class LinkKey {
  readonly path: string;
  #key: Buffer | undefined;
  #stamp = "";

  constructor(path: string) {
    this.path = path;
  }

  /** The current key, or undefined when the file is missing or unreadable (then no link verifies). */
  current(): Buffer | undefined {
    let stamp: string;
    try {
      const s = statSync(this.path);
      stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      this.#key = undefined;
      this.#stamp = "";
      return undefined;
    }
    if (stamp !== this.#stamp) {
      try {
        this.#key = readKey(this.path);
        this.#stamp = stamp;
      } catch {
        this.#key = undefined;
        this.#stamp = "";
      }
    }
    return this.#key;
  }
}

function readKey(path: string): Buffer {
  const text = readFileSync(path, "utf8").trim();
  if (!KEY_TEXT.test(text)) throw new NotAKeyError(path);
  return Buffer.from(text, "hex");
}

function newKeyText(): string {
  return `${randomBytes(KEY_BYTES).toString("hex")}\n`;
}

class NotAKeyError extends Error {
  constructor(path: string) {
    super(`${path} does not hold a link key (64 hex digits)`);
    this.name = "NotAKeyError";
  }
}
