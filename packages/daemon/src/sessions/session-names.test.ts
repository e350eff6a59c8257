import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonlSessionStorage, namesPath } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { storedSessionNames } from "./session-names.js";

const cwd = "/work/project";
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("storedSessionNames", () => {
  it("keeps the last name given, fsynced before set resolves, read back by a fresh store", async () => {
    const root = mkdtempSync(join(tmpdir(), "qwen-names-"));
    roots.push(root);
    const synced: string[] = [];
    const names = storedSessionNames(jsonlSessionStorage(root, { onSync: (path) => synced.push(path) }));
    expect(await names.get(cwd, "s-1")).toBeUndefined();
    await names.set(cwd, "s-1", "Install docs", 0);
    expect(synced).toEqual([namesPath(root, cwd, "s-1")]);
    await names.set(cwd, "s-1", "Install docs, v2", 1);
    const again = storedSessionNames(jsonlSessionStorage(root));
    expect(await again.get(cwd, "s-1")).toBe("Install docs, v2");
    expect(await again.get(cwd, "s-2")).toBeUndefined();
  });
});
