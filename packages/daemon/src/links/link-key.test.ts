import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureLinkKey, LinkKey, linkKeyPath, rotateLinkKey } from "./link-key.js";

describe("the link key", () => {
  it("is made once with mode 0600, kept by later calls, and replaced by a rotation", async () => {
    const root = mkdtempSync(join(tmpdir(), "link-key-"));
    const path = linkKeyPath(root);
    const key = new LinkKey(path);
    expect(key.current()).toBeUndefined();
    expect(await ensureLinkKey(path, { root })).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const first = key.current();
    expect(first).toHaveLength(32);
    expect(await ensureLinkKey(path, { root })).toBe(false);
    expect(key.current()).toEqual(first);
    await rotateLinkKey(path, { root });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(key.current()).not.toEqual(first);
    expect(readFileSync(path, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it("two daemons starting at once agree on one key", async () => {
    const root = mkdtempSync(join(tmpdir(), "link-key-"));
    const path = linkKeyPath(root);
    const made = await Promise.all([
      ensureLinkKey(path, { root }),
      ensureLinkKey(path, { root }),
      ensureLinkKey(path, { root }),
    ]);
    expect(made.filter(Boolean)).toHaveLength(1);
  });
});
