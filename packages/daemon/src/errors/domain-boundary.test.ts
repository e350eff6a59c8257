// The domain speaks in codes, the edge in statuses: nothing under sessions/, permission/ or bridge/ (tests
// included) imports the HTTP edge, so the domain can be driven by anything that is not HTTP.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SRC = fileURLToPath(new URL("..", import.meta.url));
const DOMAIN = ["sessions", "permission", "bridge"];

/** `from "…/http/…"` imports (static or dynamic) in one file. */
export function httpImports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(?)\s*["']([^"']*\/http\/[^"']*)["']/g)].map(
    (m) => m[1] as string,
  );
}

function* tsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

it("recognises an import of the HTTP edge", () => {
  expect(
    httpImports('import { x } from "../http/errors.js";\nconst y = await import("../http/a.js");'),
  ).toEqual(["../http/errors.js", "../http/a.js"]);
  expect(httpImports('import { x } from "../errors/domain-errors.js";')).toEqual([]);
});

it("sessions, permission and bridge never import http/", () => {
  const found: string[] = [];
  for (const folder of DOMAIN) {
    for (const file of tsFiles(join(SRC, folder))) {
      for (const target of httpImports(readFileSync(file, "utf8")))
        found.push(`${file.slice(SRC.length)} -> ${target}`);
    }
  }
  expect(found).toEqual([]);
});
