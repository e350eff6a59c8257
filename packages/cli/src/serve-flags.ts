// The `qwen serve` flags as data: the daemon's own option table plus the two flags only the cli has (how it
// finds the web client and the agent program). The fast path and the commander program both read this, and
// the daemon validates with the same table, so a flag, its default and its limits are written once (in the
// daemon). Every flag also has an environment fallback `QWEN_SERVE_<FLAG>`, unless its spec says `noEnv`.
import { DAEMON_OPTION_SPECS, type OptionSpec, type OptionValues } from "@qwen-daemon/daemon/option-specs";

/** Flags that are the cli's business, not the daemon's. */
export const CLI_SERVE_SPECS = {
  web: {
    type: "bool",
    flag: "web",
    default: true,
    description: "Serve the web client at / (--no-web to turn it off)",
  },
  acpCommand: {
    type: "string",
    flag: "acp-command",
    env: ["QWEN_ACP_COMMAND"],
    defaultText: "this qwen",
    description: "JSON array: the program and arguments that start an ACP agent (--acp is appended)",
  },
} as const satisfies Record<string, OptionSpec>;

export const SERVE_SPECS = { ...DAEMON_OPTION_SPECS, ...CLI_SERVE_SPECS };

/** Parsed `qwen serve` flags: the daemon's option values (same names) plus the cli's own. */
export type ServeFlags = OptionValues<typeof SERVE_SPECS>;
export type ServeFlagKey = keyof typeof SERVE_SPECS;

export type FlagSpec = OptionSpec & { key: ServeFlagKey };

/** Every flag, in help order. */
export const SERVE_FLAGS: readonly FlagSpec[] = Object.entries(SERVE_SPECS).map(
  ([key, spec]) => ({ ...spec, key }) as FlagSpec,
);

/** What a `qwen serve` with no flags and no environment runs with. */
export const SERVE_DEFAULTS: ServeFlags = Object.fromEntries(
  SERVE_FLAGS.flatMap((spec): [string, unknown][] => {
    if (spec.type === "list") return [[spec.key, []]];
    return "default" in spec && spec.default !== undefined ? [[spec.key, spec.default]] : [];
  }),
) as ServeFlags;

/** The environment variables read for a flag, first match wins; none for `noEnv` flags. */
export function envNamesFor(spec: OptionSpec): string[] {
  if (spec.noEnv) return [];
  return [...(spec.env ?? []), `QWEN_SERVE_${spec.flag.replace(/-/g, "_").toUpperCase()}`];
}
