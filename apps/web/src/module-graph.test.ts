// The client's architecture, checked: no import cycle among its modules, main.ts imported by nobody, and
// the session logic (session/, sessions/, interactions/, conversation/, net/) never importing a view, so
// the controller stays testable without a DOM.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "testing" ? [] : sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?"(\.[^"]+)"/gms)].map((m) =>
    relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, ".ts"))),
  );
}

const graph = new Map(sources(SRC).map((f) => [relative(SRC, f), importsOf(f)]));

describe("module graph", () => {
  it("has every relative import resolving to a module of the client", () => {
    for (const [file, deps] of graph)
      for (const dep of deps) expect(graph.has(dep), `${file} → ${dep}`).toBe(true);
  });

  it("has no import cycle", () => {
    const state = new Map<string, "visiting" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "visiting");
      for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("keeps the logic free of views: only main and the notification edge import them", () => {
    const offenders = [...graph].flatMap(([file, deps]) =>
      file.startsWith("views/") || file === "main.ts" || file.startsWith("attention/browser-")
        ? []
        : deps.filter((d) => d.startsWith("views/") || d === "main.ts").map((d) => `${file} → ${d}`),
    );
    expect(offenders).toEqual([]);
    expect([...graph.values()].some((deps) => deps.includes("main.ts"))).toBe(false);
    expect(graph.size).toBeGreaterThan(20);
  });
});
