// What every browser test file shares: Debian's Chromium driven by playwright-core, a fresh workspace and
// QWEN_HOME per test, the real built daemon serving the built web client (on the demo model, or on the fake
// OpenAI model when the file gives a handler), pages that record console errors, and screenshots saved to
// e2e/web/artifacts/ (gitignored; the README's pictures are chosen from there).
//
// Needs: `npm run build` (apps/web/dist and packages/cli/dist), Chromium at /usr/bin/chromium.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeHandler, type FakeOpenAIServer, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { DaemonProcess } from "../harness/daemon-process.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The flags Chromium needs to run as root in a container; playwright adds --headless and a fresh profile dir.
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
export const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));
const STEP_MS = 30_000;

/** The console errors a kill is expected to cause: the page's requests failing while the daemon is down. */
export const EXPECTED_OUTAGE_ERRORS =
  /ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|Failed to fetch|Failed to load resource/;

export type OpenedPage = { page: Page; errors: string[]; context: BrowserContext };

export type PageOptions = {
  viewport?: { width: number; height: number };
  colorScheme?: "light" | "dark";
  /** Browser permissions granted to the daemon's origin (e.g. "notifications"). */
  permissions?: string[];
  /** A touch screen (a phone): coarse pointer, no hover. */
  touch?: boolean;
};

export class BrowserWorld {
  browser: Browser | undefined;
  model: FakeOpenAIServer | undefined;
  workspace = "";
  qwenHome = "";
  readonly daemons: DaemonProcess[] = [];
  readonly pages: OpenedPage[] = [];

