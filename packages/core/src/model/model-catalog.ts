// The models a session may talk to: the configured one (env / settings) and the others settings list under
// `modelProviders.openai[]`. Each is its own provider, made on first use, so a session that switches models
// sends the next request to that model (its name, server and key).
import type { ModelProvider } from "./provider.js";
import { type CreateModelProviderOptions, createModelProvider } from "./resolve-provider.js";
import type { ModelConfig } from "./settings.js";

/** A model as a client sees it (ACP's select option: value, name, description). */
export interface ModelEntry {
  id: string;
  name: string;
  description?: string;
}

export interface ModelCatalog {
  /** The configured model: what every session starts with. */
  readonly defaultId: string;
  /** The configured model first, then the listed ones in their order. */
  readonly entries: readonly ModelEntry[];
  /** The provider for a listed id, undefined for an id not in `entries`. */
  provider(id: string): ModelProvider | undefined;
}

/** A catalog of one (a provider given by a test, or the demo model). */
export function singleModelCatalog(provider: ModelProvider): ModelCatalog {
  return {
    defaultId: provider.model,
    entries: [{ id: provider.model, name: provider.model }],
    provider: (id) => (id === provider.model ? provider : undefined),
  };
}

export function createModelCatalog(
  config: ModelConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: CreateModelProviderOptions = {},
): ModelCatalog {
  const main = createModelProvider(config, options);
  // The demo model cannot be another model: the listed ones need a server.
  if (main.isDemo) return singleModelCatalog(main);
  const made = new Map<string, ModelProvider>([[main.model, main]]);
  const listed = new Map((config.choices ?? []).map((choice) => [choice.id, choice]));
  return {
    defaultId: main.model,
    entries: [
      { id: main.model, name: main.model },
      ...(config.choices ?? []).map((c) => ({
        id: c.id,
        name: c.name ?? c.id,
        ...(c.description ? { description: c.description } : {}),
      })),
    ],
    provider(id) {
      const known = made.get(id);
      if (known) return known;
      const choice = listed.get(id);
      if (!choice) return undefined;
      const apiKey = choice.envKey ? env[choice.envKey] : config.apiKey;
      const provider = createModelProvider(
        {
          sources: {},
          choices: [],
          model: choice.id,
          ...((choice.baseUrl ?? config.baseUrl) ? { baseUrl: choice.baseUrl ?? config.baseUrl } : {}),
          ...(apiKey ? { apiKey } : {}),
        },
        options,
      );
      made.set(id, provider);
      return provider;
    },
  };
}
