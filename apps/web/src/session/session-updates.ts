// What an agent says about the session itself in its `session/update` notifications (ACP): its title
// (`session_info_update`) and its options (`config_option_update`). Pure: read leniently, since the agent
// may be another build; anything malformed is ignored.
import type { SessionConfigOption } from "@qwen-daemon/core/protocol";
import { record } from "../net/read.js";

/** The title an agent gave the session, cut to one line; undefined when the update says nothing of it. */
export function agentTitleOf(update: unknown): string | undefined {
  const u = record(update);
  if (u?.sessionUpdate !== "session_info_update" || typeof u.title !== "string") return undefined;
  const title = u.title.trim().split("\n")[0]?.trim();
  return title ? title : undefined;
}

/** The session's options as a `config_option_update` reports them. */
export function configOptionsOf(update: unknown): SessionConfigOption[] | undefined {
  const u = record(update);
  if (u?.sessionUpdate !== "config_option_update" || !Array.isArray(u.configOptions)) return undefined;
  return u.configOptions.filter(isConfigOption);
}

function isConfigOption(value: unknown): value is SessionConfigOption {
  const o = record(value);
  return (
    typeof o?.id === "string" &&
    typeof o.name === "string" &&
    typeof o.type === "string" &&
    (typeof o.currentValue === "string" || typeof o.currentValue === "boolean")
  );
}

/** The option a person picks the model with, when the agent offers one with a choice of values. */
export function modelOption(options: readonly SessionConfigOption[]): SessionConfigOption | undefined {
  return options.find((o) => o.category === "model" || o.id === "model");
}

/** An option's values as `{value, name}` (what the agent offers; malformed entries left out). */
export function optionValues(option: SessionConfigOption): { value: string; name: string }[] {
  return (option.options ?? []).flatMap((v) => {
    const value = v.value;
    if (typeof value !== "string") return [];
    return [{ value, name: typeof v.name === "string" && v.name ? v.name : value }];
  });
}
