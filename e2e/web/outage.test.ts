// The crash story as a person at the open page sees it: while the daemon is down a banner says so, nothing
// can be sent or answered, and what they picked and typed stays; when a daemon with
// --restore-ask-user-question is back on the same address the page finds it by itself, says the agent is
// asking again, shows the same question with the earlier pick still chosen, and the answer lands in the
// conversation. Real daemon (demo model), real SIGKILL, Debian's Chromium.
import { describe, expect, it } from "vitest";
import {
  agentSays,
  live,
  newSession,
  permissionCard,
  questionCard,
  send,
  unexpected,
  useBrowserWorld,
} from "./browser-world.js";

const world = useBrowserWorld();

describe("web client across a daemon crash", () => {
  it("shows the outage, keeps the pick and the draft, and says the agent is asking again once it is back", async () => {
    const first = await world.startDaemon(["--restore-ask-user-question"]);
    const { page, errors } = await world.openPage(`${first.url}/`);
    await newSession(page);
    await send(page, "Sort the mail");
    const card = questionCard(page);
    await card.waitFor();
    await card.getByRole("radio", { name: /Detailed note/ }).check();
    const composer = page.getByLabel("Message to the agent");
    await composer.fill("and then the post box");

    await first.kill9();

    // The outage, told plainly; sending and answering are off, what was picked and typed is not lost.
    const banner = page.getByRole("alert").filter({ hasText: "The daemon cannot be reached" });
    await banner.waitFor();
    await page.locator("#conn", { hasText: "Daemon away" }).waitFor();
    await expect(banner.getByRole("button", { name: "Retry now" }).isVisible()).resolves.toBe(true);
    await expect(card.getByRole("button", { name: "Submit" }).isDisabled()).resolves.toBe(true);
    await expect(card.getByRole("button", { name: "Cancel" }).isDisabled()).resolves.toBe(true);
    await expect(card.getByRole("radio", { name: /Short note/ }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Send", exact: true }).isDisabled()).resolves.toBe(true);
    await expect(card.getByRole("radio", { name: /Detailed note/ }).isChecked()).resolves.toBe(true);
    await expect(composer.inputValue()).resolves.toBe("and then the post box");
    // Still typing is fine (the box stays editable), sending waits.
    await composer.press("End");
    await composer.pressSequentially(", please");
    await world.shot(page, "outage");

    // The daemon is back with restore on: no reload, no click. The page sees it, reloads the session and
    // the agent asks the same question again under a new request id.
    const oldRequestId = await card.getAttribute("data-request-id");
    await world.startDaemon(["--restore-ask-user-question", "--port", String(first.port)]);
    await page
      .locator("#log li.notice", { hasText: "The daemon restarted; the agent is asking you again." })
      .waitFor();
    await banner.waitFor({ state: "detached" });
    await live(page);
    const again = questionCard(page);
    await again.getByText("Asked again after a restart").waitFor();
    expect(await again.getAttribute("data-request-id")).not.toBe(oldRequestId);
    await expect(again.locator("legend").textContent()).resolves.toContain('"Sort the mail"');
    // Matched by the question, not the request id: the earlier pick is still chosen.
    await expect(again.getByRole("radio", { name: /Detailed note/ }).isChecked()).resolves.toBe(true);
    await expect(composer.inputValue()).resolves.toBe("and then the post box, please");
    await expect(again.getByRole("button", { name: "Submit" }).isEnabled()).resolves.toBe(true);
    await world.shot(page, "asked-again");

    await again.getByRole("button", { name: "Submit" }).click();
    const answer = page.locator("#log li.answer", { hasText: "You: Answered" }).last();
    await expect(answer.locator("dd").textContent()).resolves.toBe("Detailed note");
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Detailed note" for "Sort the mail".');
    // The draft is still there to send.
    await send(page, await composer.inputValue());
    await page.locator("#log li.user", { hasText: "and then the post box, please" }).waitFor();
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);

  it("a page reloaded during the outage comes back to its session with its pick", async () => {
    const first = await world.startDaemon(["--restore-ask-user-question"]);
    const { page, errors } = await world.openPage(`${first.url}/`);
    await newSession(page);
    await send(page, "Clean the windows");
    await questionCard(page)
      .getByRole("radio", { name: /Checklist/ })
      .check();
    await first.kill9();
    await page.locator("#conn", { hasText: "Daemon away" }).waitFor();
    await world.startDaemon(["--restore-ask-user-question", "--port", String(first.port)]);
    // A reload (F5) right away: the tab remembers the session it had open and the pick it had made.
    await page.reload();
    const again = questionCard(page);
    await again.waitFor();
    await expect(again.locator("legend").textContent()).resolves.toContain('"Clean the windows"');
    await expect(again.getByRole("radio", { name: /Checklist/ }).isChecked()).resolves.toBe(true);
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);
});
