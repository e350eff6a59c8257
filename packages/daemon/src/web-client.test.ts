import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { webClientRoot } from "./web-client.js";

describe("webClientRoot", () => {
  it("finds the web client's build (in a checkout: apps/web/dist) with its index.html", () => {
    const root = webClientRoot();
    expect(root).toBeDefined();
    expect(existsSync(join(root as string, "index.html"))).toBe(true);
    expect(existsSync(join(root as string, "app.js"))).toBe(true);
  });
});
