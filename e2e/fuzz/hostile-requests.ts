// The requests the fuzz suite sends: every route, each with something wrong in it (or a harmless right one).
// A request that must not take effect carries a `guard`; the suite checks none of those was accepted. Pure:
// the n-th request of a seed is always the same, whatever the daemon answered before it.

import {
  clientIdValue,
  deepJson,
  forgedMeta,
  hostileObject,
  jsonValue,
  pathSessionId,
  refusedClientId,
  withProtoKey,
} from "./hostile-values.js";
import type { Prng } from "./prng.js";

/** What the request must not do when the daemon accepts it (a 2xx would mean a refused action took effect). */
export type Guard = "vote_on_waiting_question" | "delete_victim" | "cancel_victim" | "detach_victim_client";

export type HostileRequest =
  | {
      kind: "http";
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string;
      /** Send only this many bytes of the body, then drop the connection. */
      abortAfter?: number;
      /** An SSE request: read the first bytes, then hang up. */
      stream?: boolean;
      guard?: Guard;
      note: string;
    }
  | { kind: "raw"; bytes: string; note: string };

export type FuzzTarget = {
  /** The session whose question waits for the whole run. */
  victim: string;
  /** The victim's clients: named only on requests that cannot change anything. */
  registered: readonly string[];
  /** The question waiting on the victim. */
  requestId: string;
  workspace: string;
};

/** Valid but forged-_meta prompts the victim may queue in one run (each runs after the question). */
export const FORGED_PROMPTS_PER_ROUND = 2;
/** Bodies close to the 10 MB cap sent per run (they cost time, not coverage). */
export const HUGE_BODIES_PER_ROUND = 4;

type Budget = { forgedPrompts: number; hugeBodies: number };

