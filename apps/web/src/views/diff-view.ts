// A file change as a readable diff: the file, whether it is new, +added / −removed, and the changed lines
// with their numbers, coloured and also marked in words for screen readers.
import { lineDiff } from "../conversation/line-diff.js";
import { type FileDiff, relativeToWorkspace } from "../conversation/tool-content.js";
import { h, hidden } from "./dom.js";
import { icon } from "./icons.js";

/** A path as short as it can be read: relative to the workspace when inside it. */
export function displayPath(path: string, workspace: string | undefined): string {
  return path.startsWith(`${workspace}/`) ? relativeToWorkspace(path, workspace) : path;
}

export function diffView(change: FileDiff, workspace: string | undefined): HTMLElement {
  const d = lineDiff(change.path, change.oldText, change.newText);
  const rows = d.rows.map((row) => {
    if (row.kind === "hunk") return h("tr", { class: "hunk" }, h("td", { colspan: 3 }, row.text));
    const sign = row.kind === "added" ? "+" : row.kind === "removed" ? "−" : " ";
    const word = row.kind === "added" ? "added: " : row.kind === "removed" ? "removed: " : "";
    return h(
      "tr",
      { class: row.kind },
      h("td", { class: "ln", "aria-hidden": "true" }, row.oldLine === undefined ? "" : String(row.oldLine)),
      h("td", { class: "ln", "aria-hidden": "true" }, row.newLine === undefined ? "" : String(row.newLine)),
      h(
        "td",
        { class: "code" },
        h("span", { class: "sign", "aria-hidden": "true" }, sign),
        word ? hidden(word) : undefined,
        row.text,
      ),
    );
  });
  return h(
    "figure",
    { class: "diff" },
    h(
      "figcaption",
      { class: "diff-head" },
      icon("file"),
      h("span", { class: "diff-path" }, displayPath(d.path, workspace)),
      d.isNew ? h("span", { class: "tag" }, "new file") : undefined,
      h(
        "span",
        { class: "diff-stat" },
        h("span", { class: "stat-add" }, `+${d.added}`),
        " ",
        h("span", { class: "stat-del" }, `−${d.removed}`),
      ),
    ),
    h("div", { class: "diff-scroll" }, h("table", { class: "diff-table" }, h("tbody", {}, rows))),
    d.hidden > 0 ? h("p", { class: "diff-more muted" }, `… ${d.hidden} more lines not shown.`) : undefined,
  );
}
