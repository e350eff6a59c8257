import { describe, expect, it } from "vitest";
import { errorBodyMessage, errorKindForStatus, modelErrorFromHttp, parseRetryAfterMs } from "./http-error.js";

describe("HTTP errors", () => {
  it("types statuses", () => {
    expect([401, 403, 429, 500, 503, 408, 400, 404, 422].map(errorKindForStatus)).toEqual([
      "auth",
      "auth",
      "rate_limit",
      "server",
      "server",
      "server",
      "bad_request",
      "bad_request",
      "bad_request",
    ]);
  });

  it("reads Retry-After as seconds, HTTP date, or retry-after-ms", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfterMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(
      5000,
    );
    expect(parseRetryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(parseRetryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it("extracts the message of the usual envelope, else the text", () => {
    expect(errorBodyMessage('{"error":{"message":"nope"}}')).toBe("nope");
    expect(errorBodyMessage('{"error":"plain"}')).toBe("plain");
    expect(errorBodyMessage("<html>bad gateway</html>")).toBe("<html>bad gateway</html>");
  });

  it("builds a ModelError with status, kind and retry-after", () => {
    const e = modelErrorFromHttp(
      429,
      "Too Many Requests",
      '{"error":{"message":"slow down"}}',
      new Headers({ "retry-after": "2" }),
      0,
    );
    expect(e.kind).toBe("rate_limit");
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(2000);
    expect(e.message).toBe("Model API returned HTTP 429 Too Many Requests (rate limited): slow down");
  });
});
