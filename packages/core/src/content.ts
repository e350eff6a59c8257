// Gemini-style conversation content, the shape the transcript stores and the turn loop speaks.
// One zod schema per shape; the TypeScript type shares its name.
import { z } from "zod";

export const FunctionCall = z.object({
  id: z.string().optional(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
});
export type FunctionCall = z.infer<typeof FunctionCall>;

/** `response` is `{output: string}` on success or `{error: string}` on failure. */
export const FunctionResponse = z.object({
  id: z.string().optional(),
  name: z.string(),
  response: z.record(z.string(), z.unknown()),
});
export type FunctionResponse = z.infer<typeof FunctionResponse>;

export const Part = z.object({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: FunctionCall.optional(),
  functionResponse: FunctionResponse.optional(),
});
export type Part = z.infer<typeof Part>;

export const Role = z.enum(["user", "model"]);
export type Role = z.infer<typeof Role>;

export const Content = z.object({
  role: Role,
  parts: z.array(Part),
});
export type Content = z.infer<typeof Content>;

/** Function calls of a content, in order (parts without a functionCall are skipped). */
export function functionCallsOf(content: Content | undefined): FunctionCall[] {
  if (!content) return [];
  const out: FunctionCall[] = [];
  for (const part of content.parts) if (part.functionCall) out.push(part.functionCall);
  return out;
}

/** Function responses of a content, in order. */
export function functionResponsesOf(content: Content | undefined): FunctionResponse[] {
  if (!content) return [];
  const out: FunctionResponse[] = [];
  for (const part of content.parts) if (part.functionResponse) out.push(part.functionResponse);
  return out;
}
