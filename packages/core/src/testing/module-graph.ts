// The import graph of a package's sources, for the tests that keep each package's architecture honest: no
// import cycle between files, none between folders (a folder is a domain: if two domains import each other
// they are one), and which packages a folder may reach. Reads the files; parses only import/export lines.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface ModuleGraph {
  /** Source file (relative to the root, `.ts`) -> the files it imports (relative imports only). */
  readonly files: ReadonlyMap<string, readonly string[]>;
  /** Source file -> the packages it imports (`zod`, `@qwen-daemon/core/protocol`, `node:fs`). */
  readonly packages: ReadonlyMap<string, readonly string[]>;
}

/** `import ... from "x"`, `export ... from "x"` and `import "x"` (statements, not strings that look alike). */
const IMPORT = /^\s*(?:(?:import|export)\b[^;]*?\bfrom\s*|import\s*)["']([^"']+)["']/gms;

/** Every non-test `.ts` file under `root`, skipping the folders named in `skip` (default: testing, fixtures). */
export function moduleGraph(root: string, skip: readonly string[] = ["testing", "fixtures"]): ModuleGraph {
  const files = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) walk(path);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const specs = [...readFileSync(path, "utf8").matchAll(IMPORT)].map((m) => m[1] as string);
        const file = relative(root, path);
        files.set(
          file,
          specs
            .filter((s) => s.startsWith("."))
            .map((s) => relative(root, resolve(dirname(path), s.replace(/\.js$/, ".ts")))),
        );
        packages.set(
          file,
          specs.filter((s) => !s.startsWith(".")),
        );
      }
    }
  };
  walk(root);
  return { files, packages };
}

/** Each cycle found, as "a.ts → b.ts → a.ts". */
export function fileCycles(graph: ModuleGraph): string[] {
  return cyclesOf(graph.files);
}

/**
 * Cycles between folders: a file's node is its top folder, or the file itself at the root (root files are
 * entry points and wiring, not a domain). `ignore` files (the package's public index) are left out.
 */
export function folderCycles(graph: ModuleGraph, ignore: readonly string[] = ["index.ts"]): string[] {
  const nodeOf = (file: string) => (file.includes("/") ? `${file.split("/")[0]}/` : file);
  const edges = new Map<string, Set<string>>();
  for (const [file, deps] of graph.files) {
    if (ignore.includes(file)) continue;
    const from = nodeOf(file);
    for (const dep of deps) {
      const to = nodeOf(dep);
      if (to === from || ignore.includes(dep)) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  return cyclesOf(new Map([...edges].map(([k, v]) => [k, [...v]])));
}

/** The imports from `files` matching `forbidden` (a package name or prefix), as "file → package". */
export function forbiddenImports(
  graph: ModuleGraph,
  files: (file: string) => boolean,
  forbidden: (pkg: string) => boolean,
): string[] {
  return [...graph.packages].flatMap(([file, pkgs]) =>
    files(file) ? pkgs.filter(forbidden).map((pkg) => `${file} → ${pkg}`) : [],
  );
}

function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, "visiting" | "done">();
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "visiting") {
      cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "visiting");
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of edges.keys()) visit(node, []);
  return cycles;
}

/**
 * What a package's architecture test checks, in one call: its file and folder cycles, and the imports of
 * packages it must never reach. Every list is empty when all is well; `files` shows the graph was read.
 */
export function architectureProblems(root: string, forbidden: (pkg: string) => boolean) {
  const graph = moduleGraph(root);
  return {
    files: graph.files.size,
    fileCycles: fileCycles(graph),
    folderCycles: folderCycles(graph),
    forbiddenImports: forbiddenImports(graph, () => true, forbidden),
  };
}
