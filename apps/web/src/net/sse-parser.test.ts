import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.js";

const parseAll = (chunks: string[]) => {
  const parser = new SseParser();
  return { messages: chunks.flatMap((c) => parser.push(c)), parser };
};

describe("SseParser", () => {
  it("reads the daemon's frames: retry, id, event, data; heartbeats are skipped", () => {
    const { messages, parser } = parseAll([
      "retry: 3000\n\n",
      'id: 1\nevent: session_update\ndata: {"id":1}\n\n',
      ": heartbeat\n\n",
      'event: replay_complete\ndata: {"type":"replay_complete"}\n\n',
    ]);
    expect(messages).toEqual([
      { id: "1", event: "session_update", data: '{"id":1}' },
      { event: "replay_complete", data: '{"type":"replay_complete"}' },
    ]);
    expect(parser.retry).toBe(3000);
  });

  it("joins multi-line data with newlines and defaults the event name to message", () => {
    expect(parseAll(["data: a\ndata:b\ndata\n\n"]).messages).toEqual([{ event: "message", data: "a\nb\n" }]);
  });

  it("accepts CRLF and CR line ends, including a CRLF split between chunks", () => {
    expect(parseAll(["id: 7\r\nevent: x\r", "\ndata: y\r\r"]).messages).toEqual([
      { id: "7", event: "x", data: "y" },
    ]);
  });

  it("does not dispatch a frame without data, and does not carry its fields over", () => {
    expect(parseAll(["id: 3\nevent: lonely\n\ndata: next\n\n"]).messages).toEqual([
      { event: "message", data: "next" },
    ]);
  });

  it("ignores a leading byte-order mark, unknown fields, ids holding NUL and non-numeric retry", () => {
    const { messages, parser } = parseAll(["\uFEFFfoo: bar\nretry: soon\nid: a\0b\ndata: ok\n\n"]);
    expect(messages).toEqual([{ event: "message", data: "ok" }]);
    expect(parser.retry).toBeUndefined();
  });

  it("keeps an incomplete frame until its blank line arrives", () => {
    const parser = new SseParser();
    expect(parser.push("id: 1\ndata: par")).toEqual([]);
    expect(parser.push("tial\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "1", event: "message", data: "partial" }]);
  });

  it("gives the same messages however the stream is cut into chunks", () => {
    const frame = fc.record({
      id: fc.option(fc.integer({ min: 0, max: 1e6 }).map(String), { nil: undefined }),
      event: fc.constantFrom("session_update", "permission_request", "turn_complete"),
      data: fc.string().map((s) => s.replace(/[\r\n]/g, " ")),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (frames, eol, cuts) => {
          const text = frames
            .map(
              (f) =>
                `${f.id !== undefined ? `id: ${f.id}${eol}` : ""}event: ${f.event}${eol}data: ${f.data}${eol}${eol}`,
            )
            .join(`: heartbeat${eol}${eol}`);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let last = 0;
          for (const p of points) {
            chunks.push(text.slice(last, p));
            last = p;
          }
          chunks.push(text.slice(last));
          const expected = frames.map((f) => ({
            ...(f.id !== undefined ? { id: f.id } : {}),
            event: f.event,
            data: f.data,
          }));
          expect(parseAll(chunks).messages).toEqual(expected);
        },
      ),
    );
  });
});
