// Answer links (docs/notifications.md): `GET /a/:capability` shows a page and changes nothing; `POST` answers
// (no body needed; the answer page posts its form). Mounted before the origin and bearer checks: the
// capability is the credential, and a push service's action button carries no token. Every answer is a
// small HTML page, never cached, never framed, never leaking the URL as a referrer.
import { HttpRoutes } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import { socketRemoteAddress } from "../http/remote-address.js";
import type { LinkAnswers } from "../links/link-answers.js";
import { messagePage, type Page } from "../links/link-pages.js";
import { mount } from "./mount.js";

/** The answer page's form is small; anything beyond this is refused unread. */
export const MAX_LINK_FORM_BYTES = 64 * 1024;

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

function send(c: Context, page: Page): Response {
  return c.body(page.html, page.status, HEADERS);
}

export function linkRoutes(links: LinkAnswers): Hono {
  const address = (c: Context) => socketRemoteAddress(c) ?? "unknown";
  const app = new Hono();
  mount(app, HttpRoutes.linkPage, async (c) =>
    send(c, await links.show(c.req.param("capability") as string, address(c))),
  );
  // The answer page's form is read here (urlencoded, capped), never through the JSON body reader.
  mount(app, HttpRoutes.linkAnswer, async (c) => {
    const form = await readForm(c);
    if (form === undefined) return send(c, messagePage(413, "Too large", "This request is too large."));
    return send(c, await links.answer(c.req.param("capability") as string, address(c), form));
  });
  return app;
}

/** The urlencoded form of the body (empty for any other body), or undefined when it is too large. */
async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_LINK_FORM_BYTES) return undefined;
  const body = c.req.raw.body;
  if (body === null) return new URLSearchParams();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_LINK_FORM_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return new URLSearchParams();
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
