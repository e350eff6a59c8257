// A browser notification when the agent waits and nobody is looking: the page asks for permission from the
// bell (a click), and a question or approval that arrives while the tab is hidden shows a real Chromium
// notification (its `show` event fires) naming the session and the question, tagged with the same stable
// id the daemon's own notifications use. Headless Chromium keeps every tab "visible" (playwright cannot
// hide one), so the test hides the tab the way the browser would tell the page: document.visibilityState
// and a visibilitychange event; everything else is the real page and the real daemon (demo model).
import { describe, expect, it } from "vitest";
import { newSession, questionCard, send, useBrowserWorld } from "./browser-world.js";

const world = useBrowserWorld();

/** Records every notification the page creates, and whether Chromium showed it. Runs before the page. */
const RECORD_NOTIFICATIONS = `
  window.shownNotifications = [];
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      const entry = { title, body: options?.body, tag: options?.tag, shown: false };
      window.shownNotifications.push(entry);
      this.addEventListener("show", () => { entry.shown = true; });
    }
  };
`;
/** Counts the page's permission requests (the real API still answers). */
const COUNT_PERMISSION_REQUESTS = `
  window.permissionRequests = 0;
  const request = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.permissionRequests += 1; return request(...args); };
`;
const HIDE_TAB = `
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
`;
const SHOW_TAB = `
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
  document.dispatchEvent(new Event("visibilitychange"));
`;
type Shown = { title: string; body: string; tag: string; shown: boolean };

describe("browser notifications", () => {
  it("notifies a hidden tab of a question and an approval, once each, and never a visible one", async () => {
    const daemon = await world.startDaemon();
    const { page, context, errors } = await world.openPage(`${daemon.url}/`, {
      permissions: ["notifications"],
    });
    await context.addInitScript(RECORD_NOTIFICATIONS);
    await page.reload();
    const bell = page.locator("#notify");
    await expect(bell.getAttribute("data-state")).resolves.toBe("granted");
    await expect(bell.getAttribute("aria-label")).resolves.toMatch(/^Notifications are on/);

    // Visible: the card is enough, no notification.
    await newSession(page);
    await send(page, "Plan my week");
    const card = questionCard(page);
    await card.waitFor();
    expect(await page.evaluate("window.shownNotifications.length")).toBe(0);
    await card.getByRole("radio", { name: /Checklist/ }).check();

    // Hidden when the approval arrives: one notification, shown by Chromium.
    await page.evaluate(HIDE_TAB);
    await card.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.evaluate("window.shownNotifications.length")).toBe(1);
    const sessionId = await page
      .locator("#sessions button[aria-current='true']")
      .getAttribute("data-session-id");
    await expect.poll(() => page.evaluate("window.shownNotifications[0].shown")).toBe(true);
    const [approval] = (await page.evaluate("window.shownNotifications")) as Shown[];
    expect(approval).toMatchObject({ title: "The agent asks for your approval", shown: true });
    expect(approval?.body).toMatch(/: Edit demo-notes\.md$/);
    expect(approval?.tag).toMatch(new RegExp(`^${sessionId}:call_demo_\\d+_write_file$`));
    // The tab title says it too, for a glance at the tab strip.
    await expect(page.title()).resolves.toMatch(/^\(1\) Waiting for you · /);

    await page.evaluate(SHOW_TAB);
    await page
      .getByRole("region", { name: /Allow this edit/ })
      .getByRole("button", { name: "Allow", exact: true })
      .click();
    await page.locator("#log li.agent", { hasText: "Done." }).waitFor();

    // Hidden again, a new question: a second notification, with the question's words.
    await page.evaluate(HIDE_TAB);
    await send(page, "Tidy the garage");
    await expect.poll(() => page.evaluate("window.shownNotifications.length")).toBe(2);
    const question = ((await page.evaluate("window.shownNotifications")) as Shown[])[1];
    expect(question).toMatchObject({ title: "The agent asks you" });
    expect(question?.body).toContain('How should I record your request "Tidy the garage"?');
    await world.shot(page, "notification-page");
    expect(errors).toEqual([]);
  }, 90_000);

  it("asks for permission from the bell, not on its own", async () => {
    const daemon = await world.startDaemon();
    const { page, context, errors } = await world.openPage(`${daemon.url}/`);
    await context.addInitScript(COUNT_PERMISSION_REQUESTS);
    await page.reload();
    const bell = page.locator("#notify");
    await expect(bell.getAttribute("data-state")).resolves.toBe("default");
    await expect(bell.getAttribute("aria-label")).resolves.toBe("Notify me when the agent waits for me");
    await newSession(page);
    expect(await page.evaluate("window.permissionRequests")).toBe(0);
    // The click asks the browser.
    await bell.click();
    await expect.poll(() => page.evaluate("window.permissionRequests")).toBe(1);
    // The person says yes (headless Chromium shows no prompt to click: the grant stands in for it); the bell
    // shows it at the next look, without asking again.
    await context.grantPermissions(["notifications"], { origin: daemon.url });
    await bell.click();
    await expect.poll(() => bell.getAttribute("data-state")).toBe("granted");
    expect(await page.evaluate("window.permissionRequests")).toBe(1);
    await expect(bell.getAttribute("aria-label")).resolves.toMatch(/^Notifications are on/);
    expect(errors).toEqual([]);
  }, 60_000);
});
