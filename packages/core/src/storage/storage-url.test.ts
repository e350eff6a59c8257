import { describe, expect, it } from "vitest";
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
