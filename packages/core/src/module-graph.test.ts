// Core's architecture, checked: no import cycle between files or folders, no import of the packages above
// it, and a wire contract (protocol/) that needs nothing but zod, so a browser client can take its types and
// the daemon can load it without the agent runtime.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { architectureProblems, forbiddenImports, moduleGraph } from "./testing/module-graph.js";

const root = fileURLToPath(new URL(".", import.meta.url));

describe("core's module graph", () => {
  it("imports one way only, and none of the packages built on it", () => {
    const problems = architectureProblems(root, (pkg) => pkg.startsWith("@qwen-daemon/"));
    expect(problems).toEqual({
      files: expect.any(Number),
      fileCycles: [],
      folderCycles: [],
      forbiddenImports: [],
    });
    expect(problems.files).toBeGreaterThan(50);
  });

  it("keeps the wire contract to itself and zod", () => {
    const graph = moduleGraph(root);
    const protocol = [...graph.files].filter(([file]) => file.startsWith("protocol/"));
    expect(protocol.length).toBeGreaterThan(2);
    for (const [file, deps] of protocol)
      expect(
        deps.filter((d) => !d.startsWith("protocol/")),
        file,
      ).toEqual([]);
    expect(
      forbiddenImports(
        graph,
        (f) => f.startsWith("protocol/"),
        (pkg) => pkg !== "zod",
      ),
    ).toEqual([]);
  });
});
