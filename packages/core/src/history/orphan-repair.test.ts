import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import {
  danglingCallIds,
  ORPHAN_TOOL_RESULT_TEXT,
  REPLAY_MISSING_TOOL_RESULT_TEXT,
  repairOrphanedToolCalls,
  repairOrphanedToolCallsWithReport,
  syntheticToolResponsePart,
} from "./orphan-repair.js";

const call = (id: string | undefined, name = "read_file"): Part => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: {} },
});
const resp = (id: string | undefined, output = `out-${id}`, name = "read_file"): Part => ({
  functionResponse: { ...(id === undefined ? {} : { id }), name, response: { output } },
});
const synth = (id: string, name = "read_file"): Part => ({
  functionResponse: { id, name, response: { error: ORPHAN_TOOL_RESULT_TEXT } },
});
const model = (...parts: Part[]): Content => ({ role: "model", parts });
const user = (...parts: Part[]): Content => ({ role: "user", parts });
const text = (t: string): Part => ({ text: t });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("exact texts", () => {
  it("orphan and replay texts", () => {
    expect(ORPHAN_TOOL_RESULT_TEXT).toBe(
      "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.",
    );
    expect(REPLAY_MISSING_TOOL_RESULT_TEXT).toBe(
      "Tool result missing from saved history; the previous run likely ended before this tool completed.",
    );
  });
  it("synthetic response shape", () => {
    expect(syntheticToolResponsePart("c1", "edit")).toEqual({
      functionResponse: {
        id: "c1",
        name: "edit",
        response: {
          error:
            "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.",
        },
      },
    });
  });
});

