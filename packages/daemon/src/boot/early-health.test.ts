import { describe, expect, it } from "vitest";
import { answersEarly } from "./early-health.js";

const get = (url: string, headers: { host?: string; origin?: string } = { host: "127.0.0.1:4170" }) => ({
  method: "GET",
  url,
  headers,
});

describe("answersEarly", () => {
  it("answers GET /health (with or without a query) from a loopback Host on a loopback bind", () => {
    expect(answersEarly(get("/health"), "127.0.0.1")).toBe(true);
    expect(answersEarly(get("/health?probe=1"), "127.0.0.1")).toBe(true);
    expect(answersEarly(get("/health", { host: "localhost:4170" }), "127.0.0.1")).toBe(true);
    expect(answersEarly(get("/health", { host: "[::1]:4170" }), "::1")).toBe(true);
  });

  it("leaves to the app what the app might answer differently", () => {
    expect(answersEarly({ ...get("/health"), method: "HEAD" }, "127.0.0.1")).toBe(false);
    expect(answersEarly({ ...get("/health"), method: "POST" }, "127.0.0.1")).toBe(false);
    expect(answersEarly(get("/health/"), "127.0.0.1")).toBe(false);
    expect(answersEarly(get("/capabilities"), "127.0.0.1")).toBe(false);
    // The origin guard decides about browsers, the host guard about foreign or missing Host headers.
    expect(answersEarly(get("/health", { host: "127.0.0.1", origin: "http://127.0.0.1" }), "127.0.0.1")).toBe(
      false,
    );
    expect(answersEarly(get("/health", { host: "evil.example" }), "127.0.0.1")).toBe(false);
    expect(answersEarly(get("/health", {}), "127.0.0.1")).toBe(false);
  });

  it("accepts the bound name itself and any Host on a non-loopback bind, like the host guard", () => {
    expect(answersEarly(get("/health", { host: "devbox.localhost" }), "devbox.localhost")).toBe(true);
    expect(answersEarly(get("/health", { host: "evil.example" }), "0.0.0.0")).toBe(true);
  });
});
