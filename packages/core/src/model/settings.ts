// Which model to talk to: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL from the environment, else the same
// keys in `$QWEN_HOME/settings.json` (inside its "env" block, like the reference, or at the top level).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const MODEL_SETTING_KEYS = {
  baseUrl: "OPENAI_BASE_URL",
  apiKey: "OPENAI_API_KEY",
  model: "OPENAI_MODEL",
} as const;
type Field = keyof typeof MODEL_SETTING_KEYS;

const optionalString = z.string().optional();
const keyShape = {
  OPENAI_BASE_URL: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: optionalString,
};

/**
 * One model a session may switch to, in the shape qwen-code's settings.json lists them under
 * `modelProviders.openai[]`: `id` is the model name sent to the server; `baseUrl` and `envKey` (the name of
 * the environment variable holding its API key) default to the configured server's.
 */
export const ModelChoice = z.looseObject({
  id: z.string().trim().min(1),
  name: optionalString,
  description: optionalString,
  baseUrl: optionalString,
  envKey: optionalString,
});
export type ModelChoice = z.infer<typeof ModelChoice>;

/** The part of settings.json this module reads; every other key is left to its owner. */
export const ModelSettingsFile = z.looseObject({
  ...keyShape,
  env: z.looseObject(keyShape).optional(),
  // Read entry by entry below: one malformed entry is skipped, as qwen-code skips it, not fatal.
  modelProviders: z.looseObject({ openai: z.array(z.unknown()).optional() }).optional(),
});
export type ModelSettingsFile = z.infer<typeof ModelSettingsFile>;

export type ModelConfigSource = "env" | "settings";

export interface ModelConfig {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** Where each value came from (for the banner; never print the key itself). */
  sources: Partial<Record<Field, ModelConfigSource>>;
  /** The settings file consulted, when it exists. */
  settingsPath?: string;
  /** Further models from `modelProviders.openai[]` (first of each id wins; the configured one not repeated). */
  choices?: ModelChoice[];
}

export class ModelConfigError extends Error {
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelConfigError";
    this.path = path;
  }
}

export interface ResolveModelConfigInput {
  env: Readonly<Record<string, string | undefined>>;
  /** The QWEN_HOME directory; without it no settings file is read. */
  qwenHome?: string;
  /** Reads a file as UTF-8, undefined when it does not exist. Defaults to the real file system. */
  readFile?: (path: string) => string | undefined;
}

export function settingsFilePath(qwenHome: string): string {
  return join(qwenHome, "settings.json");
}

function readFileIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (caught) {
    if (caught && typeof caught === "object" && "code" in caught && caught.code === "ENOENT")
      return undefined;
    throw new ModelConfigError(path, `Cannot read settings file ${path}: ${String(caught)}`, {
      cause: caught,
    });
  }
}

function loadSettings(
  path: string,
  read: (path: string) => string | undefined,
): ModelSettingsFile | undefined {
  const text = read(path);
  if (text === undefined || text.trim() === "") return text === undefined ? undefined : {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (caught) {
    const why = caught instanceof Error ? caught.message : String(caught);
    throw new ModelConfigError(path, `Settings file ${path} is not valid JSON: ${why}`, { cause: caught });
  }
  const parsed = ModelSettingsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(top level)";
    throw new ModelConfigError(
      path,
      `Settings file ${path} is invalid at ${where}: ${issue?.message ?? "bad shape"}`,
    );
  }
  return parsed.data;
}

const nonEmpty = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);

/** Environment first, then settings "env", then settings top level; each key on its own; blanks count as unset. */
export function resolveModelConfig(input: ResolveModelConfigInput): ModelConfig {
  const path = input.qwenHome ? settingsFilePath(input.qwenHome) : undefined;
  const settings = path ? loadSettings(path, input.readFile ?? readFileIfExists) : undefined;
  const config: ModelConfig = { sources: {}, choices: [] };
  if (settings && path) config.settingsPath = path;
  for (const field of Object.keys(MODEL_SETTING_KEYS) as Field[]) {
    const key = MODEL_SETTING_KEYS[field];
    const fromEnv = nonEmpty(input.env[key]);
    const fromSettings = nonEmpty(settings?.env?.[key]) ?? nonEmpty(settings?.[key]);
    const value = fromEnv ?? fromSettings;
    if (value === undefined) continue;
    config[field] = value;
    config.sources[field] = fromEnv !== undefined ? "env" : "settings";
  }
  config.choices = modelChoicesOf(settings?.modelProviders?.openai ?? [], config.model);
  return config;
}

function modelChoicesOf(entries: readonly unknown[], configured: string | undefined): ModelChoice[] {
  const seen = new Set(configured === undefined ? [] : [configured]);
  const choices: ModelChoice[] = [];
  for (const entry of entries) {
    const parsed = ModelChoice.safeParse(entry);
    if (!parsed.success || seen.has(parsed.data.id)) continue;
    seen.add(parsed.data.id);
    choices.push(parsed.data);
  }
  return choices;
}
