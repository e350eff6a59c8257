// `qwen link-key rotate`: a new answer-link key in `$QWEN_HOME/notify/link-key` (the storage `qwen serve`
// uses), written durably; links signed with the old key stop working at once.
import { durableFsFromEnv, resolveQwenHome } from "@qwen-daemon/core";
import { linkKeyPath, rotateLinkKey } from "@qwen-daemon/daemon";

export async function runRotateLinkKey(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const root = resolveQwenHome(env);
  const path = linkKeyPath(root);
  await rotateLinkKey(path, { root, fs: durableFsFromEnv(env) });
  process.stdout.write(`qwen: rotated the answer-link key ${path}; earlier answer links no longer work\n`);
}
