// Production choice of model: a configured OpenAI-compatible server, or the built-in demo model so the
// daemon works out of the box. The one place that turns a ModelConfig into a ModelProvider.
import { DEMO_DESCRIPTION, DemoModelProvider, type DemoProviderOptions } from "./demo-provider.js";
import { OpenAICompatibleProvider, type OpenAIProviderOptions } from "./openai-provider.js";
import type { ModelProvider } from "./provider.js";
import type { ModelConfig } from "./settings.js";

/** Used when a server is configured without OPENAI_MODEL (single-model servers such as llama.cpp ignore it). */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export interface CreateModelProviderOptions {
  /** Extra options for the OpenAI provider (retry policy, onRetry logging, ...). */
  openai?: Omit<OpenAIProviderOptions, "baseUrl" | "apiKey" | "model">;
  demo?: DemoProviderOptions;
}

/** True when the config names a real model server (a base URL or an API key). */
export function hasConfiguredModel(config: ModelConfig): boolean {
  return config.baseUrl !== undefined || config.apiKey !== undefined;
}

export function createModelProvider(
  config: ModelConfig,
  options: CreateModelProviderOptions = {},
): ModelProvider {
  if (!hasConfiguredModel(config)) return new DemoModelProvider(options.demo);
  return new OpenAICompatibleProvider({
    ...options.openai,
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model ?? DEFAULT_OPENAI_MODEL,
  });
}

/** The startup banner line for a provider. */
export function describeModelProvider(provider: ModelProvider): string {
  if (provider.describe) return provider.describe();
  return provider.isDemo ? DEMO_DESCRIPTION : `${provider.id} model "${provider.model}"`;
}
