// The web client in a real browser (Debian's Chromium driven by playwright-core) against the real built
// daemon on the built-in demo model: a user asks, answers the question card, approves the file write and
// reads the summary; then the daemon and its children are SIGKILLed, a daemon with
// --restore-ask-user-question comes up on the same address, the page is reloaded, the session is opened
// from the list and its question card is back and answerable.
//
// Needs: `npm run build` (apps/web/dist and packages/cli/dist), Chromium at /usr/bin/chromium
// (`apt-get install -y chromium`) and playwright-core.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DaemonProcess } from "../harness/daemon-process.js";
import { descendantsOf } from "../harness/process-tree.js";

const CHROMIUM = "/usr/bin/chromium";
// The flags TOOLCHAIN.md lists for Chromium as root; playwright adds --headless and a fresh profile dir.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const WEB_DIST = fileURLToPath(new URL("../../apps/web/dist/index.html", import.meta.url));
const STEP_MS = 30_000;

let browser: Browser;
let workspace: string;
let qwenHome: string;
const daemons: DaemonProcess[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\``);
  }
  if (!existsSync(WEB_DIST)) throw new Error(`${WEB_DIST} is missing: run \`npm run build\` first`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
});
afterAll(async () => {
  await browser?.close();
});

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "qwen-web-ws-")));
  qwenHome = realpathSync(mkdtempSync(join(tmpdir(), "qwen-web-home-")));
});
afterEach(async (ctx) => {
  // A failed step says only which locator timed out; show what the pages and daemons were saying.
  const failed = ctx.task.result?.state === "fail";
  for (const page of pages.splice(0)) {
    if (page.isClosed()) continue;
    if (failed) {
      const conn = await page.locator("#conn").textContent();
      const log = (await page.locator("#log li").allTextContents()).join("\n");
      const banner = await page.locator("#banner").textContent();
      console.error(`page ${page.url()}\n  conn: ${conn}\n  banner: ${banner}\n  log:\n${log}`);
    }
    await page.close();
  }
  if (failed) for (const d of daemons) console.error(`daemon ${d.url} stderr:\n${d.stderr}`);
  for (const d of daemons.splice(0)) {
    if (d.child.exitCode === null && d.child.signalCode === null) await d.kill9();
  }
  rmSync(workspace, { recursive: true, force: true });
  rmSync(qwenHome, { recursive: true, force: true });
});

/** The real daemon on the demo model (blank OPENAI_* count as unset), serving the built web client. */
async function startDaemon(args: string[]): Promise<DaemonProcess> {
  const daemon = await DaemonProcess.start({
    cwd: workspace,
    args,
    env: { QWEN_HOME: qwenHome, OPENAI_BASE_URL: "", OPENAI_API_KEY: "", OPENAI_MODEL: "" },
  });
  daemons.push(daemon);
  return daemon;
}

