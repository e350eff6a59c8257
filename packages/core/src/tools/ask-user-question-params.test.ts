import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA,
  parseAskUserQuestionParams,
  validateAskUserQuestionParams,
} from "./ask-user-question-params.js";

const option = (n: number) => ({ label: `Option ${n}`, description: `Choose ${n}` });
const question = (overrides: Record<string, unknown> = {}) => ({
  question: "Which library?",
  header: "Library",
  options: [option(1), option(2)],
  ...overrides,
});
const params = (...questions: unknown[]) => ({ questions });

describe("validateAskUserQuestionParams: exact error texts", () => {
  const cases: [string, unknown, string][] = [
    ["questions missing", {}, 'Parameter "questions" must be an array.'],
    ["questions not an array", { questions: "q" }, 'Parameter "questions" must be an array.'],
    ["questions an object", { questions: { 0: question() } }, 'Parameter "questions" must be an array.'],
    ["args null", null, 'Parameter "questions" must be an array.'],
    ["args a string", "questions", 'Parameter "questions" must be an array.'],
    ["no questions", params(), 'Parameter "questions" must contain between 1 and 4 questions.'],
    [
      "five questions",
      params(question(), question(), question(), question(), question()),
      'Parameter "questions" must contain between 1 and 4 questions.',
    ],
    [
      "question missing",
      params(question({ question: undefined })),
      'Question 1: "question" must be a non-empty string.',
    ],
    [
      "question empty",
      params(question({ question: "" })),
      'Question 1: "question" must be a non-empty string.',
    ],
    [
      "question blank",
      params(question({ question: " \t\n" })),
      'Question 1: "question" must be a non-empty string.',
    ],
    [
      "question a number",
      params(question({ question: 7 })),
      'Question 1: "question" must be a non-empty string.',
    ],
    ["question entry null", params(null), 'Question 1: "question" must be a non-empty string.'],
    ["question entry a string", params("Which?"), 'Question 1: "question" must be a non-empty string.'],
    [
      "header missing",
      params(question({ header: undefined })),
      'Question 1: "header" must be a non-empty string.',
    ],
    ["header blank", params(question({ header: "  " })), 'Question 1: "header" must be a non-empty string.'],
    [
      "header an array",
      params(question({ header: ["H"] })),
      'Question 1: "header" must be a non-empty string.',
    ],
    ["options missing", params(question({ options: undefined })), 'Question 1: "options" must be an array.'],
    [
      "options an object",
      params(question({ options: { a: option(1) } })),
      'Question 1: "options" must be an array.',
    ],
    [
      "one option",
      params(question({ options: [option(1)] })),
      'Question 1: "options" must contain between 2 and 4 options.',
    ],
    [
      "no options",
      params(question({ options: [] })),
      'Question 1: "options" must contain between 2 and 4 options.',
    ],
    [
      "five options",
      params(question({ options: [1, 2, 3, 4, 5].map(option) })),
      'Question 1: "options" must contain between 2 and 4 options.',
    ],
    [
      "label missing",
      params(question({ options: [option(1), { description: "d" }] })),
      'Question 1, Option 2: "label" must be a non-empty string.',
    ],
    [
      "label blank",
      params(question({ options: [{ label: " ", description: "d" }, option(2)] })),
      'Question 1, Option 1: "label" must be a non-empty string.',
    ],
    [
      "option null",
      params(question({ options: [option(1), null] })),
      'Question 1, Option 2: "label" must be a non-empty string.',
    ],
    [
      "description missing",
      params(question({ options: [option(1), option(2), { label: "L" }] })),
      'Question 1, Option 3: "description" must be a non-empty string.',
    ],
    [
      "description blank",
      params(question({ options: [option(1), { label: "L", description: "\n" }] })),
      'Question 1, Option 2: "description" must be a non-empty string.',
    ],
    [
      "multiSelect a string",
      params(question({ multiSelect: "true" })),
      'Question 1: "multiSelect" must be a boolean.',
    ],
    [
      "multiSelect null",
      params(question({ multiSelect: null })),
      'Question 1: "multiSelect" must be a boolean.',
    ],
    [
      "later question numbered",
      params(question(), question(), question({ header: "" })),
      'Question 3: "header" must be a non-empty string.',
    ],
    [
      "later option numbered",
      params(
        question(),
        question({ options: [option(1), option(2), option(3), { label: "x", description: "" }] }),
      ),
      'Question 2, Option 4: "description" must be a non-empty string.',
    ],
  ];
  it.each(cases)("%s", (_name, args, expected) => {
    expect(validateAskUserQuestionParams(args)).toBe(expected);
  });

  it("reports the first problem in the reference's order", () => {
    // question before header before options; options before multiSelect; option fields before multiSelect
    expect(
      validateAskUserQuestionParams(params({ multiSelect: 1, options: [], header: "", question: "" })),
    ).toBe('Question 1: "question" must be a non-empty string.');
    expect(validateAskUserQuestionParams(params(question({ header: "", options: [] })))).toBe(
      'Question 1: "header" must be a non-empty string.',
    );
    expect(validateAskUserQuestionParams(params(question({ options: [{}], multiSelect: "x" })))).toBe(
      'Question 1: "options" must contain between 2 and 4 options.',
    );
    expect(
      validateAskUserQuestionParams(
        params(question({ options: [option(1), { label: "" }], multiSelect: "x" })),
      ),
    ).toBe('Question 1, Option 2: "label" must be a non-empty string.');
    expect(
      validateAskUserQuestionParams(params(question({ multiSelect: "x" }), question({ header: "" }))),
    ).toBe('Question 1: "multiSelect" must be a boolean.');
  });
});

