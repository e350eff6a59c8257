// One zod schema per tool's arguments: it validates the model's args and, converted, is the JSON Schema
// the model is offered. Keeping one source stops the two from drifting apart.
import { z } from "zod";

export interface ToolParams<T> {
  /** JSON Schema sent to the model (converted on first read). */
  readonly jsonSchema: Record<string, unknown>;
  /** The validation error text for the model, or undefined when the args are fine. */
  validate(args: Record<string, unknown>): string | undefined;
  /** Parses args that passed validate(); throws the same text otherwise. */
  parse(args: Record<string, unknown>): T;
}

function formatIssues(error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const at = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
    return `${at}: ${issue.message}`;
  });
  return `Invalid arguments: ${lines.join("; ")}`;
}

export function defineToolParams<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  check?: (value: z.output<S>) => string | undefined,
): ToolParams<z.output<S>> {
  // Converted on first read (a turn's tool declarations), not when the tool's module loads: every tool is
  // defined at import time, and converting them all was a good part of what importing core costs at startup.
  let jsonSchema: Record<string, unknown> | undefined;
  const run = (args: Record<string, unknown>): { value: z.output<S> } | { error: string } => {
    const result = schema.safeParse(args);
    if (!result.success) return { error: formatIssues(result.error) };
    const problem = check?.(result.data);
    return problem === undefined ? { value: result.data } : { error: problem };
  };
  return {
    get jsonSchema() {
      if (jsonSchema === undefined) {
        const { $schema: _dialect, ...converted } = z.toJSONSchema(schema, {
          io: "input",
          unrepresentable: "any",
        });
        jsonSchema = converted;
      }
      return jsonSchema;
    },
    validate(args) {
      const result = run(args);
      return "error" in result ? result.error : undefined;
    },
    parse(args) {
      const result = run(args);
      if ("error" in result) throw new Error(result.error);
      return result.value;
    },
  };
}

/** I/O failures become the tool's error text; the message is what the model can act on. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
