import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { answersPath, jsonlSessionStorage } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { openFds } from "../testing/open-fds.js";
import { KeptSessionLogs } from "./kept-session-logs.js";

const cwd = "/work/project";
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function storageRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "qwen-kept-logs-"));
  roots.push(root);
  return root;
}
const decode = (value: unknown) => value as { n: number };

describe("KeptSessionLogs", () => {
  it("drops a handle whose write failed, so the next write opens the log afresh", async () => {
    const root = storageRoot();
    const logs = new KeptSessionLogs(jsonlSessionStorage(root), "answers", decode);
    const key = { cwd, sessionId: "s-1" };
    logs.hold(key);
    const chats = dirname(answersPath(root, cwd, "s-1"));
    mkdirSync(dirname(chats), { recursive: true });
    writeFileSync(chats, "not a directory"); // the log cannot be created under it
    await expect(logs.run(key, (log) => log.append({ n: 1 }, { durable: true }))).rejects.toThrow();
    expect(logs.keptCount).toBe(0);
    rmSync(chats);
    await logs.run(key, (log) => log.append({ n: 2 }, { durable: true }));
    expect(logs.keptCount).toBe(1);
    expect((await logs.handle(key).read()).items).toEqual([{ n: 2 }]);
  });

  it("a release waits for the writes queued before it, and reading keeps nothing", async () => {
    const root = storageRoot();
    const logs = new KeptSessionLogs(jsonlSessionStorage(root), "answers", decode);
    const key = { cwd, sessionId: "s-1" };
    expect(await logs.read(key, (log) => log.exists())).toBe(false);
    expect(logs.keptCount).toBe(0);
    logs.hold(key);
    const writes = [1, 2, 3].map((n) => logs.run(key, (log) => log.append({ n }, { durable: true })));
    await logs.release(key);
    await Promise.all(writes);
    expect(logs.keptCount).toBe(0);
    expect(openFds(answersPath(root, cwd, "s-1"))).toBe(0);
    expect((await logs.handle(key).read()).items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
