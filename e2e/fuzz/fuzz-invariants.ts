// What must hold after the fuzz run, read from disk: no file outside the places the daemon and its child
// write, and every transcript line JSON.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `root`, as paths relative to it. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/** Lines of the JSONL files under `dir` that are not JSON, as `file:line: text`. */
export function unparsableJsonlLines(dir: string): string[] {
  const bad: string[] = [];
  for (const file of filesUnder(dir).filter((f) => f.endsWith(".jsonl"))) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (line === "" && i === lines.length - 1) return;
      try {
        JSON.parse(line);
      } catch {
        bad.push(`${file}:${i + 1}: ${line.slice(0, 120)}`);
      }
    });
  }
  return bad;
}
