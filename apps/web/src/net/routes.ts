// The daemon's routes as this client calls them: by the name of their row in the contract's route table
// (@qwen-daemon/core/protocol HttpRouteLines), so the method and path are the daemon's own, the body is
// typed by the row's schema and the answer by its answer schema. Only the lines (no schemas) reach the bundle.
import {
  type BodyOf,
  HttpRouteLines,
  type HttpRouteName,
  type HttpRoutes,
  type PathParams,
  type ResponseOf,
  routePath,
} from "@qwen-daemon/core/protocol";
import type { Api } from "./api.js";

type Row<K extends HttpRouteName> = (typeof HttpRoutes)[K];

/** What a route answers on success (undefined for the routes that answer nothing). */
export type RouteAnswer<K extends HttpRouteName> = [ResponseOf<Row<K>>] extends [never]
  ? undefined
  : ResponseOf<Row<K>>;

export type RouteCall<K extends HttpRouteName> = {
  params: PathParams<(typeof HttpRouteLines)[K]["path"]>;
  body?: BodyOf<Row<K>>;
  clientId?: string | undefined;
  query?: Readonly<Record<string, string | number | undefined>>;
};

/** The URL path of route `name` (e.g. the event stream's, which is not a plain request). */
export function routeUrl<K extends HttpRouteName>(
  name: K,
  call: Pick<RouteCall<K>, "params" | "query">,
): string {
  const line = HttpRouteLines[name] as { path: (typeof HttpRouteLines)[K]["path"] };
  return routePath(line, call.params, call.query);
}

/** Calls route `name`; rejects like `Api.request` (ApiError / UnreachableError). */
export function callRoute<K extends HttpRouteName>(
  api: Api,
  name: K,
  call: RouteCall<K>,
): Promise<RouteAnswer<K>> {
  return api.request<RouteAnswer<K>>(
    HttpRouteLines[name].method,
    routeUrl(name, call),
    call.body,
    call.clientId,
  );
}
