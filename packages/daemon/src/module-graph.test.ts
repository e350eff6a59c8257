// The daemon's architecture, checked: no import cycle between files or between folders (bridge, sessions,
// permission, events, http, ... each import the others one way only), and never an import of the ACP child's
// package (the daemon speaks to children over the wire, so a child may be any build).
import { fileURLToPath } from "node:url";
import { architectureProblems } from "@qwen-daemon/core/testing";
import { expect, it } from "vitest";

it("the daemon's modules import one way only, and never the ACP child", () => {
  const root = fileURLToPath(new URL(".", import.meta.url));
  const problems = architectureProblems(root, (pkg) => pkg.startsWith("@qwen-daemon/acp-child"));
  expect(problems).toEqual({
    files: expect.any(Number),
    fileCycles: [],
    folderCycles: [],
    forbiddenImports: [],
  });
  expect(problems.files).toBeGreaterThan(50);
});
