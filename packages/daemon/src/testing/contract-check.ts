// Every answer an in-process test gets is checked against the wire contract (@qwen-daemon/core/protocol): a
// route's success answer against its row of HttpRoutes, an error against ErrorBody. A route that drifts from
// the contract fails the test that called it, whatever that test asserts.
import { ErrorBody, routeOf } from "@qwen-daemon/core/protocol";

/** Throws when `response` (not consumed: a clone is read) is not what the contract says `method path` answers. */
export async function checkAgainstContract(method: string, path: string, response: Response): Promise<void> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json") || method === "HEAD") return;
  const route = routeOf(method, path);
  const schema = response.ok ? (route?.status === response.status ? route.response : undefined) : ErrorBody;
  if (schema === undefined) return;
  const body: unknown = await response.clone().json();
  const checked = schema.safeParse(body);
  if (!checked.success) {
    throw new Error(
      `${method} ${path} answered ${response.status} off the contract: ${checked.error.message}\n${JSON.stringify(body)}`,
    );
  }
}
