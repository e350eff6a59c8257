// The daemon's link key: 32 random bytes (hex) that sign the capabilities in action URLs, kept in
// `$QWEN_HOME/notify/link-key` with mode 0600. Created on first use and replaced by `qwen link-key rotate`,
// both durably through core's DurableFs (the folders up to QWEN_HOME made durable; the bytes fsynced before the
// name appears: an exclusive hard link for a creation, so two daemons starting at once agree on one key, and
// DurableFs's replaceFile for a rotation; then the folder fsynced). A
// rotation makes every link signed before it unusable, at once: the daemon reads the file again whenever it
// changed (size, mtime or inode) before it signs or checks a capability.
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { link, open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DurableFs } from "@qwen-daemon/core";

const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}$/;

export function linkKeyPath(qwenHome: string): string {
  return join(qwenHome, "notify", "link-key");
}

/** Where the key lives and how it is written: `root` is QWEN_HOME (the storage's root). */
export type LinkKeyStore = { root: string; fs?: DurableFs };

/** Makes the key if there is none; resolves once it is durable. Returns whether it made it. */
export async function ensureLinkKey(path: string, store: LinkKeyStore): Promise<boolean> {
  try {
    readKey(path);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const fs = store.fs ?? new DurableFs();
  await fs.ensureDirectory(dirname(path), { root: store.root });
  const temp = await writeTemp(path);
  try {
    // Exclusive: a key another process made meanwhile is kept, never overwritten.
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    await rm(temp, { force: true });
  }
  await fs.syncDirectory(dirname(path));
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
  if (!KEY_TEXT.test(text)) throw new Error(`${path} does not hold a link key (64 hex digits)`);
  return Buffer.from(text, "hex");
}

function newKeyText(): string {
  return `${randomBytes(KEY_BYTES).toString("hex")}\n`;
}

async function writeTemp(path: string): Promise<string> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(newKeyText());
    // The mode asked at creation is masked by the umask; set it outright.
    await handle.chmod(0o600);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}
