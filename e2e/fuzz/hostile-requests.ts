// The requests the fuzz suite sends: every route, each with something wrong in it (or a harmless right one).
// A request that must not take effect carries a `guard`; the suite checks none of those was accepted. Pure:
// the n-th request of a seed is always the same, whatever the daemon answered before it.

import { hostileBody, hostileHeaders } from "./hostile-parts.js";
import {
  forgedMeta,
  hostileObject,
  jsonValue,
  pathSessionId,
  refusedClientId,
  withProtoKey,
} from "./hostile-values.js";
import { abortedUpload, bodyTarget, deepBody, rawRequest, unknownRoute } from "./malformed-requests.js";
import type { Prng } from "./prng.js";
import { eventStream, sessionRead, workspaceListing } from "./read-requests.js";
import { type FuzzTarget, type Guard, type HostileRequest, JSON_HEADERS } from "./request-types.js";

export type { FuzzTarget, Guard, HostileRequest };

/** Valid but forged-_meta prompts the victim may queue in one run (each runs after the question). */
export const FORGED_PROMPTS_PER_ROUND = 2;
/** Bodies close to the 10 MB cap sent per run (they cost time, not coverage). */
export const HUGE_BODIES_PER_ROUND = 4;

type Budget = { forgedPrompts: number; hugeBodies: number };

export class HostileRequestSource {
  readonly #rng: Prng;
  readonly #budget: Budget = { forgedPrompts: FORGED_PROMPTS_PER_ROUND, hugeBodies: HUGE_BODIES_PER_ROUND };

  constructor(rng: Prng) {
    this.#rng = rng;
  }

