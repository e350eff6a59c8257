import { describe, expect, it } from "vitest";
import { ApiError, createApi, sessionFromHash, tokenFromHash, UnreachableError } from "./api.js";

describe("api", () => {
  it("takes the token from the URL fragment only", () => {
    expect(tokenFromHash("#token=abc")).toBe("abc");
    expect(tokenFromHash("#x=1&token=a%2Bb")).toBe("a+b");
    expect(tokenFromHash("#token=")).toBeUndefined();
    expect(tokenFromHash("")).toBeUndefined();
  });

  it("sends JSON with the bearer token and client id, and returns the parsed body", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const api = createApi({
      token: "t0k",
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, init });
        return new Response('{"promptId":"p"}', { status: 202 });
      }) as unknown as typeof fetch,
    });
    await expect(api.request("POST", "/session/s/prompt", { prompt: [] }, "client_1")).resolves.toEqual({
      promptId: "p",
    });
    expect(seen[0]?.init.headers).toEqual({
      authorization: "Bearer t0k",
      "x-qwen-client-id": "client_1",
      "content-type": "application/json",
    });
    expect(seen[0]?.init.body).toBe('{"prompt":[]}');
  });

  it("turns daemon errors into ApiError with status and code", async () => {
    const api = createApi({
      fetch: (async () =>
        new Response('{"error":"Prompt queue is full","code":"prompt_queue_full"}', {
          status: 503,
        })) as unknown as typeof fetch,
    });
    const error = await api.request("POST", "/x", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: "prompt_queue_full", message: "Prompt queue is full" });
    const plain = createApi({
      fetch: (async () =>
        new Response("oops", { status: 500, statusText: "Internal" })) as unknown as typeof fetch,
    });
    await expect(plain.request("GET", "/y")).rejects.toMatchObject({ status: 500, message: "oops" });
  });

  it("reads the session a link opens from the fragment", () => {
    expect(sessionFromHash("#session=abc-1")).toBe("abc-1");
    expect(sessionFromHash("#token=t&session=s%2F1")).toBe("s/1");
    expect(sessionFromHash("#token=t")).toBeUndefined();
  });

  it("tells a daemon that cannot be reached from one that refused", async () => {
    const api = createApi({
      fetch: (async () => {
        throw new TypeError("Failed to fetch");
      }) as unknown as typeof fetch,
    });
    const error = await api.request("GET", "/health").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe("Failed to fetch");
  });
});
