import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.js";
import { redactSecrets } from "./redact.js";
import { forwardStderr } from "./stderr-forwarder.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("redactSecrets", () => {
  it.each([
    ["Authorization: Bearer abcdef123456", "Authorization: Bearer [REDACTED]"],
    ["calling with bearer abcdef123456 now", "calling with bearer [REDACTED] now"],
    ["key sk-abcdefghijklmnop1234", "key sk-[REDACTED]"],
    ["OPENAI_API_KEY=sk-proj-xyz0123456789", "OPENAI_API_KEY=[REDACTED]"],
    ['{"api_key":"hunter22"}', '{"api_key":"[REDACTED]"}'],
    ["password: p4ssw0rd!", "password: [REDACTED]"],
    ["token ghp_0123456789abcdefABCD", "token [REDACTED]"],
  ])("%s", (line, expected) => {
    expect(redactSecrets(line)).toBe(expected);
  });

  it("redacts given literal secrets and leaves ordinary text alone", () => {
    expect(redactSecrets("the daemon token is zz-literal-zz", ["zz-literal-zz"])).toBe(
      "the daemon token is [REDACTED]",
    );
    expect(redactSecrets("listening on 127.0.0.1:4170")).toBe("listening on 127.0.0.1:4170");
  });
});

describe("LineSplitter", () => {
  it("joins lines across chunks, strips CR, and flushes the unterminated tail", () => {
    const s = new LineSplitter(100);
    expect(s.push(bytes("one\r\ntw"))).toEqual(["one"]);
    expect(s.push(bytes("o\nthr"))).toEqual(["two"]);
    expect(s.end()).toEqual(["thr"]);
    expect(s.end()).toEqual([]);
  });

  it("caps a long line and marks it once, without buffering the excess", () => {
    const s = new LineSplitter(5);
    expect(s.push(bytes("abcdefghij"))).toEqual([]);
    expect(s.push(bytes("klm\nok\n"))).toEqual(["abcde …[truncated]", "ok"]);
  });

  it("decodes multi-byte characters split across chunks", () => {
    const s = new LineSplitter(100);
    const euro = bytes("€\n");
    expect(s.push(euro.slice(0, 1))).toEqual([]);
    expect(s.push(euro.slice(1))).toEqual(["€"]);
  });
});

describe("forwardStderr", () => {
  it("logs each line with the prefix, redacted", async () => {
    const lines: string[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes("starting\nAuthorization: Bearer abcdefgh1234\n"));
        c.enqueue(bytes("last"));
        c.close();
      },
    });
    await forwardStderr(stream, { prefix: "[acp-child 7] ", log: (l) => lines.push(l) });
    expect(lines).toEqual([
      "[acp-child 7] starting",
      "[acp-child 7] Authorization: Bearer [REDACTED]",
      "[acp-child 7] last",
    ]);
  });
});
