import { describe, expect, it } from "vitest";
import { assertValidSessionId, InvalidSessionIdError, isValidSessionId } from "./session-id.js";

describe("session ids", () => {
  it.each(["a", "0", "abc-DEF_123", "0f8fad5b-d9cb-469f-a165-70867728950e", "session.v2", "a".repeat(128)])(
    "accepts %j",
    (id) => {
      expect(isValidSessionId(id)).toBe(true);
      expect(() => assertValidSessionId(id)).not.toThrow();
    },
  );

  it.each([
    ["../x", "parent traversal"],
    ["a/b", "slash"],
    ["a\\b", "backslash"],
    ["..", "dot-dot"],
    ["a..b", "embedded dot-dot"],
    [".hidden", "leading dot"],
    ["", "empty"],
    ["a".repeat(129), "129 chars"],
    ["a".repeat(200), "200 chars"],
    ["a\0b", "NUL"],
    ["a\0", "trailing NUL"],
    ["-rf", "leading dash"],
    ["a b", "space"],
    ["a\nb", "newline"],
    ["é", "non-ascii"],
    ["x.ledger", "collides with a ledger file name"],
    ["x.LEDGER", "collides with a ledger on case-insensitive disks"],
    ["x.answers", "collides with an answer journal file name"],
    ["x.Answers", "collides with an answer journal on case-insensitive disks"],
    ["x.prompts", "collides with a prompt journal file name"],
    ["x.names", "collides with a names file"],
  ])("rejects %j (%s)", (id) => {
    expect(isValidSessionId(id)).toBe(false);
    expect(() => assertValidSessionId(id)).toThrow(InvalidSessionIdError);
  });

  it("rejects non-strings", () => {
    for (const id of [undefined, null, 42, {}, ["a"]]) expect(isValidSessionId(id)).toBe(false);
  });

  it("names the offending id visibly in the error", () => {
    const error = (() => {
      try {
        assertValidSessionId("a\0/b");
      } catch (e) {
        return e;
      }
    })() as InvalidSessionIdError;
    expect(error).toBeInstanceOf(InvalidSessionIdError);
    expect(error.name).toBe("InvalidSessionIdError");
    expect(error.sessionId).toBe("a\0/b");
    expect(error.message).toContain('"a\\u0000/b"');
  });

  it("keeps a long id out of the message beyond 40 characters", () => {
    expect(() => assertValidSessionId("z".repeat(200))).toThrow(/"z{40}\.\.\." \(length 200\)/);
  });
});
