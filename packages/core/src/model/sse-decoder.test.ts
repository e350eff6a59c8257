import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseDecoder } from "./sse-decoder.js";

describe("SseDecoder", () => {
  it("yields data payloads, skips comments and other fields, joins multi-line data", () => {
    const d = new SseDecoder();
    expect(d.push(": keep-alive\n\nevent: x\ndata: a\n\ndata: b\ndata: c\n\n")).toEqual(["a", "b\nc"]);
  });

  it("handles CRLF and a CR split across pushes", () => {
    const d = new SseDecoder();
    expect(d.push("data: one\r")).toEqual([]);
    expect(d.push("\n\r\ndata:two\r\r")).toEqual(["one"]); // the last CR might still become CRLF
    expect(d.push("\n")).toEqual(["two"]);
  });

  it("flushes a last event without its blank line at end", () => {
    const d = new SseDecoder();
    expect(d.push("data: [DONE]")).toEqual([]);
    expect(d.end()).toEqual(["[DONE]"]);
  });

  it("gives the same events however the input is split", () => {
    const stream = 'data: {"a":1}\n\n: ping\r\n\r\ndata: x\r\ndata: y\r\n\r\ndata: [DONE]\n\n';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const d = new SseDecoder();
        const out: string[] = [];
        let from = 0;
        for (const p of [...points, stream.length]) {
          out.push(...d.push(stream.slice(from, p)));
          from = p;
        }
        out.push(...d.end());
        expect(out).toEqual(['{"a":1}', "x\ny", "[DONE]"]);
      }),
    );
  });
});
