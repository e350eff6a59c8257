// The sidebar's session list in a real browser against the real daemon: a session created here is listed at
// once, not only after the next listing answers; and after a crash, before anything is loaded,
// a fresh page (nothing remembered in the browser) shows the session whose question was showing as
// "waiting for you", in words and the colour of a live waiting session, from the daemon's `pendingOnDisk`.
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newSession, questionCard, send, useBrowserWorld } from "./browser-world.js";
import { webHandler } from "./web-script.js";

const world = useBrowserWorld(webHandler);

/** The name the daemon's listings give the session in the first test. */
const DAEMON_NAME = "Named by the daemon's listing";

const isList = (url: URL) => /^\/workspace\/[^/]+\/sessions$/.test(url.pathname);

/** The background colour of the first element matching `selector` (a page-side expression: this file is typed for Node). */
const backgroundOf = (page: Page, selector: string) =>
  page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`);

describe("web client session list", () => {
  it("lists a session created here at once, without waiting for the next listing", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await page.locator("#sessions-empty", { hasText: "No sessions in this workspace yet." }).waitFor();
    // From now on every listing is held: the list can only learn of the new session from the page itself.
    const held: Route[] = [];
    let holding = true;
    // The daemon's listings, once let through, name the session, so the page shows when one took over.
    const fromDaemon = async (route: Route) => {
      const response = await route.fetch();
      const listing = (await response.json()) as { sessions: { displayName?: string }[] };
      for (const s of listing.sessions) s.displayName = DAEMON_NAME;
      await route.fulfill({ response, json: listing });
    };
    await page.route(isList, async (route) => {
      if (holding) held.push(route);
      else await fromDaemon(route);
    });
    await newSession(page);
    const listed = page.locator("#sessions button.session[aria-current='true']");
    await listed.waitFor({ timeout: 5000 });
    await expect(page.locator("#sessions-empty").isHidden()).resolves.toBe(true);
    // The listing the creation asked for is still held: what is shown came from the page.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await expect(listed.count()).resolves.toBe(1);
    // The held listings answer, and the daemon's entry takes over from the page's.
    holding = false;
    for (const route of held) await fromDaemon(route);
    await listed.locator(".session-name", { hasText: DAEMON_NAME }).waitFor();
    await expect(listed.count()).resolves.toBe(1);
    await expect(page.locator("#sessions button.session").count()).resolves.toBe(1);
    await expect(listed.getAttribute("data-live")).resolves.toBe("true");
    expect(errors).toEqual([]);
  }, 60_000);

  it("after a crash, a fresh page shows the session whose question was showing as waiting for you", async () => {
    const first = await world.startDaemon(["--restore-ask-user-question"]);
    const before = await world.openPage(`${first.url}/`);
    await newSession(before.page);
    await send(before.page, "ASK about the notes");
    await questionCard(before.page).waitFor();
    const sessionId = await before.page
      .locator("#sessions button.session[aria-current='true']")
      .getAttribute("data-session-id");
    // A live waiting session: the style a session on disk must share.
    const liveBadge = before.page.locator("#sessions button.session .badge.ask").first();
    await liveBadge.waitFor();
    const liveColour = await backgroundOf(before.page, "#sessions button.session .badge.ask");
    await first.kill9();
    // That page would find the restarted daemon and load the session; only the list may speak here.
    await before.context.close();

    const second = await world.startDaemon(["--restore-ask-user-question"]);
    // A new browser context: no memory of the session waiting, so the list can only know it from the daemon.
    const { page, errors } = await world.openPage(`${second.url}/`);
    const item = page.locator(`#sessions button.session[data-session-id="${sessionId}"]`);
    const badge = item.locator(".badge.ask", { hasText: "Waiting for you: question" });
    await badge.waitFor();
    await expect(item.getAttribute("class")).resolves.toContain("needs-you");
    await expect(
      backgroundOf(page, `#sessions button.session[data-session-id="${sessionId}"] .badge.ask`),
    ).resolves.toBe(liveColour);
    expect(liveColour).not.toBe("rgba(0, 0, 0, 0)");
    // Nothing was loaded to find it out.
    await expect(item.getAttribute("data-live")).resolves.toBeNull();
    await world.shot(page, "waiting-on-disk");
    expect(errors).toEqual([]);
  }, 90_000);
});
