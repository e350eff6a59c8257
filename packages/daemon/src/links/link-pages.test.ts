import { describe, expect, it } from "vitest";
import { alreadyAnsweredPage, answeredAt, answeredBy } from "./link-pages.js";

describe("link pages", () => {
  it("says who answered in words: a notification's button, its answer page, or a client", () => {
    expect(answeredBy("link:Green")).toBe("with the \u201cGreen\u201d button of a notification");
    expect(answeredBy("link:Answer")).toBe("on the answer page a notification linked to");
    expect(answeredBy("client_3f2c")).toBe("from the web client or another app");
  });

  it("says when to the minute in UTC, and nothing for a time it cannot read", () => {
    expect(answeredAt("2026-12-04T19:15:42.120Z")).toBe("on 2026-12-04 at 19:15 UTC");
    expect(answeredAt("yesterday")).toBe("");
  });

  it("escapes what the voter's label holds", () => {
    const page = alreadyAnsweredPage(undefined, { answer: "Blue", by: "link:<b>x</b>" });
    expect(page.status).toBe(409);
    expect(page.html).toContain("with the \u201c&#60;b&#62;x&#60;/b&#62;\u201d button of a notification");
  });
});
