// WCAG AA contrast over the rendered main screens, in both themes: every visible piece of text on the page
// (the session list, a conversation with tool rows and answers, a question card, an edit approval with its
// diff, the outage banner) is measured from the computed styles: its colour against the background actually
// behind it (the nearest ancestor that paints one, translucent layers blended), 4.5:1 for text under 18.66 px
// bold / 24 px, else 3:1. No external service; the ratio is WCAG 2's formula.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  agentSays,
  newSession,
  permissionCard,
  questionCard,
  send,
  unexpected,
  useBrowserWorld,
} from "./browser-world.js";
import { NOTES_BEFORE, webHandler } from "./web-script.js";

const world = useBrowserWorld(webHandler);

/** Runs in the page: the text elements below AA, as "ratio selector 'text' fg on bg". */
const LOW_CONTRAST = `(() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) < 0.1) return false;
      if (e.classList.contains("visually-hidden")) return false;
    }
    return true;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent.trim()) continue;
    seen.add(el);
    if (!visible(el)) continue;
    const s = getComputedStyle(el);
    const bg = background(el);
    const fg = over(parse(s.color), bg);
    // Disabled controls are exempt (WCAG 1.4.3); so is text inside them.
    if (el.closest("button:disabled, input:disabled, textarea:disabled, fieldset:disabled")) continue;
    const size = parseFloat(s.fontSize);
    const bold = Number(s.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const r = ratio(fg, bg);
    if (r < (large ? 3 : 4.5)) {
      const id = el.id ? "#" + el.id : "";
      const cls = el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "";
      out.push(r.toFixed(2) + " " + el.tagName.toLowerCase() + id + cls + " '" + n.textContent.trim().slice(0, 30) + "' " + s.color + " on " + bg.map(Math.round).join(","));
    }
  }
  return out;
})()`;

async function lowContrast(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    for (const line of (await page.evaluate(LOW_CONTRAST)) as string[]) found.push(`${scheme}: ${line}`);
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

describe("web client contrast", () => {
  it("every visible text meets WCAG AA on the main screens, light and dark", async () => {
    writeFileSync(join(world.workspace, "notes.md"), NOTES_BEFORE);
    const daemon = await world.startDaemon();
    const { page, errors } = await world.openPage(`${daemon.url}/`, {
      viewport: { width: 1280, height: 900 },
    });
    const problems: string[] = [];
    const check = async (screen: string) => {
      for (const p of await lowContrast(page)) problems.push(`${screen}: ${p}`);
    };
    await page.locator("#session-hint").waitFor();
    await check("start");

    await newSession(page);
    await send(page, "SHOW_MARKDOWN");
    await page.locator("#log li.agent pre.code").waitFor();
    await send(page, "ASK about colours");
    await questionCard(page).waitFor();
    await check("question");
    await questionCard(page).getByRole("radio", { name: /Red/ }).check();
    await questionCard(page).getByRole("button", { name: "Submit" }).click();
    await agentSays(page, "Noted:");

    await send(page, "EDIT_NOTES");
    await permissionCard(page, /Allow this edit/).waitFor();
    await check("edit approval");
    await permissionCard(page, /Allow this edit/)
      .getByRole("button", { name: "Allow", exact: true })
      .click();
    await agentSays(page, "Noted:");
    await page.locator("#log li.tool").last().locator("summary").click();
    await check("conversation");
    // The question before a delete (nothing is deleted: Keep it).
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this session?" });
    await dialog.waitFor();
    await check("delete confirmation");
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await dialog.waitFor({ state: "hidden" });

    await daemon.kill9();
    await page.locator("#banner").waitFor();
    await check("daemon away");
    expect(problems).toEqual([]);
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);
});