describe("repairOrphanedToolCalls", () => {
  it("leaves a well-formed history equal", () => {
    const h = [
      user(text("hi")),
      model(call("a"), call("b")),
      user(resp("a"), resp("b")),
      model(text("done")),
    ];
    expect(repairOrphanedToolCalls(h)).toEqual(h);
    expect(repairOrphanedToolCallsWithReport(h)).toMatchObject({
      synthesized: [],
      moved: [],
      droppedDuplicates: [],
      droppedOrphans: [],
    });
  });

  it("shares unchanged entries and returns a new array", () => {
    const h = [user(text("hi")), model(text("yo"))];
    const out = repairOrphanedToolCalls(h);
    expect(out).not.toBe(h);
    expect(out[0]).toBe(h[0]);
    expect(out[1]).toBe(h[1]);
  });

  it("answers a trailing dangling call with a new user turn", () => {
    const h = [user(text("hi")), model(text("reading"), call("a", "read_file"))];
    expect(repairOrphanedToolCalls(h)).toEqual([...h, user(synth("a", "read_file"))]);
  });

  it("puts the synthetic response first in the next user turn", () => {
    const h = [model(call("a")), user(text("next prompt"))];
    expect(repairOrphanedToolCalls(h)).toEqual([model(call("a")), user(synth("a"), text("next prompt"))]);
  });

  it("inserts a user turn between a dangling call and the next model turn", () => {
    const h = [model(call("a")), model(text("x"))];
    expect(repairOrphanedToolCalls(h)).toEqual([model(call("a")), user(synth("a")), model(text("x"))]);
  });

  it("answers only the missing calls of a batch, in call order", () => {
    const h = [model(call("a"), call("b"), call("c")), user(resp("b"))];
    expect(repairOrphanedToolCalls(h)).toEqual([
      model(call("a"), call("b"), call("c")),
      user(synth("a"), resp("b"), synth("c")),
    ]);
  });

  it("moves a response from a later turn next to its call and drops the emptied turn", () => {
    const h = [model(call("a")), user(text("p")), model(text("m")), user(resp("a"))];
    const report = repairOrphanedToolCallsWithReport(h);
    expect(report.history).toEqual([model(call("a")), user(resp("a"), text("p")), model(text("m"))]);
    expect(report.moved).toEqual([{ callId: "a", name: "read_file" }]);
    expect(report.synthesized).toEqual([]);
  });

  it("moves a response out of a second consecutive user turn", () => {
    const h = [model(call("a")), user(text("p")), user(resp("a"), text("q"))];
    expect(repairOrphanedToolCalls(h)).toEqual([
      model(call("a")),
      user(resp("a"), text("p")),
      user(text("q")),
    ]);
  });

  it("moves a response sitting in the model turn itself", () => {
    const h = [model(call("a"), resp("a"))];
    expect(repairOrphanedToolCalls(h)).toEqual([model(call("a")), user(resp("a"))]);
  });

  it("drops duplicate responses, keeping the first", () => {
    const h = [
      model(call("a")),
      user(resp("a", "first"), resp("a", "second")),
      model(text("m")),
      user(resp("a", "third")),
    ];
    const report = repairOrphanedToolCallsWithReport(h);
    expect(report.history).toEqual([model(call("a")), user(resp("a", "first")), model(text("m"))]);
    expect(report.droppedDuplicates).toEqual([
      { callId: "a", name: "read_file" },
      { callId: "a", name: "read_file" },
    ]);
  });

  it("drops responses without a call, and responses before their call", () => {
    const h = [user(resp("zz"), text("hi")), model(call("a")), user(resp("a"), resp("nope"))];
    const report = repairOrphanedToolCallsWithReport(h);
    expect(report.history).toEqual([user(text("hi")), model(call("a")), user(resp("a"))]);
    expect(report.droppedOrphans.map((d) => d.callId)).toEqual(["zz", "nope"]);
    const early = [user(resp("a")), model(call("a"))];
    expect(repairOrphanedToolCalls(early)).toEqual([model(call("a")), user(synth("a"))]);
  });

  it("pairs a reused id with the latest call before each response", () => {
    const h = [model(call("a")), user(text("p")), model(call("a")), user(resp("a"))];
    expect(repairOrphanedToolCalls(h)).toEqual([
      model(call("a")),
      user(synth("a"), text("p")),
      model(call("a")),
      user(resp("a")),
    ]);
  });

  it("answers a repeated id within one turn once", () => {
    const h = [model(call("a"), call("a"))];
    expect(repairOrphanedToolCalls(h)).toEqual([model(call("a"), call("a")), user(synth("a"))]);
  });

  it("keeps calls and responses without ids where they are", () => {
    const h = [model(call(undefined)), user(text("p")), user(resp(undefined))];
    expect(repairOrphanedToolCalls(h)).toEqual(h);
    expect(danglingCallIds(h)).toEqual([]);
  });

  it("keeps a user turn that was already empty, and fills it when a call needs it", () => {
    const h = [user(), model(text("x")), user()];
    expect(repairOrphanedToolCalls(h)).toEqual(h);
    expect(repairOrphanedToolCalls([model(call("a")), user(), user()])).toEqual([
      model(call("a")),
      user(synth("a")),
      user(),
    ]);
  });

  it("keeps model turns without parts", () => {
    const h = [user(text("hi")), model()];
    expect(repairOrphanedToolCalls(h)).toEqual(h);
  });

  it("uses the call's name for the synthetic response", () => {
    const h = [model(call("a", "run_shell_command"))];
    expect(repairOrphanedToolCalls(h)[1]).toEqual(user(synth("a", "run_shell_command")));
  });

  describe("preserveCallIds", () => {
    const preserve = new Set(["q1"]);
    it("leaves a preserved trailing call dangling", () => {
      const h = [user(text("hi")), model(call("q1", "ask_user_question"))];
      expect(repairOrphanedToolCalls(h, { preserveCallIds: preserve })).toEqual(h);
    });
    it("still synthesizes the calls that are not preserved", () => {
      const h = [model(call("a")), user(text("p")), model(call("q1", "ask_user_question"), call("b"))];
      expect(repairOrphanedToolCalls(h, { preserveCallIds: preserve })).toEqual([
        model(call("a")),
        user(synth("a"), text("p")),
        model(call("q1", "ask_user_question"), call("b")),
        user(synth("b")),
      ]);
    });
    it("exempts from synthesis only: a real response is still moved and duplicates dropped", () => {
      const h = [model(call("q1")), user(text("p")), user(resp("q1"), resp("q1"))];
      expect(repairOrphanedToolCalls(h, { preserveCallIds: preserve })).toEqual([
        model(call("q1")),
        user(resp("q1"), text("p")),
      ]);
    });
    it("does not close a preserved call followed by a user turn (the per-send pass does)", () => {
      const h = [model(call("q1")), user(text("p"))];
      expect(repairOrphanedToolCalls(h, { preserveCallIds: preserve })).toEqual(h);
      expect(repairOrphanedToolCalls(h)).toEqual([model(call("q1")), user(synth("q1"), text("p"))]);
    });
  });

  it("does not mutate its input", () => {
    const h = deepFreeze([
      model(call("a")),
      user(text("p")),
      model(text("m")),
      user(resp("a"), resp("a"), resp("x")),
    ]);
    const snapshot = structuredClone(h);
    expect(() => repairOrphanedToolCalls(h)).not.toThrow();
    expect(h).toEqual(snapshot);
  });
});

describe("danglingCallIds", () => {
  it("lists calls not answered in the next entry", () => {
    const h = [model(call("a"), call("b")), user(resp("a")), model(call("c")), model(call("d"))];
    expect(danglingCallIds(h)).toEqual(["b", "c", "d"]);
  });
  it("is empty after repair", () => {
    const h = [model(call("a"), call("b")), user(text("p")), model(call("c"))];
    expect(danglingCallIds(repairOrphanedToolCalls(h))).toEqual([]);
  });
});

