// From parsed `qwen serve` flags to the daemon's options. Every daemon option in the shared table passes
// through under its own name, so a new option needs no line here; the cli adds only what it works out
// itself (the workspace it checked, the agent program, the storage root, the web client folder).
import type { DaemonOptionsInput } from "@qwen-daemon/daemon";
import { DAEMON_OPTION_SPECS } from "@qwen-daemon/daemon/option-specs";
import type { ServeFlags } from "./serve-flags.js";

export interface ServeWiring {
  workspace: string;
  childCommand: string[];
  childExtraArgs?: string[] | undefined;
  qwenHome: string;
  webRoot?: string | undefined;
  log?: (line: string) => void;
  /** With --storage: the owner id the cli gave the agent it started (serve.ts). */
  storageOwnerId?: string;
  /** The agents' environment (with --storage: the storage variables). */
  childEnv?: Record<string, string>;
}

export function daemonOptionsFromFlags(flags: ServeFlags, wiring: ServeWiring): DaemonOptionsInput {
  const options: Record<string, unknown> = {};
  for (const key of Object.keys(DAEMON_OPTION_SPECS)) {
    const value = (flags as Record<string, unknown>)[key];
    if (value !== undefined) options[key] = value;
  }
  return { ...options, ...wiring, warmChild: true } as DaemonOptionsInput;
}
