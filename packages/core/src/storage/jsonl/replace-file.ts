// Atomic replacement of a JSONL file: the new text goes to a temp file beside it, is fsynced, renamed over
// the old one and the folder fsynced, so a crash leaves either the old file or the new one, never a mix.
import { randomUUID } from "node:crypto";
import { constants, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

export async function replaceFile(
  path: string,
  text: string,
  onSync?: (path: string) => void,
): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.datasync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  const dir = await open(dirname(path), constants.O_RDONLY);
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  onSync?.(path);
}
