import { describe, expect, it } from "vitest";
import { absoluteStorageValue, agentStorageEnv, STORAGE_ENV } from "./storage-env.js";
import {
  describeStorage,
  InvalidStorageUrlError,
  parseStorageUrl,
  redactStorageSecrets,
  redactStorageUrl,
} from "./storage-url.js";

const HOME = "/home/u/.qwen";

describe("parseStorageUrl", () => {
  it("defaults to JSONL under QWEN_HOME", () => {
    expect(parseStorageUrl(undefined, HOME)).toEqual({ kind: "jsonl", root: HOME });
    expect(parseStorageUrl("  ", HOME)).toEqual({ kind: "jsonl", root: HOME });
  });

  it("takes a plain path or a file: URL as a JSONL folder", () => {
    expect(parseStorageUrl("/srv/qwen", HOME)).toEqual({ kind: "jsonl", root: "/srv/qwen" });
    expect(parseStorageUrl("file:///srv/qwen%20x", HOME)).toEqual({ kind: "jsonl", root: "/srv/qwen x" });
    expect(parseStorageUrl("rel/dir", HOME)).toEqual({ kind: "jsonl", root: `${process.cwd()}/rel/dir` });
  });

  it("takes postgres:// and postgresql:// URLs as PostgreSQL", () => {
    for (const url of ["postgres://u:p@db:5432/qwen", "postgresql://db/qwen?sslmode=require"]) {
      expect(parseStorageUrl(url, HOME)).toEqual({ kind: "postgres", url });
    }
  });

  it("refuses other schemes and broken URLs without showing the password", () => {
    expect(() => parseStorageUrl("mysql://u:hunter22@db/x", HOME)).toThrow(InvalidStorageUrlError);
    expect(() => parseStorageUrl("mysql://u:hunter22@db/x", HOME)).toThrow(/unsupported scheme "mysql:"/);
    expect(() => parseStorageUrl("mysql://u:hunter22@db/x", HOME)).not.toThrow(/hunter22/);
    expect(() => parseStorageUrl("postgres://u:hunter22@[bad/x", HOME)).toThrow(InvalidStorageUrlError);
    expect(() => parseStorageUrl("postgres://u:hunter22@[bad/x", HOME)).not.toThrow(/hunter22/);
  });
});

describe("redaction", () => {
  it("hides the password of a URL and password parameters", () => {
    expect(redactStorageUrl("postgres://qwen:s3cr%40t@db:5432/q")).toBe("postgres://qwen:***@db:5432/q");
    expect(redactStorageUrl("postgres://db/q?user=x&password=s3cret&sslmode=require")).toBe(
      "postgres://db/q?user=x&password=***&sslmode=require",
    );
    expect(redactStorageUrl("postgres://db/q")).toBe("postgres://db/q");
    expect(describeStorage({ kind: "postgres", url: "postgres://a:b@h/d" })).toBe("postgres://a:***@h/d");
    expect(describeStorage({ kind: "jsonl", root: "/x" })).toBe("jsonl:/x");
  });

  it("takes the password out of any text", () => {
    const target = { kind: "postgres", url: "postgres://qwen:s3cr%40t@db/q" } as const;
    expect(redactStorageSecrets("failed for postgres://qwen:s3cr%40t@db/q (s3cr@t)", target)).toBe(
      "failed for postgres://qwen:***@db/q (***)",
    );
  });
});

describe("what an agent is given", () => {
  it("a relative folder made absolute against the daemon's folder; URLs and absolute paths as they are", () => {
    expect(absoluteStorageValue("data/sessions", "/srv/qwen")).toBe("/srv/qwen/data/sessions");
    expect(absoluteStorageValue("/var/qwen", "/srv")).toBe("/var/qwen");
    expect(absoluteStorageValue("postgres://u:p@db/x", "/srv")).toBe("postgres://u:p@db/x");
    expect(absoluteStorageValue("file:///var/qwen", "/srv")).toBe("file:///var/qwen");
  });

  it("the URL, the owner and the lease, in the environment (the agent then opens the same storage)", () => {
    const env = agentStorageEnv("postgres://u:p@db/x", { id: "daemon_1", url: "http://h:4170" }, 2000);
    expect(env).toEqual({
      QWEN_STORAGE_URL: "postgres://u:p@db/x",
      QWEN_STORAGE_OWNER_ID: "daemon_1",
      QWEN_STORAGE_OWNER_URL: "http://h:4170",
      QWEN_SESSION_LEASE_MS: "2000",
    });
    expect(parseStorageUrl(env[STORAGE_ENV.url], "/home")).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db/x",
    });
  });
});
