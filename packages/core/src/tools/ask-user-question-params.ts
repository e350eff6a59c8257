// Parameters of the ask_user_question tool: the zod schema (for types and the structural check the
// restore scan relies on), the JSON Schema the model sees, and the validation whose error texts are
// part of the wire contract (docs/protocol.md "What the model is told").
import { z } from "zod";

const NonEmptyString = z.string().refine((value) => value.trim() !== "");

/** Loose objects: the model may send extra keys (e.g. `metadata`); only the listed ones are checked. */
export const AskUserQuestionOption = z.looseObject({
  label: NonEmptyString,
  description: NonEmptyString,
});
export type AskUserQuestionOption = z.infer<typeof AskUserQuestionOption>;

export const AskUserQuestionItem = z.looseObject({
  question: NonEmptyString,
  header: NonEmptyString,
  options: z.array(AskUserQuestionOption).min(2).max(4),
  multiSelect: z.boolean().optional(),
});
export type AskUserQuestionItem = z.infer<typeof AskUserQuestionItem>;

export const AskUserQuestionParams = z.looseObject({
  questions: z.array(AskUserQuestionItem).min(1).max(4),
});
export type AskUserQuestionParams = z.infer<typeof AskUserQuestionParams>;

/**
 * JSON Schema of the arguments, sent to the model. The bounds here are advisory for the model; the
 * authority is {@link validateAskUserQuestionParams}, which runs without a JSON Schema validator so that
 * its texts stay exactly those the model is used to.
 */
export const ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA: Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    questions: {
      description: "Questions to ask the user (1-4 questions)",
      type: "array",
      minItems: 1,
      maxItems: 4,
      items: {
        type: "object",
        properties: {
          question: {
            description:
              'The full question, clear and specific, ending with a question mark, e.g. "Which library should we use for date formatting?". With multiSelect, phrase it for several answers, e.g. "Which features do you want to enable?"',
            type: "string",
          },
          header: {
            description:
              'A very short label shown as a chip (at most 12 characters), e.g. "Auth method", "Library".',
            type: "string",
          },
          options: {
            description:
              "The choices (2-4). Each one distinct and, unless multiSelect is set, mutually exclusive. Do not add an 'Other' option: the user can always type a custom answer.",
            type: "array",
            minItems: 2,
            maxItems: 4,
            items: {
              type: "object",
              properties: {
                label: {
                  description: "The text the user sees and selects: concise, 1-5 words.",
                  type: "string",
                },
                description: {
                  description: "What choosing this option means: its trade-offs or consequences.",
                  type: "string",
                },
              },
              required: ["label", "description"],
              additionalProperties: false,
            },
          },
          multiSelect: {
            description: "Set to true when several options may be selected together.",
            type: "boolean",
            default: false,
          },
        },
        required: ["question", "header", "options"],
        additionalProperties: false,
      },
    },
    metadata: {
      description: "Optional tracking metadata, never shown to the user.",
      type: "object",
      properties: {
        source: { description: "Where the question comes from, e.g. a command name.", type: "string" },
      },
      additionalProperties: false,
    },
  },
  required: ["questions"],
  additionalProperties: false,
};

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** Reads a property of anything without throwing (null, numbers and strings have no fields we want). */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The tool's validation, returning the exact error text the reference tool returns for the first problem
 * found, or undefined when the arguments are fine. Checks run in the reference's order (questions, then
 * per question: question, header, options, each option's label and description, multiSelect).
 * A `null` question or option, where the reference would throw, reports its first missing field instead.
 */
export function validateAskUserQuestionParams(args: unknown): string | undefined {
  const questions = field(args, "questions");
  if (!Array.isArray(questions)) return 'Parameter "questions" must be an array.';
  if (questions.length < 1 || questions.length > 4) {
    return 'Parameter "questions" must contain between 1 and 4 questions.';
  }
  for (let i = 0; i < questions.length; i++) {
    const q = questions[i] as unknown;
    const at = `Question ${i + 1}`;
    if (!isNonEmptyString(field(q, "question"))) return `${at}: "question" must be a non-empty string.`;
    if (!isNonEmptyString(field(q, "header"))) return `${at}: "header" must be a non-empty string.`;
    const options = field(q, "options");
    if (!Array.isArray(options)) return `${at}: "options" must be an array.`;
    if (options.length < 2 || options.length > 4)
      return `${at}: "options" must contain between 2 and 4 options.`;
    for (let j = 0; j < options.length; j++) {
      const o = options[j] as unknown;
      if (!isNonEmptyString(field(o, "label")))
        return `${at}, Option ${j + 1}: "label" must be a non-empty string.`;
      if (!isNonEmptyString(field(o, "description"))) {
        return `${at}, Option ${j + 1}: "description" must be a non-empty string.`;
      }
    }
    const multiSelect = field(q, "multiSelect");
    if (multiSelect !== undefined && typeof multiSelect !== "boolean")
      return `${at}: "multiSelect" must be a boolean.`;
  }
  return undefined;
}

/**
 * The structural mirror of the validation used by the restore scan (docs/restore.md "When it happens, and when not"):
 * returns the same object, typed, when it is a non-array object whose questions pass the schema, else
 * undefined. Accepts exactly what {@link validateAskUserQuestionParams} accepts, except that it also
 * rejects a non-object top level (an array that happened to carry a `questions` field).
 */
export function parseAskUserQuestionParams(args: unknown): AskUserQuestionParams | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  return AskUserQuestionParams.safeParse(args).success ? (args as AskUserQuestionParams) : undefined;
}
