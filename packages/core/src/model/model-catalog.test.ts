import { describe, expect, it } from "vitest";
import { createModelCatalog } from "./model-catalog.js";
import type { ModelConfig } from "./settings.js";

const config: ModelConfig = {
  baseUrl: "http://main/v1",
  apiKey: "main-key",
  model: "main",
  sources: {},
  choices: [
    { id: "fast", name: "Fast", baseUrl: "http://other/v1", envKey: "OTHER_KEY" },
    { id: "deep", description: "Thinks longer" },
  ],
};

describe("createModelCatalog", () => {
  it("puts the configured model first, then the listed ones, each with its own provider", () => {
    const catalog = createModelCatalog(config, { OTHER_KEY: "other-key" });
    expect(catalog.defaultId).toBe("main");
    expect(catalog.entries).toEqual([
      { id: "main", name: "main" },
      { id: "fast", name: "Fast" },
      { id: "deep", name: "deep", description: "Thinks longer" },
    ]);
    expect(catalog.provider("fast")?.describe?.()).toBe('OpenAI-compatible model "fast" at http://other/v1');
    // Without its own server a listed model uses the configured one.
    expect(catalog.provider("deep")?.describe?.()).toContain('"deep" at http://main/v1');
    expect(catalog.provider("fast")).toBe(catalog.provider("fast"));
    // A listed model whose key variable is unset has no key (never the configured server's key).
    expect(createModelCatalog(config, {}).provider("fast")?.describe?.()).toContain("no API key");
    expect(catalog.provider("unknown")).toBeUndefined();
  });

  it("is the demo model alone when no server is configured", () => {
    const catalog = createModelCatalog({ sources: {}, choices: config.choices }, {});
    expect(catalog.entries).toHaveLength(1);
    expect(catalog.provider(catalog.defaultId)?.isDemo).toBe(true);
    expect(catalog.provider("fast")).toBeUndefined();
  });
});