describe("properties on random histories", () => {
  const ids = fc.constantFrom("a", "b", "c", "d", "e");
  const names = fc.constantFrom("read_file", "ask_user_question", "edit");
  const part: fc.Arbitrary<Part> = fc.oneof(
    fc.string({ maxLength: 3 }).map((t) => ({ text: t })),
    fc
      .record({ id: fc.option(ids, { nil: undefined, freq: 8 }), name: names })
      .map(({ id, name }) => call(id, name)),
    fc
      .record({
        id: fc.option(ids, { nil: undefined, freq: 8 }),
        name: names,
        out: fc.string({ maxLength: 3 }),
      })
      .map(({ id, name, out }) => resp(id, out, name)),
  );
  const entry: fc.Arbitrary<Content> = fc.record({
    role: fc.constantFrom("user" as const, "model" as const),
    parts: fc.array(part, { maxLength: 4 }),
  });
  const history = fc.array(entry, { maxLength: 12 });
  const preserved = fc.uniqueArray(ids, { maxLength: 2 }).map((xs) => new Set<string>(xs));

  const responsesIn = (c: Content | undefined) =>
    (c?.parts ?? []).flatMap((p) => (p.functionResponse?.id ? [p.functionResponse.id] : []));

  it("answers every call exactly once in the very next user turn, except preserved ids", () => {
    fc.assert(
      fc.property(history, preserved, (h, keep) => {
        const out = repairOrphanedToolCalls(h, { preserveCallIds: keep });
        out.forEach((c, i) => {
          if (c.role !== "model") return;
          const next = out[i + 1];
          const answered = next?.role === "user" ? responsesIn(next) : [];
          for (const id of new Set(c.parts.flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : [])))) {
            const count = answered.filter((x) => x === id).length;
            if (keep.has(id)) expect(count).toBeLessThanOrEqual(1);
            else expect(count).toBe(1);
          }
        });
      }),
      { numRuns: 1500 },
    );
  });

  it("leaves no response without its call right before it", () => {
    fc.assert(
      fc.property(history, preserved, (h, keep) => {
        const out = repairOrphanedToolCalls(h, { preserveCallIds: keep });
        out.forEach((c, i) => {
          const got = responsesIn(c);
          if (got.length === 0) return;
          expect(c.role).toBe("user");
          const prev = out[i - 1];
          expect(prev?.role).toBe("model");
          const called = new Set(prev!.parts.flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : [])));
          for (const id of got) expect(called.has(id)).toBe(true);
          expect(new Set(got).size).toBe(got.length);
        });
      }),
      { numRuns: 1500 },
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(history, preserved, (h, keep) => {
        const once = repairOrphanedToolCalls(h, { preserveCallIds: keep });
        expect(repairOrphanedToolCalls(once, { preserveCallIds: keep })).toEqual(once);
      }),
      { numRuns: 1500 },
    );
  });

  it("never synthesizes a preserved id", () => {
    fc.assert(
      fc.property(history, preserved, (h, keep) => {
        const report = repairOrphanedToolCallsWithReport(h, { preserveCallIds: keep });
        for (const s of report.synthesized) expect(keep.has(s.callId)).toBe(false);
        // inputs never carry the orphan text, so any occurrence is synthetic
        for (const c of report.history) {
          for (const p of c.parts) {
            const r = p.functionResponse;
            if (r?.response.error === ORPHAN_TOOL_RESULT_TEXT) expect(keep.has(r.id!)).toBe(false);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("keeps every non-response part, in order, and never mutates the input", () => {
    fc.assert(
      fc.property(history, preserved, (h, keep) => {
        const before = structuredClone(h);
        const out = repairOrphanedToolCalls(deepFreeze(h), { preserveCallIds: keep });
        expect(h).toEqual(before);
        const others = (xs: Content[]) => xs.flatMap((c) => c.parts.filter((p) => !p.functionResponse?.id));
        expect(others(out)).toEqual(others(h));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps a real response for every call that had one after it", () => {
    fc.assert(
      fc.property(history, (h) => {
        const report = repairOrphanedToolCallsWithReport(h);
        const realIn = new Set(
          h.flatMap((c) => c.parts.flatMap((p) => (p.functionResponse?.id ? [p.functionResponse] : []))),
        );
        const realOut = report.history.flatMap((c) =>
          c.parts.flatMap((p) => (p.functionResponse?.id ? [p.functionResponse] : [])),
        );
        const kept = realOut.filter((r) => realIn.has(r)).length;
        expect(kept + report.droppedDuplicates.length + report.droppedOrphans.length).toBe(realIn.size);
      }),
      { numRuns: 1000 },
    );
  });
});
