import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineToolParams } from "./tool-params.js";

describe("defineToolParams", () => {
  it("converts the schema to JSON Schema on first read only (tools are defined at import time)", () => {
    let resolved = 0;
    const params = defineToolParams(
      z.lazy(() => {
        resolved++;
        return z.object({ path: z.string() });
      }),
    );
    expect(resolved).toBe(0);
    const schema = params.jsonSchema;
    expect(schema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    expect(schema).not.toHaveProperty("$schema");
    expect(params.jsonSchema).toBe(schema);
  });

  it("validates and parses with the same text", () => {
    const params = defineToolParams(z.object({ n: z.number() }));
    expect(params.validate({ n: 1 })).toBeUndefined();
    expect(params.validate({ n: "x" })).toMatch(/^Invalid arguments: n: /);
    expect(() => params.parse({ n: "x" })).toThrow(params.validate({ n: "x" }) as string);
    expect(params.parse({ n: 2 })).toEqual({ n: 2 });
  });
});