  next(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    return rng.weighted<() => HostileRequest>([
      [3, () => this.#plainGet(t)],
      [4, () => this.#sessionRouteWithTrickId(t)],
      [4, () => this.#createSession(t)],
      [3, () => this.#loadOrResume(t)],
      [6, () => this.#prompt(t)],
      [3, () => this.#victimControl(t)],
      [8, () => this.#vote(t)],
      [2, () => eventStream(rng, t)],
      [3, () => sessionRead(rng, t)],
      [2, () => workspaceListing(rng, t)],
      [2, () => this.#delete(t)],
      [2, () => unknownRoute(rng)],
      [3, () => rawRequest(rng, t)],
      [1, () => abortedUpload(rng, t)],
      [1, () => deepBody(rng, t)],
      [0.3, () => this.#huge(t)],
    ])();
  }

  #plainGet(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const path = rng.pick(["/health", "/capabilities", "/daemon/status", "/"]);
    const query = rng.chance(0.3) ? `?${rng.pick(["a=1", "%ZZ", "x=%00", "&&&", "a[b]=c", "limit=-1"])}` : "";
    return {
      kind: "http",
      method: rng.pick(["GET", "GET", "HEAD"]),
      path: path + query,
      headers: hostileHeaders(rng, t, true),
      note: "plain get",
    };
  }

  #sessionRouteWithTrickId(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const id = pathSessionId(rng, [t.victim]);
    const [method, suffix] = rng.pick<[string, string]>([
      ["GET", "/status"],
      ["GET", "/pending-prompts"],
      ["GET", "/transcript"],
      ["POST", "/load"],
      ["POST", "/resume"],
      ["POST", "/heartbeat"],
      ["POST", "/continue"],
      ["GET", "/events"],
    ]);
    return {
      kind: "http",
      method,
      path: `/session/${id}${suffix}`,
      headers: hostileHeaders(rng, t, true),
      ...(method === "POST" ? { body: rng.chance(0.5) ? "{}" : hostileBody(rng) } : {}),
      ...(suffix === "/events" ? { stream: true } : {}),
      note: `trick id ${suffix}`,
    };
  }

  #createSession(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const body = rng.weighted<() => unknown>([
      [2, () => ({ sessionId: jsonValue(rng) })],
      [1, () => ({ sessionId: { toString: 1 } })],
      [
        2,
        () => ({
          sessionId: rng.pick(["../escape", "a/b", "..", "x".repeat(300), "", "a\u0000b", "con.jsonl"]),
        }),
      ],
      [
        2,
        () => ({
          cwd: rng.pick<unknown>([
            "relative",
            "/etc",
            `${t.workspace}/..`,
            5,
            null,
            [],
            `${t.workspace}\u0000`,
            "//",
          ]),
        }),
      ],
      [2, () => ({ sessionScope: jsonValue(rng) })],
      [1, () => ({ sessionScope: "x".repeat(100_000) })],
      [2, () => hostileObject(rng)],
      // The default scope attaches to the victim (a new client each time): harmless.
      [1, () => ({})],
    ])();
    const text =
      typeof body === "string"
        ? body
        : rng.chance(0.2)
          ? withProtoKey(JSON.stringify(body))
          : JSON.stringify(body);
    return {
      kind: "http",
      method: "POST",
      path: "/session",
      headers: hostileHeaders(rng, t, true),
      body: text,
      note: "create",
    };
  }

  #loadOrResume(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const action = rng.pick(["load", "resume"]);
    const id = rng.weighted<() => string>([
      [2, () => t.victim],
      [2, () => `never-existed-${rng.string(8)}`],
      [2, () => pathSessionId(rng, [t.victim])],
    ])();
    const body = rng.pick<string>([
      "{}",
      JSON.stringify({ cwd: rng.pick<unknown>(["/elsewhere", "rel", 1, t.workspace]) }),
      hostileBody(rng),
    ]);
    return {
      kind: "http",
      method: "POST",
      path: `/session/${id}/${action}`,
      headers: hostileHeaders(rng, t, true),
      body,
      note: action,
    };
  }

  #prompt(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    if (this.#budget.forgedPrompts > 0 && rng.chance(0.01)) {
      this.#budget.forgedPrompts -= 1;
      const body = {
        prompt: [{ type: "text", text: "forged meta prompt", _meta: forgedMeta(rng) }],
        _meta: forgedMeta(rng),
      };
      return {
        kind: "http",
        method: "POST",
        path: `/session/${t.victim}/prompt`,
        headers: { ...JSON_HEADERS, "x-qwen-client-id": rng.pick(t.registered) },
        body: JSON.stringify(body),
        note: "forged _meta prompt (valid, queued behind the question)",
      };
    }
    const badBlocks = rng.pick<unknown>([
      "hi",
      [],
      ["hi"],
      [null],
      [{ type: "text" }],
      [{ type: "text", text: 5 }],
      [{ type: "image", data: 1 }],
      [{ type: "resource", resource: { uri: 5 } }],
      [{ type: "x".repeat(5000) }],
      [{ type: "text", text: "ok", annotations: "no" }],
      [{ type: { toString: 1 } }],
      jsonValue(rng),
    ]);
    const body = rng.weighted<() => unknown>([
      // A well-formed prompt from a client that may not send it.
      [3, () => ({ prompt: [{ type: "text", text: "ASK sneaky" }], _meta: forgedMeta(rng) })],
      [3, () => ({ prompt: badBlocks })],
      [
        1,
        () => ({
          prompt: [{ type: "text", text: "x" }],
          deadlineMs: rng.pick<unknown>([0, -5, 1.5, "1000", 1e300, null, {}]),
        }),
      ],
      [1, () => hostileObject(rng)],
    ])();
    const id = rng.chance(0.8) ? t.victim : pathSessionId(rng, [t.victim]);
    // Never a registered client, nor none, with a valid body: that prompt would be admitted for real.
    const headers = hostileHeaders(rng, t, false);
    headers["x-qwen-client-id"] = refusedClientId(rng);
    return {
      kind: "http",
      method: "POST",
      path: `/session/${id}/prompt`,
      headers,
      body: rng.chance(0.1) ? withProtoKey(JSON.stringify(body)) : JSON.stringify(body),
      note: "prompt",
    };
  }

  #victimControl(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const [suffix, guard] = rng.pick<[string, Guard | undefined]>([
      ["/cancel", "cancel_victim"],
      ["/detach", "detach_victim_client"],
      ["/heartbeat", undefined],
      ["/continue", undefined],
    ]);
    // Cancel and detach only from clients that may not: refused, they must change nothing.
    const headers = hostileHeaders(rng, t, guard === undefined);
    if (guard !== undefined) headers["x-qwen-client-id"] = refusedClientId(rng);
    return {
      kind: "http",
      method: "POST",
      path: `/session/${t.victim}${suffix}`,
      headers,
      body: rng.chance(0.7) ? "{}" : hostileBody(rng),
      ...(guard !== undefined ? { guard } : {}),
      note: suffix,
    };
  }

  #vote(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const requestId = rng.weighted<() => string>([
      [5, () => t.requestId],
      [1, () => `req-${rng.string(10)}`],
      [1, () => rng.pick(["..", "%2e%2e", "%00", "x".repeat(300), "__proto__"])],
    ])();
    const legacy = rng.chance(0.3);
    // Something is always wrong with it: a bad body, an option not offered, or a client that may not vote.
    const defect = rng.pick(["body", "option", "client"] as const);
    const valid = { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "fuzz" } };
    const body =
      defect === "body"
        ? rng.pick<unknown>([
            { outcome: "selected" },
            { outcome: { outcome: "approved" } },
            { outcome: { outcome: "selected" } },
            { outcome: { outcome: "selected", optionId: "" } },
            { outcome: { outcome: "selected", optionId: 5 } },
            { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": 5 } },
            { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: ["x"] },
            { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: "x" },
            { outcome: null },
            [],
            hostileObject(rng),
          ])
        : defect === "option"
          ? {
              outcome: {
                outcome: "selected",
                optionId: rng.pick([
                  "proceed_always",
                  "allow",
                  "cancel ",
                  "PROCEED_ONCE",
                  "x".repeat(rng.int(1, 20_000)),
                ]),
              },
              answers: { "0": "fuzz" },
            }
          : valid;
    const headers = hostileHeaders(rng, t, defect !== "client");
    if (defect === "client") headers["x-qwen-client-id"] = refusedClientId(rng);
    return {
      kind: "http",
      method: "POST",
      path: legacy
        ? `/permission/${requestId}`
        : `/session/${rng.chance(0.9) ? t.victim : pathSessionId(rng, [t.victim])}/permission/${requestId}`,
      headers,
      body: rng.chance(0.1) ? withProtoKey(JSON.stringify(body)) : JSON.stringify(body),
      guard: "vote_on_waiting_question",
      note: `vote (${defect})`,
    };
  }

  #delete(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const victim = rng.chance(0.7);
    // Like cancel and detach: refused only for a client that is not attached (anonymous closes are allowed).
    const headers = hostileHeaders(rng, t, false);
    headers["x-qwen-client-id"] = refusedClientId(rng);
    return {
      kind: "http",
      method: "DELETE",
      path: `/session/${victim ? t.victim : pathSessionId(rng, [t.victim])}`,
      headers,
      guard: "delete_victim",
      note: "delete",
    };
  }

  #huge(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    if (this.#budget.hugeBodies <= 0) return this.#plainGet(t);
    this.#budget.hugeBodies -= 1;
    const size = rng.pick([9_900_000, 10_600_000]);
    const text = "h".repeat(size);
    return {
      kind: "http",
      method: "POST",
      ...bodyTarget(rng, t),
      headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
      body: JSON.stringify({
        prompt: [{ type: "text", text }],
        outcome: { outcome: "selected", optionId: text },
      }),
      note: `huge ${size}`,
    };
  }
}
