import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ModelConfigError, resolveModelConfig } from "./settings.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function home(settings?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "qwen-home-"));
  dirs.push(dir);
  if (settings !== undefined) writeFileSync(join(dir, "settings.json"), settings);
  return dir;
}

describe("model choices (modelProviders.openai[])", () => {
  it("lists the entries in order: first of each id, the configured model and malformed entries skipped", () => {
    const qwenHome = home(
      JSON.stringify({
        OPENAI_MODEL: "main",
        modelProviders: {
          openai: [
            { id: "fast", name: "Fast one", baseUrl: "http://other/v1", envKey: "OTHER_KEY" },
            { id: "main", name: "again" },
            { name: "no id" },
            "junk",
            { id: "fast", name: "duplicate" },
            { id: "deep", description: "Thinks longer", generationConfig: { temperature: 0 } },
          ],
          anthropic: [{ id: "not-ours" }],
        },
      }),
    );
    const config = resolveModelConfig({ env: {}, qwenHome });
    expect(config.model).toBe("main");
    expect((config.choices ?? []).map((c) => [c.id, c.name ?? "", c.description ?? ""])).toEqual([
      ["fast", "Fast one", ""],
      ["deep", "", "Thinks longer"],
    ]);
    expect(config.choices?.[0]).toMatchObject({ baseUrl: "http://other/v1", envKey: "OTHER_KEY" });
  });
});

describe("resolveModelConfig", () => {
  it("is empty with no env and no settings file", () => {
    expect(resolveModelConfig({ env: {}, qwenHome: home() })).toEqual({ sources: {}, choices: [] });
  });

  it("reads the environment, ignoring blanks", () => {
    const config = resolveModelConfig({
      env: { OPENAI_BASE_URL: "http://x/v1", OPENAI_API_KEY: " ", OPENAI_MODEL: "m" },
    });
    expect(config).toEqual({
      baseUrl: "http://x/v1",
      model: "m",
      sources: { baseUrl: "env", model: "env" },
      choices: [],
    });
  });

  it("falls back per key to settings.json: env block first, then top level", () => {
    const qwenHome = home(
      JSON.stringify({
        OPENAI_MODEL: "top-model",
        OPENAI_API_KEY: "top-key",
        env: { OPENAI_API_KEY: "env-block-key" },
        ui: { theme: "dark" },
      }),
    );
    const config = resolveModelConfig({ env: { OPENAI_BASE_URL: "http://env/v1" }, qwenHome });
    expect(config).toEqual({
      baseUrl: "http://env/v1",
      apiKey: "env-block-key",
      model: "top-model",
      sources: { baseUrl: "env", apiKey: "settings", model: "settings" },
      settingsPath: join(qwenHome, "settings.json"),
      choices: [],
    });
  });

  it("lets the environment win over the settings file", () => {
    const qwenHome = home(JSON.stringify({ env: { OPENAI_MODEL: "from-file" } }));
    expect(resolveModelConfig({ env: { OPENAI_MODEL: "from-env" }, qwenHome }).model).toBe("from-env");
  });

  it("names the file when it is not JSON", () => {
    const qwenHome = home("{ not json");
    const attempt = () => resolveModelConfig({ env: {}, qwenHome });
    expect(attempt).toThrowError(ModelConfigError);
    expect(attempt).toThrowError(join(qwenHome, "settings.json"));
  });

  it("names the file and key when a value has the wrong type", () => {
    const qwenHome = home(JSON.stringify({ env: { OPENAI_MODEL: 42 } }));
    expect(() => resolveModelConfig({ env: {}, qwenHome })).toThrowError(
      /settings\.json is invalid at env\.OPENAI_MODEL/,
    );
  });

  it("uses an injected reader", () => {
    const read = (path: string) =>
      path === "/h/settings.json" ? '{"OPENAI_BASE_URL":"http://r/v1"}' : undefined;
    expect(resolveModelConfig({ env: {}, qwenHome: "/h", readFile: read }).baseUrl).toBe("http://r/v1");
  });
});
