// How the web client shows what the agent does, in a real browser against the real daemon on the fake
// OpenAI model: markdown with highlighted code (and nothing a message could use to run script or fetch),
// an edit approval as a diff, a command approval with its folder, a two-question card; the dark theme, a
// 390 px phone, and answering with the keyboard alone.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentSays,
  holdPromptAnswer,
  newSession,
  permissionCard,
  questionCard,
  send,
  useBrowserWorld,
} from "./browser-world.js";
import { NOTES_AFTER, NOTES_BEFORE, webHandler } from "./web-script.js";

const world = useBrowserWorld(webHandler);

/** Page-side expressions as strings: this file is typed for Node, these run in the page. */
const PWNED = "window.pwned";
const WIDER_THAN_SCREEN = "document.documentElement.scrollWidth - window.innerWidth";
const BODY_COLOURS =
  "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]";

/** Relative luminance of an `rgb(r, g, b)` colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

describe("web client rendering", () => {
  it("renders agent markdown with highlighted code, sanitised", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    const blocked: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(daemon.url)) blocked.push(r.url());
    });
    await newSession(page);
    await send(page, "SHOW_MARKDOWN please");
    const message = page.locator("#log li.agent .markdown").last();
    await message.locator("h2", { hasText: "Plan" }).waitFor();
    await expect(message.locator("strong").textContent()).resolves.toBe("step by step");
    await expect(message.locator("ol > li").count()).resolves.toBe(2);
    await expect(message.locator("table td").first().textContent()).resolves.toBe("src/app.ts");
    const code = message.locator("pre.code");
    await expect(code.getAttribute("data-language")).resolves.toBe("typescript");
    await expect(code.locator(".hljs-keyword").first().textContent()).resolves.toBe("export");
    await expect(code.locator(".hljs-string").count()).resolves.toBeGreaterThan(0);
    const link = message.getByRole("link", { name: "the docs" });
    await expect(link.getAttribute("rel")).resolves.toBe("noopener noreferrer nofollow");
    // The raw HTML in the message is shown as text: no image fetched, no script run.
    await expect(message.locator("img, script").count()).resolves.toBe(0);
    await expect(message.textContent()).resolves.toContain("<script>window.pwned = 2</script>");
    expect(await page.evaluate(PWNED)).toBeUndefined();
    expect(blocked).toEqual([]);
    await world.shot(page, "markdown");
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows an edit approval as a diff and a command approval with its folder", async () => {
    writeFileSync(join(world.workspace, "notes.md"), NOTES_BEFORE);
    mkdirSync(join(world.workspace, "pkg"));
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);

    await send(page, "EDIT_NOTES");
    const edit = permissionCard(page, /Allow this edit/);
    await edit.waitFor();
    await expect(edit.locator(".diff-path").textContent()).resolves.toBe("notes.md");
    await expect(edit.locator(".diff-stat").textContent()).resolves.toBe("+2 −1");
    await expect(edit.locator("tr.removed .code").allTextContents()).resolves.toEqual(["−removed: buy milk"]);
    await expect(edit.locator("tr.added .code").allTextContents()).resolves.toEqual([
      "+added: buy oat milk",
      "+added: water the plants",
    ]);
    // Old and new line numbers beside each line.
    await expect(edit.locator("tr.added").first().locator("td.ln").allTextContents()).resolves.toEqual([
      "",
      "3",
    ]);
    await world.shot(page, "edit-diff");
    await edit.getByRole("button", { name: "Allow", exact: true }).click();
    await page.locator("#log li.answer", { hasText: "You: Allowed" }).waitFor();
    await page.locator("#log li.tool", { hasText: "Write notes.md" }).locator(".status-completed").waitFor();
    expect(readFileSync(join(world.workspace, "notes.md"), "utf8")).toBe(NOTES_AFTER);

    await send(page, "RUN_TESTS");
    const command = permissionCard(page, /Allow this command/);
    await command.waitFor();
    await expect(command.locator(".command-line code").textContent()).resolves.toBe("echo tests passed");
    await expect(command.locator(".command-cwd code").textContent()).resolves.toBe(
      join(world.workspace, "pkg"),
    );
    await world.shot(page, "command-approval");
    await command.getByRole("button", { name: "Allow", exact: true }).click();
    // The tool call is a compact row; its output unfolds.
    const row = page.locator("#log li.tool", { hasText: "echo tests passed" });
    await row.locator(".tool-status", { hasText: "done" }).waitFor();
    await expect(row.locator(".chip").textContent()).resolves.toBe("Command");
    await row.locator("summary").click();
    await row.locator("pre.tool-output", { hasText: "tests passed" }).waitFor();
    await agentSays(page, "Noted:");
    await world.shot(page, "tool-rows");
    expect(errors).toEqual([]);
  }, 60_000);

  it("a two-question card sends multi-select picks joined with ', ' plus the Other text", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    await send(page, "ASK_TWO");
    const card = page.getByRole("form", { name: "The agent asks you 2 questions" });
    await card.waitFor();
    expect(await card.getByRole("checkbox").count()).toBe(4);
    expect(await card.getByRole("radio").count()).toBe(3);
    await card.getByRole("checkbox", { name: /Outro/ }).check();
    await card.getByRole("checkbox", { name: /Intro/ }).check();
    await card.getByRole("textbox", { name: "Your own answer for Parts" }).fill("Credits");
    await card.getByRole("button", { name: "Submit" }).click();
    await card.getByRole("alert").filter({ hasText: "Please answer: Colour." }).waitFor();
    await card.getByRole("radio", { name: /Blue/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    const answer = page.locator("#log li.answer", { hasText: "You: Answered" });
    await answer.waitFor();
    await expect(answer.locator("dd").allTextContents()).resolves.toEqual(["Intro, Outro, Credits", "Blue"]);
    // What the model received: the tool result the fake model echoes back.
    await agentSays(page, "Noted: User has provided the following answers:");
    // (Polled: the reply streams in, and is rendered as markdown as it grows.)
    const echoed = page.locator("#log li.agent").last();
    await expect.poll(() => echoed.locator("strong").allTextContents()).toEqual(["Parts", "Colour"]);
    await expect(echoed.textContent()).resolves.toContain("Parts: Intro, Outro, Credits");
    expect(errors).toEqual([]);
  }, 60_000);

  it("follows a dark system theme", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`, { colorScheme: "dark" });
    await newSession(page);
    await send(page, "SHOW_MARKDOWN");
    await page.locator("#log li.agent pre.code").waitFor();
    const [background, text] = (await page.evaluate(BODY_COLOURS)) as [string, string];
    expect(luminance(background)).toBeLessThan(0.05);
    expect(luminance(text)).toBeGreaterThan(0.6);
    await send(page, "ASK");
    await questionCard(page).waitFor();
    await world.shot(page, "dark");
    expect(errors).toEqual([]);
  }, 60_000);

  it("is usable at 390 px: nothing wider than the screen, the answer buttons in reach, the list in a drawer", async () => {
    const daemon = await world.startDaemon();
    const viewport = { width: 390, height: 844 };
    const { page, errors } = await world.openPage(`${daemon.url}/`, { viewport });
    // With no session open the list is offered first.
    await expect.poll(() => page.locator("#toggle-sessions").getAttribute("aria-expanded")).toBe("true");
    await newSession(page);
    await expect(page.locator("#toggle-sessions").getAttribute("aria-expanded")).resolves.toBe("false");
    await send(page, "EDIT_NOTES");
    const edit = permissionCard(page, /Allow this edit/);
    await edit.waitFor();
    for (const name of ["Allow", "Reject", "Allow all edits"]) {
      const box = await edit.getByRole("button", { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    }
    expect(await page.evaluate(WIDER_THAN_SCREEN)).toBeLessThanOrEqual(0);
    await world.shot(page, "phone-edit");
    await edit.getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, "Noted:");
    // The sessions are one tap away and marked.
    await page.getByRole("button", { name: "Sessions" }).click();
    await page.locator("#sidebar.open button.session[aria-current='true']").waitFor();
    // On screen once it has slid in.
    await expect.poll(async () => (await page.locator("#sidebar").boundingBox())?.x).toBe(0);
    await world.shot(page, "phone-sessions");
    await page.keyboard.press("Escape");
    await expect(page.locator("#toggle-sessions").getAttribute("aria-expanded")).resolves.toBe("false");
    expect(errors).toEqual([]);
  }, 60_000);

  it("can be answered with the keyboard alone", async () => {
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`);
    await newSession(page);
    // The prompt's 202 is held until the question is on screen, as on a loaded machine where the stream's event
    // can beat the POST's answer: the text still in the box is then on its way, not a draft being typed.
    let questionShown = false;
    await holdPromptAnswer(page, "ASK about colours", () => questionShown);
    // Creating a session puts the cursor in the message box; Enter sends.
    await page.keyboard.type("ASK about colours");
    await page.keyboard.press("Enter");
    const card = questionCard(page);
    await card.waitFor();
    questionShown = true;
    // The card takes the focus when it arrives; Tab reaches the first choice, arrows move, Enter submits.
    await expect
      .poll(() => page.evaluate("document.activeElement?.closest('form.card') !== null"))
      .toBe(true);
    await page.keyboard.press("Tab");
    await expect(
      card.getByRole("radio", { name: /Red/ }).evaluate((el) => el === el.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await page.keyboard.press("ArrowDown");
    await expect(card.getByRole("radio", { name: /Blue/ }).isChecked()).resolves.toBe(true);
    await world.shot(page, "keyboard");
    await page.keyboard.press("Enter");
    const answer = page.locator("#log li.answer", { hasText: "You: Answered" });
    await expect(answer.locator("dd").textContent()).resolves.toBe("Blue");
    // Focus went back to the message box, ready for the next message.
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("prompt");
    await agentSays(page, "Noted:");
    expect(errors).toEqual([]);
  }, 60_000);
});
