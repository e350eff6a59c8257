// Tests import sibling workspace packages from their sources, so a package's tests never wait for
// (or run against a stale) build of another package. Cross-process e2e tests use the real builds.
import { fileURLToPath } from "node:url";

const src = (pkg: string, file = "index.ts") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

export const workspaceAlias = [
  { find: /^@qwen-daemon\/core\/testing$/, replacement: src("core", "testing/index.ts") },
  { find: /^@qwen-daemon\/core\/protocol$/, replacement: src("core", "protocol/index.ts") },
  { find: /^@qwen-daemon\/core$/, replacement: src("core") },
  { find: /^@qwen-daemon\/acp-child$/, replacement: src("acp-child") },
  { find: /^@qwen-daemon\/daemon$/, replacement: src("daemon") },
  { find: /^@qwen-daemon\/daemon\/boot$/, replacement: src("daemon", "boot/index.ts") },
  { find: /^@qwen-daemon\/daemon\/option-specs$/, replacement: src("daemon", "option-specs.ts") },
];
