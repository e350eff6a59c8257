import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

  it("concurrent first uses leave one valid key that every reader sees; a file holding no key is replaced", async () => {
    const root = mkdtempSync(join(tmpdir(), "link-key-"));
    const path = linkKeyPath(root);
    const made = await Promise.all([ensureLinkKey(path, { root }), ensureLinkKey(path, { root })]);
    expect(made).toContain(true);
    const key = new LinkKey(path).current();
    expect(key).toHaveLength(32);
    writeFileSync(path, "not a key\n");
    expect(new LinkKey(path).current()).toBeUndefined();
    expect(await ensureLinkKey(path, { root })).toBe(true);
    expect(new LinkKey(path).current()).toHaveLength(32);
  });
});
