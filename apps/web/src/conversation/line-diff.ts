// A file change as rows a person reads: hunks of context, removed and added lines with their numbers in
// the old and new file. The line diff itself is jsdiff's (`structuredPatch`); this shapes it for the view
// and caps what a huge change shows.
import { structuredPatch } from "diff";

export type DiffRow =
  | { kind: "context" | "removed" | "added"; oldLine?: number; newLine?: number; text: string }
  | { kind: "hunk"; text: string };

export type LineDiff = {
  path: string;
  isNew: boolean;
  added: number;
  removed: number;
  rows: DiffRow[];
  /** Rows left out past the cap. */
  hidden: number;
};

export const MAX_DIFF_ROWS = 400;
const CONTEXT_LINES = 3;

export function lineDiff(
  path: string,
  oldText: string | null,
  newText: string,
  maxRows = MAX_DIFF_ROWS,
): LineDiff {
  const patch = structuredPatch(path, path, oldText ?? "", newText, "", "", { context: CONTEXT_LINES });
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    rows.push({
      kind: "hunk",
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === "\\") continue; // "\ No newline at end of file"
      if (sign === "-") {
        removed += 1;
        rows.push({ kind: "removed", oldLine: oldLine++, text });
      } else if (sign === "+") {
        added += 1;
        rows.push({ kind: "added", newLine: newLine++, text });
      } else {
        rows.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text });
      }
    }
  }
  const hidden = Math.max(0, rows.length - maxRows);
  return { path, isNew: oldText === null, added, removed, rows: rows.slice(0, maxRows), hidden };
}
