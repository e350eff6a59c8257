// The web client as a place people live in (issue 25), in Chromium against the real daemon on the fake model:
// nothing typed goes missing while the agent waits; approvals make the safe choice the easy one; one plain
// vocabulary for what a session is doing; sessions with real titles, renamed, deleted, filtered, and answers
// that say who gave them, also after a restart; a phone layout that holds up while the daemon is away.
// Each test saves its screens at 1280 and 390 px, light and dark (world.shots).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  agentSays,
  currentSessionId,
  holdPromptAnswer,
  live,
  newSession,
  permissionCard,
  questionCard,
  send,
  sendAnswered,
  unexpected,
  useBrowserWorld,
} from "./browser-world.js";
import { LONG_FIRST_PROMPT, NOTES_BEFORE, webHandler } from "./web-script.js";

const world = useBrowserWorld(webHandler);

/** The text of the open page, as a person reads it (page-side expression). */
const PAGE_TEXT = "document.body.innerText";

async function pendingPrompts(page: Page, sessionId: string): Promise<{ text: string; state: string }[]> {
  const answer = (await page.evaluate(
    `fetch("/session/${sessionId}/pending-prompts").then((r) => r.json())`,
  )) as { pendingPrompts: { text: string; state: string }[] };
  return answer.pendingPrompts;
}

