// The web client in a real browser (Debian's Chromium driven by playwright-core) against the real built
// daemon on the built-in demo model: a user asks, answers the question card, approves the file write and
// reads the summary; then the daemon and its children are SIGKILLed, a daemon with
// --restore-ask-user-question comes up on the same address, the page is reloaded, the session is opened
// from the list and its question is back (said in words), answerable, and answered from a phone-sized page
// while the first page shows who answered.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { descendantsOf } from "../harness/process-tree.js";
import {
  agentSays,
  currentSessionId,
  live,
  newSession,
  permissionCard,
  questionCard,
  send,
  unexpected,
  useBrowserWorld,
} from "./browser-world.js";

const world = useBrowserWorld();
/** Page-side code as a string: this file is typed for Node, the expression runs in the page. */
const WIDER_THAN_SCREEN = "document.documentElement.scrollWidth - window.innerWidth";

describe("web client", () => {
  it("answers a question and a permission, then gets the question back after a crash and restart", async () => {
    const first = await world.startDaemon(["--restore-ask-user-question"]);
    const port = new URL(first.url).port;
    const { page, errors } = await world.openPage(`${first.url}/`);

    // The page loaded from the daemon itself and talks to it (same-origin requests pass the Origin guard).
    await expect.poll(() => page.locator("#workspace").getAttribute("title")).toBe(world.workspace);

    // 1. New session, a prompt, the question card.
    await newSession(page);
    await send(page, "Plan my week");
    const card = questionCard(page);
    await card.waitFor();
    await expect(card.locator("legend").textContent()).resolves.toContain(
      'How should I record your request "Plan my week"?',
    );
    // One radio per option, plus "Other".
    expect(await card.getByRole("radio").count()).toBe(4);
    await world.shot(page, "question");

    // Submitting with nothing picked is refused in the page, not sent.
    await card.getByRole("button", { name: "Submit" }).click();
    await card.getByRole("alert").filter({ hasText: "Please answer: Format" }).waitFor();

    await card.getByRole("radio", { name: /Checklist/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await card.waitFor({ state: "detached" });
    // The answer is part of the conversation now.
    const answered = page.locator("#log li.answer", { hasText: "You: Answered" });
    await expect(answered.locator("dd").textContent()).resolves.toBe("Checklist");

    // 2. The write permission, as a diff, with the options the request offered.
    const permission = permissionCard(page, /Allow this edit/);
    await permission.waitFor();
    await expect(permission.locator(".diff-path").textContent()).resolves.toBe("demo-notes.md");
    await expect(permission.locator("tr.added", { hasText: "Format: Checklist" }).count()).resolves.toBe(1);
    await expect(permission.getByRole("button").allTextContents()).resolves.toEqual([
      "Allow",
      "Reject",
      "Allow all edits",
    ]);
    await world.shot(page, "edit-approval");
    await permission.getByRole("button", { name: "Allow", exact: true }).click();
    await permission.waitFor({ state: "detached" });

    // 3. The summary, and the file the demo model wrote with the answer in it.
    await agentSays(page, '[demo model] Done. You chose "Checklist" for "Plan my week".');
    expect(readFileSync(join(world.workspace, "demo-notes.md"), "utf8")).toContain("Format: Checklist");
    await page.locator("#cancel").waitFor({ state: "hidden" });
    const sessionId = await currentSessionId(page);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await world.shot(page, "done");

    // 4. A second request: the question is on screen when everything is SIGKILLed.
    await send(page, "Tidy the garage");
    await questionCard(page).waitFor();
    await first.kill9();
    await page.locator("#conn", { hasText: "Daemon away" }).waitFor();

    // 5. A new daemon with restore on, at the same address; the user reloads and opens the session.
    //    (The page is parked on about:blank meanwhile, so its own reconnect cannot load the session
    //    first: here the restore must come from the click in the list.)
    await page.goto("about:blank");
    const second = await world.startDaemon(["--restore-ask-user-question", "--port", port]);
    expect(second.url).toBe(first.url);
    await page.goto(`${second.url}/`);
    const listed = page.locator(`#sessions button[data-session-id="${sessionId}"]`);
    await listed.click();
    const restored = questionCard(page);
    await restored.waitFor();
    await expect(restored.locator("legend").textContent()).resolves.toContain('"Tidy the garage"');
    // Said in words: the question is one the agent asked before the daemon stopped.
    await page
      .locator("#log li.notice", { hasText: "The daemon restarted; the agent is asking you again." })
      .waitFor();
    await restored.getByText("Asked again after a restart").waitFor();
    // The history came back from the transcript (compactedReplay), the question is live again.
    await agentSays(page, '[demo model] Done. You chose "Checklist" for "Plan my week".');
    // The list marks the session as waiting on a question, in words.
    await listed.locator(".badge.ask", { hasText: "Waiting for you: question" }).waitFor();
    await world.shot(page, "restored-from-list");

    // 6. A second page, phone-sized, finds the waiting question from the list alone and answers it
    //    with "Other". Opening a session folds the list away to leave the screen to the conversation.
    const { page: phone, errors: phoneErrors } = await world.openPage(`${second.url}/`, {
      viewport: { width: 390, height: 844 },
    });
    const phoneListed = phone.locator(`#sessions button[data-session-id="${sessionId}"]`);
    await phoneListed.locator(".badge.ask", { hasText: "Waiting for you: question" }).waitFor();
    await phoneListed.click();
    await expect.poll(() => phone.locator("#toggle-sessions").getAttribute("aria-expanded")).toBe("false");
    const again = questionCard(phone);
    await again.waitFor();
    await again.getByRole("textbox", { name: /Your own answer/ }).fill("A limerick");
    await expect(again.getByRole("radio", { name: /Other/ }).isChecked()).resolves.toBe(true);
    await again.getByRole("button", { name: "Submit" }).click();
    await permissionCard(phone).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(phone, '[demo model] Done. You chose "A limerick" for "Tidy the garage".');
    expect(readFileSync(join(world.workspace, "demo-notes.md"), "utf8")).toContain("Format: A limerick");
    // Nothing wider than the phone's screen.
    expect(await phone.evaluate(WIDER_THAN_SCREEN)).toBeLessThanOrEqual(0);

    // The first page saw it all live, as a second client of the same session: the card gone, who answered
    // and what, the summary.
    // The phone is another browser of the same person: their answer, on another of their devices.
    const byOther = page
      .locator("#log li.answer", { hasText: "on another of your devices" })
      .filter({ hasText: "You: Answered" });
    await byOther.waitFor();
    await expect(byOther.textContent()).resolves.toContain("You: Answered");
    await expect(byOther.locator("dd").textContent()).resolves.toBe("A limerick");
    await agentSays(page, '[demo model] Done. You chose "A limerick" for "Tidy the garage".');
    await questionCard(page).waitFor({ state: "detached" });
    await page
      .locator(`#sessions button[data-session-id="${sessionId}"] .badge.ask`)
      .waitFor({ state: "detached" });
    await world.shot(page, "answered-elsewhere");

    // The only console errors allowed are the page's failed fetches while the daemon was down.
    expect(unexpected([...errors, ...phoneErrors])).toEqual([]);
  }, 180_000);

  it("a page whose cursor fell out of a small event ring catches up from the transcript", async () => {
    const daemon = await world.startDaemon(["--event-ring-size", "16"]);
    const { page } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "Feed the cat");
    const card = questionCard(page);
    await card.getByRole("radio", { name: /Short note/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Short note" for "Feed the cat".');

    // A second page opens the live session: its load replay ends before the ~30 events the ring no
    // longer holds, so the daemon answers state_resync_required and the page reads the transcript.
    const { page: late, errors } = await world.openPage(`${daemon.url}/`);
    await late.locator("#sessions button.session").first().click();
    await late.locator("#log li.notice", { hasText: "showing the saved history" }).waitFor();
    await agentSays(late, '[demo model] Done. You chose "Short note" for "Feed the cat".');
    await live(late);

    // And it follows live from there.
    await send(late, "Walk the dog");
    await questionCard(late).waitFor();
    await questionCard(page).waitFor();
    expect(errors).toEqual([]);
  }, 120_000);

  it("shows a dead agent process, and 'Reload session' brings its question back", async () => {
    const daemon = await world.startDaemon(["--restore-ask-user-question"]);
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "Paint the fence");
    await questionCard(page).waitFor();

    // Only the ACP child dies; the daemon lives on and tells the page.
    const children = descendantsOf(daemon.pid);
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) process.kill(pid, "SIGKILL");
    await page.locator("#log li.error", { hasText: "The agent process for this session stopped" }).waitFor();
    await page.locator("#log li.error", { hasText: /The turn failed: .*\(session_died\)/ }).waitFor();
    await questionCard(page).waitFor({ state: "detached" });
    await expect(page.getByRole("button", { name: "Send", exact: true }).isDisabled()).resolves.toBe(true);

    await page.getByRole("alert").getByRole("button", { name: "Reload session" }).click();
    const card = questionCard(page);
    await card.waitFor();
    await expect(card.locator("legend").textContent()).resolves.toContain('"Paint the fence"');
    await card.getByRole("radio", { name: /Short note/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Short note" for "Paint the fence".');
    expect(errors).toEqual([]);
  }, 120_000);

  it("asks for the token a daemon requires, then works with it in the URL fragment", async () => {
    const token = "s3cret-token-for-the-web-test";
    const daemon = await world.startDaemon(["--require-auth", "--token", token]);
    const { page } = await world.openPage(`${daemon.url}/`);
    await page.getByRole("heading", { name: "This daemon needs a token" }).waitFor();
    await page.getByLabel("Token", { exact: true }).fill(token);
    await page.getByRole("button", { name: "Use token" }).click();
    await page.waitForURL(`${daemon.url}/#token=${token}`);
    await expect.poll(() => page.locator("#workspace").getAttribute("title")).toBe(world.workspace);
    await expect(page.locator("#auth-layer").isHidden()).resolves.toBe(true);

    // Every call carries the bearer token, the event stream too (EventSource could not).
    await newSession(page);
    await send(page, "Water the plants");
    const card = questionCard(page);
    await card.waitFor();
    await card.getByRole("button", { name: "Cancel" }).click();
    await card.waitFor({ state: "detached" });
    await page.locator("#log li.answer", { hasText: "You: Declined to answer" }).waitFor();
    // Declining ends the turn; the tool call shows how it ended.
    await page.locator("#cancel").waitFor({ state: "hidden" });
    const tool = page.locator("#log li.tool", { hasText: "How should I record your request" });
    // (Polled: the conversation is painted a moment after the events that ended the turn.)
    await expect
      .poll(() => tool.evaluate((el) => [el.className, el.textContent]))
      .toEqual(["item tool tool-declined", expect.stringContaining("you declined")]);
  }, 120_000);
});