describe("validateAskUserQuestionParams: accepted", () => {
  it.each([
    ["one question, two options", params(question())],
    [
      "four questions, four options",
      params(...[1, 2, 3, 4].map(() => question({ options: [1, 2, 3, 4].map(option) }))),
    ],
    ["multiSelect true", params(question({ multiSelect: true }))],
    ["multiSelect false", params(question({ multiSelect: false }))],
    ["multiSelect explicitly undefined", params(question({ multiSelect: undefined }))],
    ["extra keys and metadata", { ...params(question({ extra: 1 })), metadata: { source: "remember" } }],
    ["padded strings", params(question({ question: "  q  ", header: " h " }))],
  ])("%s", (_name, args) => {
    expect(validateAskUserQuestionParams(args)).toBeUndefined();
    expect(parseAskUserQuestionParams(args)).toBe(args);
  });
});

describe("parseAskUserQuestionParams", () => {
  it("returns the same object (no clone) when valid", () => {
    const args = params(question());
    expect(parseAskUserQuestionParams(args)).toBe(args);
  });
  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "x"],
    ["a number", 3],
    ["an array", [question()]],
    ["an array carrying questions", Object.assign([], { questions: [question()] })],
    ["no questions", {}],
    ["zero questions", params()],
    ["five questions", params(question(), question(), question(), question(), question())],
    ["a null question", params(null)],
    ["an array question", params([question()])],
    ["blank question", params(question({ question: " " }))],
    ["blank header", params(question({ header: "" }))],
    ["one option", params(question({ options: [option(1)] }))],
    ["five options", params(question({ options: [1, 2, 3, 4, 5].map(option) }))],
    ["array option", params(question({ options: [option(1), ["l", "d"]] }))],
    ["null option", params(question({ options: [option(1), null] }))],
    ["blank label", params(question({ options: [option(1), { label: "", description: "d" }] }))],
    ["blank description", params(question({ options: [option(1), { label: "l", description: " " }] }))],
    ["string multiSelect", params(question({ multiSelect: "yes" }))],
  ])("rejects %s", (_name, args) => {
    expect(parseAskUserQuestionParams(args)).toBeUndefined();
  });
});

describe("parse and validate agree", () => {
  // Random near-valid arguments: every field is usually valid and sometimes one of a few broken shapes,
  // so that both outcomes are common.
  const broken = fc.oneof(
    fc.constantFrom("", " ", "\t\n", undefined, null, 0, true),
    fc.constant([]),
    fc.constant({}),
  );
  const good = fc.string({ minLength: 1, maxLength: 4 }).filter((s) => s.trim() !== "");
  const text = fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: broken });
  const opt = fc.oneof(
    { weight: 12, arbitrary: fc.record({ label: text, description: text }) },
    { weight: 1, arbitrary: broken },
  );
  const options = fc.oneof(
    { weight: 12, arbitrary: fc.array(opt, { minLength: 2, maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(opt, { maxLength: 6 }) },
    { weight: 1, arbitrary: broken },
  );
  const multiSelect = fc.oneof(
    { weight: 6, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constantFrom("true", 0, null) },
  );
  const q = fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record(
        { question: text, header: text, options, multiSelect },
        { requiredKeys: ["question", "header", "options"] },
      ),
    },
    { weight: 1, arbitrary: broken },
  );
  const args = fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({
        questions: fc.oneof(
          { weight: 12, arbitrary: fc.array(q, { minLength: 1, maxLength: 4 }) },
          { weight: 1, arbitrary: fc.array(q, { maxLength: 6 }) },
          { weight: 1, arbitrary: broken },
        ),
      }),
    },
    { weight: 1, arbitrary: broken },
  );

  it("accepts exactly the same arguments", () => {
    fc.assert(
      fc.property(args, (a) => {
        expect(parseAskUserQuestionParams(a) !== undefined).toBe(
          validateAskUserQuestionParams(a) === undefined,
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("finds valid arguments often enough to mean something", () => {
    const samples = fc.sample(args, { numRuns: 2000, seed: 42 });
    const valid = samples.filter((a) => validateAskUserQuestionParams(a) === undefined).length;
    expect(valid).toBeGreaterThan(samples.length / 20);
    expect(valid).toBeLessThan(samples.length - samples.length / 20);
  });
});

describe("ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA", () => {
  it("describes the parameter shape with the validation's bounds", () => {
    const schema = ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA as {
      type: string;
      required: string[];
      properties: { questions: { minItems: number; maxItems: number; items: Record<string, unknown> } };
    };
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["questions"]);
    const questions = schema.properties.questions;
    expect([questions.minItems, questions.maxItems]).toEqual([1, 4]);
    const item = questions.items as {
      required: string[];
      properties: { options: { minItems: number; maxItems: number; items: { required: string[] } } };
    };
    expect(item.required).toEqual(["question", "header", "options"]);
    expect([item.properties.options.minItems, item.properties.options.maxItems]).toEqual([2, 4]);
    expect(item.properties.options.items.required).toEqual(["label", "description"]);
  });
  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA))).toEqual(
      ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA,
    );
  });
});