describe("web client, lived in", () => {
  it("nothing typed goes missing: a message sent while a question waits is queued in view, editable and withdrawable", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "ASK about colours");
    const card = questionCard(page);
    await card.waitFor();
    const sessionId = await currentSessionId(page);

    // Sent while the question waits: shown at once, queued, with its place in line. Its answer is held until the
    // next message is written, as on a loaded machine: the queued line comes from the stream first, and what the
    // person writes while a message is on its way stays in the box.
    const composer = page.getByLabel("Message to the agent");
    await holdPromptAnswer(
      page,
      "also fix the license year",
      async () => (await composer.inputValue()) === "and the copyright line",
    );
    await send(page, "also fix the license year");
    const queued = page.locator("#queued li.queued", { hasText: "also fix the license year" });
    await queued.waitFor();
    await expect(queued.locator(".queue-position").textContent()).resolves.toBe("Queued · next in line");
    await send(page, "and the copyright line");
    const second = page.locator("#queued li.queued", { hasText: "and the copyright line" });
    await expect(second.locator(".queue-position").textContent()).resolves.toBe("Queued · 2nd in line");
    await world.shots(page, "queued");

    // Withdrawn: gone from the page and from the daemon's queue; the one behind moves up.
    await second.getByRole("button", { name: "Withdraw" }).click();
    await second.waitFor({ state: "detached" });
    await expect
      .poll(() => pendingPrompts(page, sessionId).then((p) => p.map((x) => x.text)))
      .toEqual(["ASK about colours", "also fix the license year"]);
    // Edited: taken back into the message box (and out of the queue) to be changed and sent again.
    await queued.getByRole("button", { name: "Edit" }).click();
    await queued.waitFor({ state: "detached" });
    // (Polled: the line goes when the daemon lets the message go, the text lands in the box right after.)
    await expect.poll(() => composer.inputValue()).toBe("also fix the license year");
    // Its answer is held until it has started: a message that left the queue is not queued again by a late 202.
    await holdPromptAnswer(
      page,
      "also fix the license year 2026",
      async () => (await page.locator("#log li.user", { hasText: "license year 2026" }).count()) > 0,
    );
    await send(page, "also fix the license year 2026");
    const edited = page.locator("#queued li.queued", { hasText: "also fix the license year 2026" });
    await expect(edited.locator(".queue-position").textContent()).resolves.toBe("Queued · next in line");

    // The question answered, the turn ends and the queued message goes out: it becomes a sent message.
    await card.getByRole("radio", { name: /Blue/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await edited.waitFor({ state: "detached" });
    await page.locator("#log li.user", { hasText: "also fix the license year 2026" }).waitFor();
    await sendAnswered(page);
    await expect(page.locator("#queued li").count()).resolves.toBe(0);
    await agentSays(page, "Plain answer.");
    await expect(page.locator("#log li.user", { hasText: "and the copyright line" }).count()).resolves.toBe(
      0,
    );
    expect(errors).toEqual([]);
  }, 90_000);

  it("safe approvals: Allow (once) first and the default, the broad choice apart and in words; a no-change edit says so", async () => {
    writeFileSync(join(world.workspace, "notes.md"), NOTES_BEFORE);
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "EDIT_NOTES");
    const edit = permissionCard(page, /Allow this edit/);
    await edit.waitFor();
    await expect(edit.getByRole("button").allTextContents()).resolves.toEqual([
      "Allow",
      "Reject",
      "Allow all edits",
    ]);
    const allow = edit.getByRole("button", { name: "Allow", exact: true });
    const broad = edit.getByRole("button", { name: "Allow all edits" });
    await expect(allow.getAttribute("class")).resolves.toContain("primary");
    // Not the look of Allow: another colour, a lower button in smaller type, below the others.
    type Look = { bg: string; height: number; top: number; font: number };
    // Page-side (this file is typed for Node): the card's button with this text, measured.
    const look = async (text: string) =>
      (await page.evaluate(`(() => {
        const el = [...document.querySelectorAll("section.card button")].find((b) => b.textContent === ${JSON.stringify(text)});
        const s = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return { bg: s.backgroundColor, height: r.height, top: r.top, font: parseFloat(s.fontSize) };
      })()`)) as Look;
    const [a, b] = [await look("Allow"), await look("Allow all edits")];
    expect(b.bg).not.toBe(a.bg);
    expect(b.height).toBeLessThan(a.height);
    expect(b.font).toBeLessThan(a.font);
    expect(b.top).toBeGreaterThan(a.top);
    // Its scope, in words, tied to it.
    await expect(broad.getAttribute("aria-describedby")).resolves.toBeTruthy();
    await expect(edit.locator(".scope").textContent()).resolves.toBe(
      "Allows this and every later edit in this session without asking again.",
    );
    // The first Tab stop from the card is Allow.
    await edit.locator(".card-title").focus();
    await page.keyboard.press("Tab");
    await expect(page.evaluate("document.activeElement?.textContent")).resolves.toBe("Allow");
    await world.shots(page, "safe-approval");
    await allow.click();
    await agentSays(page, "Noted:");

    // An edit that leaves the file as it is says so, with no empty diff.
    await send(page, "SAME_EDIT");
    const same = permissionCard(page, /Allow this edit/);
    await same.waitFor();
    await same.getByText("This edit changes nothing: notes.md stays as it is.").waitFor();
    await expect(same.locator("table, .diff-stat").count()).resolves.toBe(0);
    await world.shots(page, "no-change-edit");
    await same.getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, "Noted:");
    expect(errors).toEqual([]);
  }, 90_000);

  it("plain words: one state vocabulary in the header and the list, declines shown as a choice, no protocol words", async () => {
    writeFileSync(join(world.workspace, "notes.md"), NOTES_BEFORE);
    const first = await world.startDaemon();
    const { page, errors } = await world.openPage(`${first.url}/`);
    await newSession(page);
    const state = page.locator("#conn");
    const row = page.locator("#sessions button.session[aria-current='true']");
    await expect.poll(() => state.textContent()).toBe("Idle");

    await send(page, "ASK about colours");
    await questionCard(page).waitFor();
    // The same words in the header and in the list; no Stop (and no "Working") while it waits on you.
    await expect.poll(() => state.textContent()).toBe("Waiting for you: question");
    await expect.poll(() => row.locator(".state").textContent()).toBe("Waiting for you: question");
    await expect(row.locator(".badge").allTextContents()).resolves.toEqual(["Waiting for you: question"]);
    await expect(page.locator("#cancel").isHidden()).resolves.toBe(true);
    await expect(page.locator("#working").isHidden()).resolves.toBe(true);
    await world.shots(page, "state-waiting");

    // Declining is the person's choice, not a failure, and reads so.
    await questionCard(page).getByRole("button", { name: "Cancel" }).click();
    await page.locator("#log li.answer", { hasText: "You: Declined to answer" }).waitFor();
    const asked = page.locator("#log li.tool").last();
    await expect.poll(() => asked.textContent()).toContain("you declined");
    await expect(asked.getAttribute("class")).resolves.not.toContain("failed");
    await expect(asked.locator(".tool-title").textContent()).resolves.toBe("Which colour?");
    await expect.poll(() => state.textContent()).toBe("Idle");

    // An answered question's row unfolds to the answer, rendered (no markdown marks, no tool wording).
    await send(page, "ASK again");
    await questionCard(page).getByRole("radio", { name: /Red/ }).check();
    await questionCard(page).getByRole("button", { name: "Submit" }).click();
    await agentSays(page, "Noted:");
    const answered = page.locator("#log li.tool").last();
    await answered.locator("summary").click();
    await answered.locator(".tool-body strong", { hasText: "Colour" }).waitFor();

    // A rejected edit: "you said no", not "failed".
    await send(page, "EDIT_NOTES");
    await permissionCard(page, /Allow this edit/).waitFor();
    await expect.poll(() => state.textContent()).toBe("Waiting for you: approval");
    await permissionCard(page, /Allow this edit/)
      .getByRole("button", { name: "Reject" })
      .click();
    const rejected = page.locator("#log li.tool", { hasText: "notes.md" }).last();
    await expect.poll(() => rejected.textContent()).toContain("you said no");
    await expect(rejected.getAttribute("class")).resolves.not.toContain("failed");

    const text = String(await page.evaluate(PAGE_TEXT));
    for (const word of [
      "ask_user_question",
      "canceled by the user",
      "Ask user",
      "**",
      "unreachable",
      "failed",
      "Session ",
    ]) {
      expect(text, word).not.toContain(word);
    }
    await world.shots(page, "plain-words");

    // The daemon away: said with the same vocabulary.
    await first.kill9();
    await expect.poll(() => state.textContent()).toBe("Daemon away");
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);

  it("sessions managed: summary titles, rename, filter, compact rows, who answered, the same records after a restart", async () => {
    const first = await world.startDaemon();
    const { page, errors } = await world.openPage(`${first.url}/`);
    await newSession(page);
    // Its answer is held until the turn is over, as on a loaded machine: the page is idle after it, not working.
    const state = page.locator("#conn");
    await holdPromptAnswer(
      page,
      LONG_FIRST_PROMPT,
      async () =>
        (await page.locator("#log li.agent", { hasText: "Plain answer." }).count()) > 0 &&
        (await state.textContent()) === "Idle",
    );
    await send(page, LONG_FIRST_PROMPT);
    await agentSays(page, "Plain answer.");
    await sendAnswered(page);
    await expect(state.textContent()).resolves.toBe("Idle");
    await expect(page.locator("#cancel").isHidden()).resolves.toBe(true);
    const sessionId = await currentSessionId(page);
    const row = page.locator(`#sessions button.session[data-session-id="${sessionId}"]`);
    // A short summary of the first prompt, cut at a word.
    // (Polled: the list learns the first prompt a moment after it was sent.)
    await expect
      .poll(() => row.locator(".session-name").textContent())
      .toBe("Add a section about installing on Linux and…");
    const title = "Add a section about installing on Linux and";
    expect(LONG_FIRST_PROMPT.startsWith(title)).toBe(true);
    expect(LONG_FIRST_PROMPT.charAt(title.length)).toBe(" ");

    // Renamed from the header; the daemon keeps the name.
    await page.getByRole("button", { name: "Rename" }).click();
    const name = page.getByRole("textbox", { name: "Session name" });
    await name.fill("Install docs");
    await name.press("Enter");
    await expect.poll(() => page.locator("#session-title").textContent()).toBe("Install docs");
    await expect.poll(() => row.locator(".session-name").textContent()).toBe("Install docs");

    // A second session that waits on a question; rows stay one line.
    await newSession(page);
    await send(page, "ASK about colours");
    await questionCard(page).waitFor();
    const other = await currentSessionId(page);
    await page.locator(`#sessions button.session[data-session-id="${other}"] .badge.ask`).waitFor();
    for (const id of [sessionId, other]) {
      const box = await page.locator(`#sessions button.session[data-session-id="${id}"]`).boundingBox();
      expect(box?.height ?? 999).toBeLessThanOrEqual(44);
    }
    await world.shots(page, "sessions");
    // Filtered by words of the title.
    await page.getByRole("searchbox", { name: "Filter sessions" }).fill("install");
    await expect.poll(() => page.locator("#sessions button.session").count()).toBe(1);
    await page.getByRole("searchbox", { name: "Filter sessions" }).fill("");

    // The same person answers from another device (another browser): this page says so, not "someone else".
    const phone = await world.openPage(`${first.url}/#session=${other}`, {
      viewport: { width: 390, height: 844 },
    });
    const phoneCard = questionCard(phone.page);
    await phoneCard.getByRole("radio", { name: /Blue/ }).check();
    await phoneCard.getByRole("button", { name: "Submit" }).click();
    const byDevice = page.locator("#log li.answer", { hasText: "Answered" });
    await expect.poll(() => byDevice.textContent()).toContain("on another of your devices");
    await agentSays(page, "Noted:");
    await phone.context.close();

    // After a restart the conversation shows the same records it showed before.
    await page.locator(`#sessions button.session[data-session-id="${other}"]`).click();
    await live(page);
    const before = await page.locator("#log li.answer").allTextContents();
    expect(before.length).toBe(1);
    await first.kill9();
    const second = await world.startDaemon(["--port", String(first.port)]);
    await page.goto("about:blank");
    await page.goto(`${second.url}/#session=${other}`);
    await agentSays(page, "Noted:");
    await expect.poll(() => page.locator("#log li.answer").allTextContents()).toEqual(before);
    expect(unexpected(errors)).toEqual([]);
  }, 150_000);

  it("phone first: a one-line outage banner, the question within the screen with the agent's words in view, touch hints", async () => {
    const first = await world.startDaemon();
    const { page, errors } = await world.openPage(`${first.url}/`, {
      viewport: { width: 390, height: 844 },
      touch: true,
    });
    await newSession(page);
    await expect(page.locator("#prompt-help").textContent()).resolves.toBe(
      "Tap the arrow to send; Return adds a line.",
    );
    await send(page, "ASK_TWO about the parts");
    const card = page.getByRole("form", { name: /The agent asks you 2 questions/ });
    await card.waitFor();
    const viewport = 844;
    // The card fits the screen (it scrolls inside) and the agent's last words stay visible above it.
    const cardBox = await card.boundingBox();
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(viewport);
    const said = page.locator("#log li.agent").last();
    await said.waitFor();
    const saidBox = await said.boundingBox();
    expect(saidBox!.y).toBeGreaterThanOrEqual(0);
    expect(saidBox!.y + saidBox!.height).toBeLessThanOrEqual(cardBox!.y);
    await card.getByRole("button", { name: "Submit" }).scrollIntoViewIfNeeded();

    await first.kill9();
    const banner = page.locator("#banner");
    await banner.waitFor();
    await expect.poll(() => page.locator("#conn").textContent()).toBe("Daemon away");
    // One line: no taller than its button, and the header title is not cut.
    const bannerBox = await banner.boundingBox();
    expect(bannerBox!.height).toBeLessThanOrEqual(48);
    const cut = await page.locator("#session-title").evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(false);
    const cardAway = await card.boundingBox();
    expect(cardAway!.y + cardAway!.height).toBeLessThanOrEqual(viewport);
    await world.shots(page, "phone-outage");
    expect(unexpected(errors)).toEqual([]);
  }, 90_000);
});
