// One way to register a route of the contract's table (core/src/protocol/routes.ts): the method and path are
// the row's, the body is read and checked against the row's schema when the handler asks for it, and a value
// the handler returns is answered with the row's success status. A handler re-declares none of that.
import type { HttpRoute } from "@qwen-daemon/core/protocol";
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { invalidBody } from "../http/errors.js";
import { type JsonObject, readJsonObject } from "../http/json-body.js";

/** What the row says the body is (any JSON object for a row without a schema). */
export type BodyOf<R extends HttpRoute> = R extends { body: z.ZodType } ? z.infer<R["body"]> : JsonObject;

/** The body as the schema reads it (`value`) and as it was sent (`raw`, for what is forwarded untouched). */
export type RouteBody<R extends HttpRoute> = { value: BodyOf<R>; raw: JsonObject };

/** What a handler may return: the row's answer (sent with the row's status), nothing (204), or a Response. */
export type Answer<R extends HttpRoute> =
  | Response
  | (R extends { response: z.ZodType }
      ? z.infer<R["response"]>
      : R extends { status: 204 }
        ? undefined
        : never);

export type RouteHandler<R extends HttpRoute> = (
  c: Context,
  /** Reads the JSON body (10 MB cap, `{}` when empty) and checks it against the row's schema. */
  body: () => Promise<RouteBody<R>>,
) => Answer<R> | Promise<Answer<R>>;

export type MountOptions = {
  /**
   * The error for a body the schema refuses, worded as the reference daemon words it for this route (it may
   * check what the reference checks first, e.g. the session id, and throw that instead). Default: 400 naming
   * the first problem.
   */
  refuse?: (raw: JsonObject, error: z.ZodError, c: Context) => Error;
};

/** Registers `route` on `app` by its declared method and path. */
export function mount<R extends HttpRoute>(
  app: Hono,
  route: R,
  handler: RouteHandler<R>,
  options: MountOptions = {},
): void {
  const body = async (c: Context): Promise<RouteBody<R>> => {
    const raw = await readJsonObject(c.req.raw);
    if (route.body === undefined) return { value: raw as BodyOf<R>, raw };
    const parsed = route.body.safeParse(raw);
    if (parsed.success) return { value: parsed.data as BodyOf<R>, raw };
    throw (options.refuse ?? firstProblem)(raw, parsed.error, c);
  };
  app.on(route.method, route.path, async (c) => {
    const answer = await handler(c, () => body(c));
    if (answer instanceof Response) return answer;
    if (route.status === 204) return c.body(null, 204);
    return c.json(answer as object, route.status);
  });
}

function firstProblem(_raw: JsonObject, error: z.ZodError): Error {
  const issue = error.issues[0];
  const where = issue !== undefined && issue.path.length > 0 ? `\`${issue.path.join(".")}\`: ` : "";
  return invalidBody(`Invalid request body: ${where}${issue?.message ?? "does not match the route"}`);
}
