import { describe, expect, it } from "vitest";
import { DemoModelProvider } from "./demo-provider.js";
import { OpenAICompatibleProvider } from "./openai-provider.js";
import { createModelProvider, DEFAULT_OPENAI_MODEL, describeModelProvider } from "./resolve-provider.js";

describe("createModelProvider", () => {
  it("uses the demo model when nothing is configured, and says so", () => {
    const provider = createModelProvider({ sources: {} });
    expect(provider).toBeInstanceOf(DemoModelProvider);
    expect(provider.isDemo).toBe(true);
    expect(describeModelProvider(provider)).toBe(
      "demo model (set OPENAI_BASE_URL or OPENAI_API_KEY, and OPENAI_MODEL, to use a real one)",
    );
  });

  it("keeps the demo model when only OPENAI_MODEL is set (no server to send it to), as the README says", () => {
    expect(createModelProvider({ model: "qwen-plus", sources: {} }).isDemo).toBe(true);
  });

  it("uses the OpenAI-compatible provider for a base URL, without leaking the key", () => {
    const provider = createModelProvider({
      baseUrl: "http://127.0.0.1:9/v1/",
      apiKey: "sk-secret",
      model: "qwen3",
      sources: {},
    });
    expect(provider).toBeInstanceOf(OpenAICompatibleProvider);
    expect(provider.isDemo).toBe(false);
    expect(provider.model).toBe("qwen3");
    const banner = describeModelProvider(provider);
    expect(banner).toBe('OpenAI-compatible model "qwen3" at http://127.0.0.1:9/v1');
    expect(banner).not.toContain("sk-secret");
  });

  it("uses the OpenAI default base URL and model for a bare API key", () => {
    const provider = createModelProvider({ apiKey: "k", sources: {} });
    expect(provider).toBeInstanceOf(OpenAICompatibleProvider);
    expect(provider.model).toBe(DEFAULT_OPENAI_MODEL);
    expect(describeModelProvider(provider)).toContain("https://api.openai.com/v1");
  });

  it("a model name alone is not a configuration", () => {
    expect(createModelProvider({ model: "m", sources: {} }).isDemo).toBe(true);
  });
});
