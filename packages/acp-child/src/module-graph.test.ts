// The ACP child's architecture, checked: no import cycle between files or folders, and never an import of
// the daemon (a child runs under any ACP client: ours, the reference daemon, an editor).
import { fileURLToPath } from "node:url";
import { architectureProblems } from "@qwen-daemon/core/testing";
import { expect, it } from "vitest";

it("the ACP child's modules import one way only, and never the daemon", () => {
  const root = fileURLToPath(new URL(".", import.meta.url));
  const problems = architectureProblems(root, (pkg) => pkg.startsWith("@qwen-daemon/daemon"));
  expect(problems).toEqual({
    files: expect.any(Number),
    fileCycles: [],
    folderCycles: [],
    forbiddenImports: [],
  });
  expect(problems.files).toBeGreaterThan(20);
});
