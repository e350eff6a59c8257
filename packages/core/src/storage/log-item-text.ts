// How a log item is stored by the backends that keep its JSON text (PostgreSQL's rows, memory): taken as it is
// when appended, and refused when it is not JSON, before anything is written.

/** The item's JSON text; throws when the item has none (undefined, a function, a bigint inside). */
export function logItemText(item: unknown): string {
  const text = JSON.stringify(item);
  if (text === undefined) throw new TypeError("A log item must be JSON");
  return text;
}
