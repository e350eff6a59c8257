import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { describeSharedStorageContract } from "../../testing/shared-storage-contract.js";
import { describeSessionStorageContract } from "../../testing/storage-contract.js";
import { redactStorageUrl } from "../storage-url.js";
import { postgresSessionStorage } from "./postgres-storage.js";
import { createTestDatabase } from "./testing/test-database.js";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const serverUrl = inject("postgresUrl");
const WORKER = fileURLToPath(new URL("./testing/append-worker.ts", import.meta.url));
const TSX = createRequire(import.meta.url).resolve("tsx");

describeSessionStorageContract(
  "PostgreSQL",
  async () => {
    const db = await createTestDatabase(serverUrl);
    let commits = 0;
    const storage = postgresSessionStorage({ url: db.url, onDurable: () => commits++ });
    return {
      storage,
      syncs: () => commits,
      async damage(key, kind, how) {
        // What a log copied or restored badly would hold: a last item cut short, or an item that is not JSON.
        await db.query(
          `WITH head AS (
             INSERT INTO qwen_log_head AS h (cwd, session_id, kind, last_seq) VALUES ($1, $2, $3, 1)
             ON CONFLICT (cwd, session_id, kind) DO UPDATE SET last_seq = h.last_seq + 1 RETURNING last_seq)
           INSERT INTO qwen_log_item (cwd, session_id, kind, seq, item) SELECT $1, $2, $3, last_seq, $4 FROM head`,
          [key.cwd, key.sessionId, kind, how === "torn" ? '{"n": 7, "text": "cut sh' : "not json at all"],
        );
      },
      async dispose() {
        await storage.close();
        await db.drop();
      },
    };
  },
  { describe, it },
);

describeSharedStorageContract(
  "PostgreSQL",
  async () => {
    const db = await createTestDatabase(serverUrl);
    return {
      open: (owner, leaseMs) =>
        postgresSessionStorage({
          url: db.url,
          ...(owner === undefined ? {} : { owner }),
          ...(leaseMs === undefined ? {} : { leaseMs }),
        }),
      appendFromProcess: (key, tag, count) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ["--import", TSX, WORKER, db.url, key.cwd, key.sessionId, tag, String(count)],
            { stdio: ["ignore", "ignore", "pipe"] },
          );
          let stderr = "";
          child.stderr.on("data", (chunk) => {
            stderr += chunk;
          });
          child.on("error", reject);
          child.on("exit", (code) =>
            code === 0 ? resolve() : reject(new Error(`append worker exited ${code}: ${stderr}`)),
          );
        }),
      dispose: () => db.drop(),
    };
  },
  { describe, it },
);

describe("PostgreSQL storage: schema and errors", () => {
  it("creates the schema once when several processes' storages start at once, and again finds it done", async () => {
    const db = await createTestDatabase(serverUrl);
    const storages = Array.from({ length: 4 }, () => postgresSessionStorage({ url: db.url }));
    try {
      await Promise.all(storages.map((s) => s.ready()));
      const again = postgresSessionStorage({ url: db.url });
      storages.push(again);
      await again.ready();
      await again.log({ cwd: "/w", sessionId: "s" }, "transcript", (v) => v).append({ n: 1 });
    } finally {
      await Promise.all(storages.map((s) => s.close()));
      await db.drop();
    }
  });

  it("refuses a database migrated by a newer release", async () => {
    const db = await createTestDatabase(serverUrl);
    const storage = postgresSessionStorage({ url: db.url });
    try {
      await storage.ready();
      await db.query("UPDATE qwen_schema SET version = 999");
      const newer = postgresSessionStorage({ url: db.url });
      await expect(newer.ready()).rejects.toThrow(/version 999, newer than this release/);
      await newer.close();
    } finally {
      await storage.close();
      await db.drop();
    }
  });

  it("never shows the password in its errors", async () => {
    const url = new URL(serverUrl);
    url.password = "wrong-secret-password";
    const storage = postgresSessionStorage({ url: url.toString() });
    const error = await storage.ready().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await storage.close();
    expect(error?.message).toMatch(/password authentication failed/);
    expect(error?.message).not.toContain("wrong-secret-password");
    expect(redactStorageUrl(url.toString())).not.toContain("wrong-secret-password");
  });
});
