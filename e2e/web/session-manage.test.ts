// Managing sessions from the web client (issue 25), in Chromium against the real daemon on the fake model:
// deleting a session (asked first, through the daemon's delete route, gone from the list and the disk, and
// said so on another page), the model in the header and choosing another, answers that say who gave them when
// it was not you here (a notification's link, another person), and the agent's own title (an agent that gives
// one: harness/titling-agent.mjs in front of ours).
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../harness/daemon-process.js";
import { type Notification, Phone } from "../harness/phone.js";
import { chatsDir } from "../harness/session-files.js";
import {
  agentSays,
  currentSessionId,
  live,
  newSession,
  questionCard,
  send,
  unexpected,
  useBrowserWorld,
} from "./browser-world.js";
import { webHandler } from "./web-script.js";

const world = useBrowserWorld(webHandler);
/** An agent that names its sessions (ACP session_info_update) before answering each prompt. */
const TITLING_AGENT = fileURLToPath(new URL("../harness/titling-agent.mjs", import.meta.url));
const phones: Phone[] = [];
afterEach(() => {
  for (const p of phones.splice(0)) p.close();
});

/** The files the daemon keeps for a session (transcript, ledger, journals). */
const filesOf = (sessionId: string) =>
  existsSync(chatsDir(world.qwenHome, world.workspace))
    ? readdirSync(chatsDir(world.qwenHome, world.workspace)).filter((f) => f.startsWith(sessionId))
    : [];

