// Reading what the daemon sent without trusting it: the contract types say what a field should hold, these
// check that it does before the page uses it (a field of another shape reads as absent).

export type Fields = Readonly<Record<string, unknown>>;

/** `value` when it is a plain object, else undefined. */
export function record(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** `value` when it is a string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `value` when it is an array, else []. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