async function openPage(
  url: string,
  viewport = { width: 1100, height: 900 },
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  pages.push(page);
  page.setDefaultTimeout(STEP_MS);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  return { page, errors };
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message to the agent").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

const questionCard = (page: Page): Locator => page.getByRole("form", { name: /The agent asks you/ });
const permissionCard = (page: Page): Locator => page.getByRole("region", { name: /Allow this action/ });

/** Renders a two-question card (multi-select + single) from the served modules; votes go to `window.votes`. */
const MULTI_SELECT_CARD_SCRIPT = `
import { questionCard } from "/interaction-cards.js";
import { questionsOf } from "/answers.js";
const request = {
  requestId: "r-multi",
  options: [
    { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
    { optionId: "cancel", name: "Cancel", kind: "reject_once" },
  ],
  toolCall: {
    _meta: {
      qwenInteractionKind: "user_question",
      qwenQuestions: [
        { question: "Which parts?", header: "Parts", multiSelect: true,
          options: ["Intro", "Body", "Outro"].map((label) => ({ label, description: "The " + label })) },
        { question: "Which colour?", header: "Colour", multiSelect: false,
          options: ["Red", "Blue"].map((label) => ({ label, description: label })) },
      ],
    },
  },
};
window.votes = [];
const card = questionCard(request, questionsOf(request), async (option, answers) => {
  window.votes.push({ optionId: option.optionId, answers });
});
document.getElementById("pending").append(card);
`;

/** Waits until the conversation shows an agent message containing `text`. */
async function agentSays(page: Page, text: string): Promise<void> {
  await page.locator("#log li.agent", { hasText: text }).first().waitFor();
}

describe("web client", () => {
  it("answers a question and a permission, then gets the question back after a crash and restart", async () => {
    const first = await startDaemon(["--restore-ask-user-question"]);
    const port = new URL(first.url).port;
    const { page, errors } = await openPage(`${first.url}/`);

    // The page loaded from the daemon itself and talks to it (same-origin requests pass the Origin guard).
    await page.locator("#workspace", { hasText: workspace }).waitFor();

    // 1. New session, a prompt, the question card.
    await page.getByRole("button", { name: /New session/ }).click();
    await page.locator("#conn", { hasText: "live" }).waitFor();
    await send(page, "Plan my week");
    const card = questionCard(page);
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await expect(card.locator("legend").textContent()).resolves.toContain(
      'How should I record your request "Plan my week"?',
    );
    // One radio per option, plus "Other".
    expect(await card.getByRole("radio").count()).toBe(4);
    await page.screenshot({ path: "/tmp/web-question.png" });

    // Submitting with nothing picked is refused in the page, not sent.
    await card.getByRole("button", { name: "Submit" }).click();
    await card.getByRole("alert").filter({ hasText: "Please answer: Format" }).waitFor();

    await card.getByRole("radio", { name: /Checklist/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await card.waitFor({ state: "detached" });

    // 2. The write permission, with the options the request offered.
    const permission = permissionCard(page);
    await permission.waitFor();
    await expect(permission.getByRole("button").allTextContents()).resolves.toEqual([
      "Allow All Edits",
      "Allow",
      "Reject",
    ]);
    await permission.getByRole("button", { name: "Allow", exact: true }).click();
    await permission.waitFor({ state: "detached" });

    // 3. The summary, and the file the demo model wrote with the answer in it.
    await agentSays(page, '[demo model] Done. You chose "Checklist" for "Plan my week".');
    expect(readFileSync(join(workspace, "demo-notes.md"), "utf8")).toContain("Format: Checklist");
    await page.getByRole("button", { name: "Stop" }).and(page.locator(":disabled")).waitFor();
    const sessionId = await page
      .locator("#sessions button[aria-current='true']")
      .getAttribute("data-session-id");
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await page.screenshot({ path: "/tmp/web-done.png", fullPage: true });

    // 4. A second request: the question is on screen when everything is SIGKILLed.
    await send(page, "Tidy the garage");
    await questionCard(page).waitFor();
    await first.kill9();
    await page.locator("#conn", { hasText: /reconnecting/ }).waitFor();

    // 5. A new daemon with restore on, at the same address; the user reloads and opens the session.
    //    (The page is parked on about:blank meanwhile, so its own reconnect cannot load the session
    //    first: here the restore must come from the click in the list.)
    await page.goto("about:blank");
    const second = await startDaemon(["--restore-ask-user-question", "--port", port]);
    expect(second.url).toBe(first.url);
    await page.goto(`${second.url}/`);
    const listed = page.locator(`#sessions button[data-session-id="${sessionId}"]`);
    await listed.click();
    const restored = questionCard(page);
    await restored.waitFor();
    await restored.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/web-restored.png" });
    await expect(restored.locator("legend").textContent()).resolves.toContain('"Tidy the garage"');
    // The history came back from the transcript (compactedReplay), the question is live again.
    await agentSays(page, '[demo model] Done. You chose "Checklist" for "Plan my week".');
    // The list marks the session as waiting on a question.
    await listed.locator(".badge.ask", { hasText: "❓" }).waitFor();

    // 6. A second page, phone-sized, finds the waiting question from the list alone and answers it
    //    with "Other". Opening a session folds the list away to leave the screen to the conversation.
    const { page: phone, errors: phoneErrors } = await openPage(`${second.url}/`, {
      width: 390,
      height: 844,
    });
    const phoneListed = phone.locator(`#sessions button[data-session-id="${sessionId}"]`);
    await phoneListed.locator(".badge.ask", { hasText: "❓" }).waitFor();
    await phoneListed.click();
    await phone.getByRole("button", { name: "Show" }).waitFor();
    const again = questionCard(phone);
    await again.waitFor();
    await again.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: "/tmp/web-phone-question.png" });
    await again.getByRole("textbox", { name: /Your own answer/ }).fill("A limerick");
    await expect(again.getByRole("radio", { name: /Other/ }).isChecked()).resolves.toBe(true);
    await again.getByRole("button", { name: "Submit" }).click();
    await permissionCard(phone).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(phone, '[demo model] Done. You chose "A limerick" for "Tidy the garage".');
    expect(readFileSync(join(workspace, "demo-notes.md"), "utf8")).toContain("Format: A limerick");
    // Nothing wider than the phone's screen.
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: "/tmp/web-phone-done.png" });

    // The first page saw it all live, as a second client of the same session: cards gone, summary shown.
    await agentSays(page, '[demo model] Done. You chose "A limerick" for "Tidy the garage".');
    await questionCard(page).waitFor({ state: "detached" });
    await page
      .locator(`#sessions button[data-session-id="${sessionId}"] .badge.ask`)
      .waitFor({ state: "detached" });
    await page.screenshot({ path: "/tmp/web-restored-done.png", fullPage: true });

    // The only console errors allowed are the event stream's failed fetches while the daemon was down.
    const unexpected = [...errors, ...phoneErrors].filter(
      (e) => !/ERR_CONNECTION_REFUSED|Failed to fetch|Failed to load resource/.test(e),
    );
    expect(unexpected).toEqual([]);
    await phone.close();
    await page.close();
  }, 180_000);
  it("an open page rides out a daemon restart: it reconnects, reloads the session and shows the question again", async () => {
    const first = await startDaemon(["--restore-ask-user-question"]);
    const { page } = await openPage(`${first.url}/`);
    await page.getByRole("button", { name: /New session/ }).click();
    await page.locator("#conn", { hasText: "live" }).waitFor();
    await send(page, "Sort the mail");
    await questionCard(page).waitFor();
    await first.kill9();
    await page.locator("#conn", { hasText: /reconnecting/ }).waitFor();

    // No reload: the event stream's next attempt finds a daemon without the session (404) and the page
    // loads it, which re-asks the question under a new request id.
    await startDaemon(["--restore-ask-user-question", "--port", new URL(first.url).port]);
    await page.locator("#log li.notice", { hasText: "Reloaded the session" }).waitFor();
    await page.locator("#conn", { hasText: "live" }).waitFor();
    const card = questionCard(page);
    await card.waitFor();
    await expect(card.locator("legend").textContent()).resolves.toContain('"Sort the mail"');
    await card.getByRole("radio", { name: /Detailed note/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Detailed note" for "Sort the mail".');
    await page.close();
  }, 120_000);

  it("a multi-select card sends its picks joined with ', ' plus the Other text, keyed by question index", async () => {
    const daemon = await startDaemon([]);
    const { page, errors } = await openPage(`${daemon.url}/`);
    // Render a card from the served modules with a recording vote handler: the demo model only asks
    // single-choice questions, this covers checkboxes and several questions in one card.
    // A string, so the test runner's transform never rewrites the page-side dynamic imports.
    await page.addScriptTag({ type: "module", content: MULTI_SELECT_CARD_SCRIPT });
    const card = page.getByRole("form", { name: "❓ The agent asks you 2 questions" });
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
    await page.waitForFunction(() => (window as unknown as { votes: unknown[] }).votes.length > 0);
    await expect(page.evaluate(() => (window as unknown as { votes: unknown[] }).votes)).resolves.toEqual([
      { optionId: "proceed_once", answers: { "0": "Intro, Outro, Credits", "1": "Blue" } },
    ]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("a page whose cursor fell out of a small event ring catches up from the transcript", async () => {
    const daemon = await startDaemon(["--event-ring-size", "16"]);
    const { page } = await openPage(`${daemon.url}/`);
    await page.getByRole("button", { name: /New session/ }).click();
    await page.locator("#conn", { hasText: "live" }).waitFor();
    await send(page, "Feed the cat");
    const card = questionCard(page);
    await card.getByRole("radio", { name: /Short note/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Short note" for "Feed the cat".');

    // A second page opens the live session: its load replay ends before the ~30 events the ring no
    // longer holds, so the daemon answers state_resync_required and the page reads the transcript.
    const { page: late, errors } = await openPage(`${daemon.url}/`);
    await late.locator("#sessions button.session").first().click();
    await late.locator("#log li.notice", { hasText: "showing the saved history" }).waitFor();
    await agentSays(late, '[demo model] Done. You chose "Short note" for "Feed the cat".');
    await late.locator("#conn", { hasText: "live" }).waitFor();

    // And it follows live from there.
    await send(late, "Walk the dog");
    await questionCard(late).waitFor();
    await questionCard(page).waitFor();
    expect(errors).toEqual([]);
    await late.close();
    await page.close();
  }, 120_000);

  it("shows a dead agent process, and 'Reload session' brings its question back", async () => {
    const daemon = await startDaemon(["--restore-ask-user-question"]);
    const { page, errors } = await openPage(`${daemon.url}/`);
    await page.getByRole("button", { name: /New session/ }).click();
    await page.locator("#conn", { hasText: "live" }).waitFor();
    await send(page, "Paint the fence");
    await questionCard(page).waitFor();

    // Only the ACP child dies; the daemon lives on and tells the page.
    const children = descendantsOf(daemon.pid);
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) process.kill(pid, "SIGKILL");
    await page.locator("#log li.error", { hasText: "The agent process for this session stopped" }).waitFor();
    await page.locator("#log li.error", { hasText: /The turn failed: .*\(session_died\)/ }).waitFor();
    await questionCard(page).waitFor({ state: "detached" });
    await expect(page.getByLabel("Message to the agent").isDisabled()).resolves.toBe(true);

    await page.getByRole("alert").getByRole("button", { name: "Reload session" }).click();
    const card = questionCard(page);
    await card.waitFor();
    await expect(card.locator("legend").textContent()).resolves.toContain('"Paint the fence"');
    await card.getByRole("radio", { name: /Short note/ }).check();
    await card.getByRole("button", { name: "Submit" }).click();
    await permissionCard(page).getByRole("button", { name: "Allow", exact: true }).click();
    await agentSays(page, '[demo model] Done. You chose "Short note" for "Paint the fence".');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("asks for the token a daemon requires, then works with it in the URL fragment", async () => {
    const token = "s3cret-token-for-the-web-test";
    const daemon = await startDaemon(["--require-auth", "--token", token]);
    const { page } = await openPage(`${daemon.url}/`);
    await page.getByRole("heading", { name: "This daemon needs a token" }).waitFor();
    await page.getByLabel("Token", { exact: true }).fill(token);
    await page.getByRole("button", { name: "Use token" }).click();
    await page.waitForURL(`${daemon.url}/#token=${token}`);
    await page.locator("#workspace", { hasText: workspace }).waitFor();
    await expect(page.locator("#auth").isHidden()).resolves.toBe(true);

    // Every call carries the bearer token, the event stream too (EventSource could not).
    await page.getByRole("button", { name: /New session/ }).click();
    await send(page, "Water the plants");
    const card = questionCard(page);
    await card.waitFor();
    await card.getByRole("button", { name: "Cancel" }).click();
    await card.waitFor({ state: "detached" });
    // Declining ends the turn; the tool call shows how it ended.
    await page.getByRole("button", { name: "Stop" }).and(page.locator(":disabled")).waitFor();
    const tool = page.locator("#log li.tool", { hasText: "Ask user 1 question" });
    await expect(tool.evaluate((el) => [el.className, el.textContent])).resolves.toEqual([
      "item tool tool-failed",
      expect.stringContaining('Tool "ask_user_question" was canceled by the user.'),
    ]);
    await page.close();
  }, 120_000);
});