describe("web client: sessions managed", () => {
  it("deletes the open session after asking: Keep changes nothing; Delete removes it from the list and the disk", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "The session that stays");
    await agentSays(page, "Plain answer.");
    const kept = await currentSessionId(page);
    await newSession(page);
    await send(page, "The session to delete");
    await agentSays(page, "Plain answer.");
    const doomed = await currentSessionId(page);
    const row = (id: string) => page.locator(`#sessions button.session[data-session-id="${id}"]`);
    await expect.poll(() => filesOf(doomed).length).toBeGreaterThan(0);

    // Asked first, naming the session; Keep it changes nothing.
    const dialog = page.getByRole("dialog", { name: "Delete this session?" });
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The session to delete");
    await world.shots(page, "delete-confirm");
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect(page.locator("#session-title").textContent()).resolves.toBe("The session to delete");
    expect(filesOf(doomed).length).toBeGreaterThan(0);

    // Another page follows the same session (another tab, a phone).
    const other = await world.openPage(`${daemon.url}/#session=${doomed}`);
    await live(other.page);

    // Delete for good: the list drops it, the page has no session open, the daemon's files are gone.
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await row(doomed).waitFor({ state: "detached" });
    await expect.poll(() => page.locator("#session-title").textContent()).toBe("No session open");
    await page.locator("#session-hint").waitFor();
    expect(filesOf(doomed)).toEqual([]);
    expect(filesOf(kept).length).toBeGreaterThan(0);
    await row(kept).waitFor();

    // The other page says what happened (not "closed", no failed reload), and its list drops the session too.
    await other.page
      .locator("#log li", { hasText: "This session was deleted. Its conversation is gone from the daemon." })
      .waitFor();
    await other.page
      .locator(`#sessions button.session[data-session-id="${doomed}"]`)
      .waitFor({ state: "detached" });
    await expect(other.page.getByRole("button", { name: "Send" }).isDisabled()).resolves.toBe(true);
    await expect(other.page.locator("#banner").isHidden()).resolves.toBe(true);
    expect(unexpected(other.errors)).toEqual([]);

    // A reload opens nothing (the deleted session is not brought back) and the list agrees with the daemon.
    await page.reload();
    await row(kept).waitFor();
    await expect(row(doomed).count()).resolves.toBe(0);
    await expect(page.locator("#banner").isHidden()).resolves.toBe(true);
    await expect(page.locator("#session-title").textContent()).resolves.toBe("No session open");

    // The kept session still opens.
    await row(kept).click();
    await live(page);
    await page.locator("#log li.user", { hasText: "The session that stays" }).waitFor();
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);

  it("shows the model in the header and, when the agent offers several, the next request goes to the one chosen", async () => {
    writeFileSync(
      join(world.qwenHome, "settings.json"),
      JSON.stringify({ modelProviders: { openai: [{ id: "second-model", name: "Second model" }] } }),
    );
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    const model = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => model.inputValue()).toBe("fake");
    await expect(model.locator("option").allTextContents()).resolves.toEqual(["fake", "Second model"]);
    await send(page, "First on the configured model");
    await agentSays(page, "Plain answer.");
    expect(world.model?.requests.at(-1)?.model).toBe("fake");

    await model.selectOption("second-model");
    await expect.poll(() => model.isEnabled()).toBe(true);
    await expect(model.inputValue()).resolves.toBe("second-model");
    await expect
      .poll(() => page.locator("#sessions button[aria-current='true'] .session-name").textContent())
      .toBe("First on the configured model");
    await world.shots(page, "model-choice");
    await send(page, "Then on the second");
    await page.locator("#log li.agent", { hasText: "Plain answer." }).nth(1).waitFor();
    expect(world.model?.requests.at(-1)?.model).toBe("second-model");

    // Another page on the same session sees the model in use.
    const sessionId = await currentSessionId(page);
    const other = await world.openPage(`${daemon.url}/#session=${sessionId}`);
    await live(other.page);
    await expect
      .poll(() => other.page.getByRole("combobox", { name: "Model" }).inputValue())
      .toBe("second-model");
    expect(unexpected([...errors, ...other.errors])).toEqual([]);
  }, 120_000);

  it("a session on a daemon with one model shows its name, with nothing to choose", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await expect.poll(() => page.locator("#model-name").textContent()).toBe("fake");
    await expect(page.getByRole("combobox", { name: "Model" }).count()).resolves.toBe(0);
    expect(unexpected(errors)).toEqual([]);
  }, 60_000);

  it("says an answer came from a notification's link, with the link's choice", async () => {
    const phone = await Phone.start();
    phones.push(phone);
    const daemon = await world.startDaemon(["--notify-webhook", phone.hookUrl]);
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "ASK about colours");
    await questionCard(page).waitFor();
    const told = await phone.until((n: Notification) => n.type === "question_waiting", "the question");
    const blue = told.actions?.find((a) => a.label === "Blue");
    expect(blue).toBeDefined();
    expect((await phone.tap(blue?.url as string)).status).toBe(200);

    const line = page.locator("#log li.answer");
    await expect.poll(() => line.locator(".answer-head").textContent()).toContain("From a link: Answered");
    expect(await line.textContent()).toContain("with the \u201cBlue\u201d button of a notification");
    await questionCard(page).waitFor({ state: "detached" });
    await agentSays(page, "Noted:");
    expect(unexpected(errors)).toEqual([]);
  }, 90_000);

  it("where several people answer (consensus), an answer from another browser is another person's", async () => {
    const daemon = await world.startDaemon(["--permission-policy", "consensus", "--consensus-quorum", "1"]);
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "Hello");
    await agentSays(page, "Plain answer.");
    const sessionId = await currentSessionId(page);
    // The other person's browser follows the session before the question, so it may vote on it.
    const other = await world.openPage(`${daemon.url}/#session=${sessionId}`);
    await live(other.page);
    await send(page, "ASK about colours");
    const theirs = questionCard(other.page);
    await theirs.getByRole("radio", { name: /Red/ }).check();
    await theirs.getByRole("button", { name: "Submit" }).click();

    const line = page.locator("#log li.answer");
    await expect.poll(() => line.locator(".answer-head").textContent()).toContain("Someone else: Answered");
    expect(await line.textContent()).toContain("another person");
    // On their own page it is theirs.
    await expect
      .poll(() => other.page.locator("#log li.answer .answer-head").textContent())
      .toContain("You: Answered");
    expect(unexpected([...errors, ...other.errors])).toEqual([]);
  }, 90_000);

  it("names the session with the agent's own title, over the first prompt's, until a person renames it", async () => {
    const daemon = await world.startDaemon([
      "--acp-command",
      JSON.stringify([process.execPath, TITLING_AGENT, CLI_ENTRY]),
    ]);
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "Please add a section about installing on Linux to the README");
    await agentSays(page, "Plain answer.");
    const title = page.locator("#session-title");
    await expect.poll(() => title.textContent()).toBe("Agent title: Please");
    const row = page.locator("#sessions button[aria-current='true'] .session-name");
    await expect.poll(() => row.textContent()).toBe("Agent title: Please");
    // The list's name for it (the first prompt) comes later and does not replace the agent's.
    await send(page, "Thanks again");
    await page.locator("#log li.agent", { hasText: "Plain answer." }).nth(1).waitFor();
    await expect.poll(() => title.textContent()).toBe("Agent title: Thanks");

    // A person's name outranks it.
    await page.getByRole("button", { name: "Rename" }).click();
    const name = page.getByRole("textbox", { name: "Session name" });
    await name.fill("Install docs");
    await name.press("Enter");
    await expect.poll(() => title.textContent()).toBe("Install docs");
    await expect.poll(() => row.textContent()).toBe("Install docs");
    // Also when the agent names it again afterwards.
    await send(page, "More please");
    await page.locator("#log li.agent", { hasText: "Plain answer." }).nth(2).waitFor();
    await expect(title.textContent()).resolves.toBe("Install docs");
    expect(unexpected(errors)).toEqual([]);
  }, 90_000);
});