  /** The real daemon (blank OPENAI_* means the demo model), serving the built web client. */
  async startDaemon(args: string[] = []): Promise<DaemonProcess> {
    const model = this.model
      ? { OPENAI_BASE_URL: this.model.url, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake" }
      : { OPENAI_BASE_URL: "", OPENAI_API_KEY: "", OPENAI_MODEL: "" };
    const daemon = await DaemonProcess.start({
      cwd: this.workspace,
      args,
      env: { QWEN_HOME: this.qwenHome, ...model },
    });
    this.daemons.push(daemon);
    return daemon;
  }

  async openPage(url: string, options: PageOptions = {}): Promise<OpenedPage> {
    const browser = this.browser as Browser;
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1200, height: 860 },
      colorScheme: options.colorScheme ?? "light",
      deviceScaleFactor: 1,
      ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
    });
    if (options.permissions)
      await context.grantPermissions(options.permissions, { origin: new URL(url).origin });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_MS);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    await page.goto(url);
    const opened = { page, errors, context };
    this.pages.push(opened);
    return opened;
  }

  /** Saves a screenshot as a test artifact; returns its path. */
  async shot(page: Page, name: string, fullPage = false): Promise<string> {
    mkdirSync(ARTIFACTS, { recursive: true });
    // An open session is in the list too (the list refreshes a moment after the event that changed it).
    if (await page.locator("#session-hint").isHidden()) {
      await page.locator("#sessions button[aria-current='true']").waitFor({ state: "attached" });
    }
    const path = join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path, fullPage });
    return path;
  }

  /**
   * The same moment at 1280 and 390 px, light and dark (`<name>-1280-light.png`, ...): the page is resized
   * and its colour scheme switched in place, then put back as it was.
   */
  async shots(page: Page, name: string): Promise<void> {
    const before = page.viewportSize();
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ["light", "dark"] as const) {
        // Reduced motion: the drawer does not slide across the picture when the width changes.
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        // Two frames: the resize and the theme switch are laid out and painted.
        await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
        await this.shot(page, `${name}-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: null, reducedMotion: null });
    if (before) await page.setViewportSize(before);
  }
}

/** Registers the hooks of a browser test file; `handler` puts the daemon on the fake model instead of the demo. */
export function useBrowserWorld(handler?: () => FakeHandler): BrowserWorld {
  const world = new BrowserWorld();
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\``);
    if (!existsSync(WEB_DIST)) throw new Error(`${WEB_DIST} is missing: run \`npm run build\` first`);
    world.browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    if (handler) world.model = await startFakeOpenAIServer({ handler: handler() });
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.model?.close();
  });
  beforeEach(() => {
    world.workspace = realpathSync(mkdtempSync(join(tmpdir(), "qwen-web-ws-")));
    world.qwenHome = realpathSync(mkdtempSync(join(tmpdir(), "qwen-web-home-")));
    if (handler) world.model?.setHandler(handler());
  });
  afterEach(async (ctx) => {
    // A failed step says only which locator timed out; show what the pages and daemons were saying.
    const failed = ctx.task.result?.state === "fail";
    for (const { page, context, errors } of world.pages.splice(0)) {
      if (failed && !page.isClosed()) {
        await world.shot(page, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, "-")}`).catch(() => "");
        const conn = await page.locator("#conn").textContent();
        const log = (await page.locator("#log li").allTextContents()).join("\n");
        const banner = await page.locator("#banner").textContent();
        console.error(
          `page ${page.url()}\n  conn: ${conn}\n  banner: ${banner}\n  errors: ${errors.join("\n")}\n  log:\n${log}`,
        );
      }
      await context.close();
    }
    if (failed) for (const d of world.daemons) console.error(`daemon ${d.url} stderr:\n${d.stderr}`);
    for (const d of world.daemons.splice(0)) {
      if (d.child.exitCode === null && d.child.signalCode === null) await d.kill9();
    }
    rmSync(world.workspace, { recursive: true, force: true });
    rmSync(world.qwenHome, { recursive: true, force: true });
  });
  return world;
}

// --- what the tests do on a page -----------------------------------------------------------------------

export async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message to the agent").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

/**
 * Holds the daemon's answer (the 202) to the message `text` until `ready()` is true, as on a loaded machine
 * where the stream's events about the message reach the page before the POST's answer does.
 */
export async function holdPromptAnswer(
  page: Page,
  text: string,
  ready: () => boolean | Promise<boolean>,
): Promise<void> {
  await page.route(/\/session\/[^/]+\/prompt$/, async (route) => {
    const body = route.request().postDataJSON() as { prompt?: { text?: string }[] } | null;
    if (body?.prompt?.[0]?.text !== text) return route.fallback();
    const response = await route.fetch();
    await expect.poll(ready, { timeout: 20_000 }).toBe(true);
    await route.fulfill({ response });
  });
}

/** Waits until the page has read the daemon's answer to the message it was sending. */
export async function sendAnswered(page: Page): Promise<void> {
  await page.locator("#prompt:not([data-sending])").waitFor({ state: "attached" });
}

/** The id of the session the sidebar marks as open, or "" (page-side, read at once). */
const OPEN_SESSION_ID = `document.querySelector("#sessions button[aria-current='true']")?.getAttribute("data-session-id") ?? ""`;

/** Creates a session from the sidebar (on a phone the list is a drawer, open at first). */
export async function newSession(page: Page): Promise<void> {
  const before = String(await page.evaluate(OPEN_SESSION_ID));
  await page.getByRole("button", { name: /New session/ }).click();
  // The page may be live on the session it had open, which may itself still be called "New session" (the
  // answer that names it after its first message can come after the agent's reply on a loaded machine): wait
  // for another session to be the open one.
  await page
    .locator(`#sessions button[aria-current='true']:not([data-session-id="${before}"])`)
    .waitFor({ state: "attached" });
  await page.locator("#session-title", { hasText: /^New session$/ }).waitFor();
  await live(page);
}

/** Waits until the open session follows the daemon's events live. */
export async function live(page: Page): Promise<void> {
  await page.locator("#app[data-connection='live']").waitFor({ state: "attached" });
}

export const questionCard = (page: Page) => page.getByRole("form", { name: /The agent asks you/ });
export const permissionCard = (page: Page, name: RegExp = /Allow this/) => page.getByRole("region", { name });

/** Waits until the conversation shows an agent message containing `text`. */
export async function agentSays(page: Page, text: string): Promise<void> {
  await page.locator("#log li.agent", { hasText: text }).first().waitFor();
}

/** The id of the session the sidebar marks as open. */
export async function currentSessionId(page: Page): Promise<string> {
  const id = await page.locator("#sessions button[aria-current='true']").getAttribute("data-session-id");
  if (!id) throw new Error("no session is marked as open in the sidebar");
  return id;
}

export function unexpected(errors: string[]): string[] {
  return errors.filter((e) => !EXPECTED_OUTAGE_ERRORS.test(e));
}
