import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import { activeBranch, historyFromRecords } from "./history.js";
import type { TranscriptRecord } from "./records.js";

const meta = (uuid: string, parentUuid: string | null) => ({
  uuid,
  parentUuid,
  sessionId: "s",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
  version: "1",
});
const user = (uuid: string, parent: string | null, ...parts: Part[]): TranscriptRecord => ({
  ...meta(uuid, parent),
  type: "user",
  message: { role: "user", parts },
});
const model = (uuid: string, parent: string | null, ...parts: Part[]): TranscriptRecord => ({
  ...meta(uuid, parent),
  type: "assistant",
  message: { role: "model", parts },
});
const toolResult = (uuid: string, parent: string | null, ...parts: Part[]): TranscriptRecord => ({
  ...meta(uuid, parent),
  type: "tool_result",
  message: { role: "user", parts },
});
const system = (uuid: string, parent: string | null): TranscriptRecord => ({
  ...meta(uuid, parent),
  type: "system",
  subtype: "turn_result",
});
const text = (t: string): Part => ({ text: t });
const call = (id: string): Part => ({ functionCall: { id, name: "read_file", args: {} } });
const response = (id: string): Part => ({
  functionResponse: { id, name: "read_file", response: { output: id } },
});

/** A linear chain: each record's parent is the one before it. */
function chain(...makers: ((uuid: string, parent: string | null) => TranscriptRecord)[]): TranscriptRecord[] {
  return makers.map((make, i) => make(`r${i}`, i === 0 ? null : `r${i - 1}`));
}

describe("historyFromRecords", () => {
  it("merges same-role neighbours into alternating turns and skips system records", () => {
    const records = chain(
      (u, p) => user(u, p, text("do it")),
      (u, p) => model(u, p, text("reading")),
      (u, p) => model(u, p, call("c1"), call("c2")),
      (u, p) => toolResult(u, p, response("c1")),
      (u, p) => system(u, p),
      (u, p) => toolResult(u, p, response("c2")),
      (u, p) => user(u, p, text("also this")),
      (u, p) => model(u, p, text("done")),
      (u, p) => system(u, p),
    );
    expect(historyFromRecords(records)).toEqual<Content[]>([
      { role: "user", parts: [text("do it")] },
      { role: "model", parts: [text("reading"), call("c1"), call("c2")] },
      { role: "user", parts: [response("c1"), response("c2"), text("also this")] },
      { role: "model", parts: [text("done")] },
    ]);
  });

  it("skips records without parts", () => {
    const records = chain(
      (u, p) => user(u, p, text("a")),
      (u, p) => model(u, p),
      (u, p) => user(u, p, text("b")),
    );
    expect(historyFromRecords(records)).toEqual([{ role: "user", parts: [text("a"), text("b")] }]);
  });

  it("ends in the dangling functionCall a killed daemon leaves", () => {
    const records = chain(
      (u, p) => user(u, p, text("ask")),
      (u, p) => model(u, p, call("q1")),
    );
    expect(historyFromRecords(records).at(-1)).toEqual({ role: "model", parts: [call("q1")] });
  });

  it("never changes the records it reads", () => {
    const records = chain(
      (u, p) => model(u, p, text("a")),
      (u, p) => model(u, p, text("b")),
    );
    const snapshot = structuredClone(records);
    historyFromRecords(records)[0]!.parts.push(text("c"));
    expect(records).toEqual(snapshot);
  });

  it("returns an empty history for no records", () => {
    expect(historyFromRecords([])).toEqual([]);
  });
});

describe("activeBranch", () => {
  it("is the file order when nothing branches, even across a missing parent", () => {
    const records = [user("a", null, text("1")), model("b", "a", text("2")), user("c", "lost", text("3"))];
    expect(activeBranch(records)).toBe(records);
    expect(historyFromRecords(records)).toHaveLength(3);
  });

  it("follows the branch that ends at the last record", () => {
    const a = user("a", null, text("first"));
    const b = model("b", "a", text("old answer"));
    const c = user("c", "b", text("old follow-up"));
    const b2 = model("b2", "a", text("new answer"));
    const d = user("d", "b2", text("new follow-up"));
    expect(activeBranch([a, b, c, b2, d])).toEqual([a, b2, d]);
    expect(historyFromRecords([a, b, c, b2, d])).toEqual([
      { role: "user", parts: [text("first")] },
      { role: "model", parts: [text("new answer")] },
      { role: "user", parts: [text("new follow-up")] },
    ]);
    // The same file with the old branch written last: that one is current.
    expect(activeBranch([a, b2, d, b, c])).toEqual([a, b, c]);
  });

  it("stops at a parent missing from the file", () => {
    const records = [
      user("a", null, text("1")),
      model("b", "a"),
      model("c", "a"),
      user("d", "gone"),
      model("e", "d"),
    ];
    expect(activeBranch(records).map((r) => r.uuid)).toEqual(["d", "e"]);
  });

  it("stops on a cycle of parent links", () => {
    const records = [user("a", "c"), model("b", "a"), user("c", "b"), model("x", "b")];
    expect(activeBranch(records).map((r) => r.uuid)).toEqual(["c", "a", "b", "x"]);
  });
});
