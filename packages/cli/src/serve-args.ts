// Pure parser for `qwen serve` flags, shared by the fast path and the full program.
// It returns "fallback" for anything it does not fully understand (help, unknown flags) so the commander
// program can answer with its usual help or error text.
import { intProblem, stringProblem } from "@qwen-daemon/daemon/option-specs";
import { envNamesFor, type FlagSpec, SERVE_DEFAULTS, SERVE_FLAGS, type ServeFlags } from "./serve-flags.js";

export type ServeArgsResult =
  | { kind: "ok"; flags: ServeFlags }
  | { kind: "fallback" }
  | { kind: "error"; message: string };

const BY_NAME = new Map(SERVE_FLAGS.map((f) => [f.flag, f]));

/** Validates one raw value for a flag; `source` names where it came from, for the error text. */
export function coerceFlagValue(spec: FlagSpec, raw: string, source: string): unknown {
  switch (spec.type) {
    case "int": {
      if (!/^-?\d+$/.test(raw.trim())) throw new Error(`${source} must be an integer, got "${raw}".`);
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) throw new Error(`${source} is out of range: "${raw}".`);
      const problem = intProblem(spec, n);
      if (problem) throw new Error(`${source} ${problem}.`);
      return n;
    }
    case "bool": {
      const v = raw.trim().toLowerCase();
      if (v === "true" || v === "1") return true;
      if (v === "false" || v === "0") return false;
      throw new Error(`${source} must be true or false, got "${raw}".`);
    }
    case "choice":
      if (!spec.choices.includes(raw)) {
        throw new Error(`${source} must be one of ${spec.choices.join(", ")}; got "${raw}".`);
      }
      return raw;
    case "string": {
      const problem = stringProblem(spec, raw);
      if (problem) throw new Error(`${source} ${problem}.`);
      return raw;
    }
    case "list":
      if (raw === "") throw new Error(`${source} must not be empty.`);
      return raw;
  }
}

function assign(flags: ServeFlags, spec: FlagSpec, value: unknown): void {
  const target = flags as unknown as Record<string, unknown>;
  if (spec.type === "list") {
    const list = (target[spec.key] as string[] | undefined) ?? [];
    target[spec.key] = [...list, value as string];
  } else {
    target[spec.key] = value;
  }
}

/** `argv` is what follows `serve`. */
export function parseServeArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): ServeArgsResult {
  const flags: ServeFlags = { ...SERVE_DEFAULTS, allowOrigins: [] };
  const seen = new Set<string>();
  try {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (!arg.startsWith("--") || arg === "--help") return { kind: "fallback" };
      const eq = arg.indexOf("=");
      let name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      let inline: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
      let spec = BY_NAME.get(name);
      if (!spec && name.startsWith("no-") && inline === undefined) {
        spec = BY_NAME.get(name.slice(3));
        if (spec?.type !== "bool") return { kind: "fallback" };
        name = spec.flag;
        inline = "false";
      }
      if (!spec) return { kind: "fallback" };
      let raw: string;
      if (inline !== undefined) raw = inline;
      else if (spec.type === "bool") raw = "true";
      else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith("--")) throw new Error(`--${name} needs a value.`);
        raw = next;
        i++;
      }
      assign(flags, spec, coerceFlagValue(spec, raw, `--${name}`));
      seen.add(spec.flag);
    }
    for (const spec of SERVE_FLAGS) {
      if (seen.has(spec.flag)) continue;
      for (const envName of envNamesFor(spec)) {
        const raw = env[envName];
        if (raw === undefined || raw === "") continue;
        if (spec.type === "list") {
          for (const item of raw
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean))
            assign(flags, spec, item);
        } else {
          assign(flags, spec, coerceFlagValue(spec, raw, envName));
        }
        break;
      }
    }
  } catch (err) {
    return { kind: "error", message: (err as Error).message };
  }
  return { kind: "ok", flags };
}
