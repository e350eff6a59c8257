import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputCap } from "./output-cap.js";

describe("OutputCap", () => {
  it("keeps everything under the cap", () => {
    const cap = new OutputCap(10);
    cap.push(Buffer.from("abc"));
    cap.push(Buffer.from("defgh"));
    expect(cap.text()).toBe("abcdefgh");
    expect(cap.omittedBytes).toBe(0);
  });

  it("keeps head and tail halves and counts what it dropped", () => {
    const cap = new OutputCap(6);
    for (const piece of ["ab", "cdef", "ghij", "kl"]) cap.push(Buffer.from(piece));
    expect(cap.text()).toBe("abc\n[... 6 bytes of output omitted ...]\njkl");
    expect(cap.omittedBytes).toBe(6);
  });

  it("does not break a character cut between head and tail when nothing is omitted", () => {
    const cap = new OutputCap(10); // halves of 5 bytes: "abcd" + the first byte of "€" go to the head
    cap.push(Buffer.from("abcd€"));
    expect(cap.text()).toBe("abcd€");
  });

  it("head + omitted + tail always accounts for every byte (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 64 }),
        fc.array(fc.uint8Array({ maxLength: 40 })),
        (max, chunks) => {
          const cap = new OutputCap(max);
          let total = 0;
          for (const c of chunks) {
            cap.push(Buffer.from(c));
            total += c.length;
          }
          expect(cap.omittedBytes).toBe(Math.max(0, total - Math.floor(max / 2) * 2));
        },
      ),
    );
  });
});