const JSON_HEADERS = { "content-type": "application/json" };

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
      [2, () => this.#events(t)],
      [3, () => this.#reads(t)],
      [2, () => this.#workspaceListing(t)],
      [2, () => this.#delete(t)],
      [2, () => this.#unknownRoute()],
      [3, () => this.#raw(t)],
      [1, () => this.#aborted(t)],
      [1, () => this.#deep(t)],
      [0.3, () => this.#huge(t)],
    ])();
  }

  #headers(
    t: FuzzTarget,
    allowRegistered: boolean,
    extra: Record<string, string> = {},
  ): Record<string, string> {
    const rng = this.#rng;
    const headers: Record<string, string> = { ...JSON_HEADERS, ...extra };
    const clientId = clientIdValue(rng, t.registered, allowRegistered);
    if (clientId !== undefined) headers["x-qwen-client-id"] = clientId;
    if (rng.chance(0.05)) headers.origin = rng.pick(["http://evil.example", "null", "file://"]);
    if (rng.chance(0.05))
      headers.authorization = rng.pick(["Bearer x", "Basic Zm9v", "Bearer", "x".repeat(500)]);
    if (rng.chance(0.03))
      headers["content-type"] = rng.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin1",
      ]);
    if (rng.chance(0.05))
      headers["last-event-id"] = rng.pick(["-1", "1e9", "99999999999999999999", "abc", "0", " 3 "]);
    if (rng.chance(0.03)) headers["x-qwen-event-epoch"] = rng.pick(["x".repeat(100), "../../", "epoch"]);
    if (rng.chance(0.02)) headers["x-forwarded-for"] = "127.0.0.1";
    return headers;
  }

  #body(): string {
    const rng = this.#rng;
    return rng.weighted<() => string>([
      [3, () => JSON.stringify(hostileObject(rng))],
      [2, () => JSON.stringify(jsonValue(rng))],
      [2, () => withProtoKey(JSON.stringify({ ...hostileObject(rng), x: 1 }))],
      [
        1,
        () => rng.pick(["", "{", "}", "[", "nul", '{"a":}', '{"a":1,}', "\u0000", "\ufeff{}", "{}{}", "💩"]),
      ],
      [1, () => rng.string(rng.int(1, 200), '{}[]":,0123456789abcnulltrue ')],
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
      headers: this.#headers(t, true),
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
      headers: this.#headers(t, true),
      ...(method === "POST" ? { body: rng.chance(0.5) ? "{}" : this.#body() } : {}),
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
      headers: this.#headers(t, true),
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
      this.#body(),
    ]);
    return {
      kind: "http",
      method: "POST",
      path: `/session/${id}/${action}`,
      headers: this.#headers(t, true),
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
    const headers = this.#headers(t, false);
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
    const headers = this.#headers(t, guard === undefined);
    if (guard !== undefined) headers["x-qwen-client-id"] = refusedClientId(rng);
    return {
      kind: "http",
      method: "POST",
      path: `/session/${t.victim}${suffix}`,
      headers,
      body: rng.chance(0.7) ? "{}" : this.#body(),
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
    const headers = this.#headers(t, defect !== "client");
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

  #events(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const query = rng.pick([
      "",
      "?maxQueued=16",
      "?maxQueued=1",
      "?maxQueued=99999",
      "?maxQueued=abc",
      "?maxQueued=16&maxQueued=32",
    ]);
    return {
      kind: "http",
      method: rng.pick(["GET", "GET", "HEAD"]),
      path: `/session/${rng.chance(0.8) ? t.victim : pathSessionId(rng, [t.victim])}/events${query}`,
      headers: this.#headers(t, true),
      stream: true,
      note: "events",
    };
  }

  #reads(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const suffix = rng.pick([
      "/status",
      "/pending-prompts",
      "/transcript",
      "/transcript?limit=1",
      "/transcript?limit=0",
      "/transcript?limit=501",
      "/transcript?limit=-1",
      "/transcript?limit=1e3",
      "/transcript?limit=%00",
    ]);
    return {
      kind: "http",
      method: "GET",
      path: `/session/${t.victim}${suffix}`,
      headers: this.#headers(t, true),
      note: "read",
    };
  }

  #workspaceListing(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const cwd = rng.pick([
      encodeURIComponent(t.workspace),
      "%2Fetc",
      "relative",
      "..",
      "%2F..%2F..%2F",
      encodeURIComponent(`${t.workspace}/../..`),
      "%00",
      "x".repeat(3000),
    ]);
    const query = rng.pick([
      "",
      "?size=1",
      "?size=0",
      "?size=-1",
      "?size=100000",
      "?cursor=%00",
      "?cursor=x".repeat(1),
      "?size=abc&cursor=zz",
    ]);
    return {
      kind: "http",
      method: "GET",
      path: `/workspace/${cwd}/sessions${query}`,
      headers: this.#headers(t, true),
      note: "listing",
    };
  }

  #delete(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const victim = rng.chance(0.7);
    // Like cancel and detach: refused only for a client that is not attached (anonymous closes are allowed).
    const headers = this.#headers(t, false);
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

  #unknownRoute(): HostileRequest {
    const rng = this.#rng;
    return {
      kind: "http",
      method: rng.pick(["PUT", "PATCH", "OPTIONS", "GET", "POST", "DELETE"]),
      path: rng.pick([
        "/session",
        "/session/x/unknown",
        "/admin",
        "/..%2f..%2fetc%2fpasswd",
        "/permission",
        "/workspace",
        "/%2e%2e/",
        "/session//load",
        "/favicon.ico",
      ]),
      headers: { ...JSON_HEADERS },
      body: "{}",
      note: "unknown route",
    };
  }

  #raw(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const host = "Host: 127.0.0.1\r\n";
    const bytes = rng.pick([
      "GARBAGE\r\n\r\n",
      "GET / HTTP/9.9\r\n\r\n",
      "GET /health\r\n\r\n",
      `GET /health HTTP/1.1\r\n${host}X-Bad: a\u0000b\r\n\r\n`,
      `GET /health HTTP/1.1\r\n${host}X-Big: ${"x".repeat(20_000)}\r\n\r\n`,
      `POST /session HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}`,
      `POST /session HTTP/1.1\r\n${host}Content-Length: abc\r\n\r\n{}`,
      `POST /session HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n{}`,
      `POST /session HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST /session HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `GET /session/${t.victim}/status HTTP/1.1\r\nHost: evil.example\r\n\r\n`,
      `GET /session/../../etc/passwd HTTP/1.1\r\n${host}\r\n`,
      `GET /session/${t.victim}/../../x HTTP/1.1\r\n${host}\r\n`,
      `GET http://evil.example/health HTTP/1.1\r\n${host}\r\n`,
      `GET /health HTTP/1.1\r\n${host}\r\nGET /capabilities HTTP/1.1\r\n${host}\r\n`,
      `POST /session/${t.victim}/prompt HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 4\r\n\r\n\u00ff\u00fe\u00fd\u00fc`,
      `GET /health HTTP/1.1\r\n${host}Expect: 100-continue\r\n\r\n`,
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n`,
      `\r\n\r\n\r\n`,
    ]);
    return { kind: "raw", bytes, note: "raw" };
  }

  /** Where a large, deep or cut-off body goes; on the vote route it must never resolve the question. */
  #bodyTarget(t: FuzzTarget): { path: string; guard?: Guard } {
    const path = this.#rng.pick([
      `/session/${t.victim}/prompt`,
      "/session",
      `/session/${t.victim}/permission/${t.requestId}`,
    ]);
    return { path, ...(path.includes("/permission/") ? { guard: "vote_on_waiting_question" as const } : {}) };
  }

  #aborted(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const body = JSON.stringify({ prompt: [{ type: "text", text: "y".repeat(rng.int(100, 200_000)) }] });
    return {
      kind: "http",
      method: "POST",
      ...this.#bodyTarget(t),
      headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
      body,
      abortAfter: rng.int(1, Math.max(1, body.length - 1)),
      note: "aborted upload",
    };
  }

  #deep(t: FuzzTarget): HostileRequest {
    const rng = this.#rng;
    const depth = rng.pick([1000, 10_000, 100_000, 1_000_000]);
    const inner = deepJson(depth, rng.pick(["array", "object"] as const));
    const body = rng.pick([
      inner,
      `{"prompt":[{"type":"text","text":"x","_meta":${inner}}]}`,
      `{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":${inner}}`,
      `{"cwd":${inner}}`,
    ]);
    return {
      kind: "http",
      method: "POST",
      ...this.#bodyTarget(t),
      headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
      body,
      note: `deep ${depth}`,
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
      ...this.#bodyTarget(t),
      headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
      body: JSON.stringify({
        prompt: [{ type: "text", text }],
        outcome: { outcome: "selected", optionId: text },
      }),
      note: `huge ${size}`,
    };
  }
}
