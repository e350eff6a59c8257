// The answer page of a question with several parts, in Debian's Chromium at a phone's width (390 px): the
// notification's "Answer" link opens the whole question (a single choice, a multi-select, an Other box each)
// on one page that fits the screen, fetches nothing from elsewhere and runs no script; the person answers
// every part and sends; the agent gets exactly that answer. The screenshot (artifacts/answer-page.png) is the
// one in the README.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Phone } from "../harness/phone.js";
import { createSession, openEvents, sendPrompt } from "../harness/session-api.js";
import { ARTIFACTS, useBrowserWorld } from "./browser-world.js";

const PARTS_QUESTION = {
  question: "Which parts should change?",
  header: "Parts",
  options: [
    { label: "Border", description: "A thin outline." },
    { label: "Shadow", description: "A soft drop shadow." },
    { label: "Label", description: "Bold text." },
  ],
  multiSelect: true,
};

const world = useBrowserWorld(() => (request) => {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`Noted: ${messageText(last)}`);
  return askUserQuestionCall([DEFAULT_QUESTION, PARTS_QUESTION], { text: "Two questions." });
});
const phones: Phone[] = [];
afterEach(() => {
  for (const p of phones.splice(0)) p.close();
});

describe("the answer page on a phone", () => {
  it("shows every part at 390 px, takes a composed answer once, and loads nothing from elsewhere", async () => {
    const phone = await Phone.start();
    phones.push(phone);
    const daemon = await world.startDaemon(["--no-web", "--notify-webhook", phone.hookUrl]);
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    await sendPrompt(daemon, sessionId, clientId, "ASK two things");
    const told = await phone.until((n) => n.type === "question_waiting", "the question");
    expect(told.actions?.map((a) => [a.label, a.method])).toEqual([["Answer", "GET"]]);
    const url = told.actions?.[0]?.url as string;

    const viewport = { width: 390, height: 844 };
    const { page, errors } = await world.openPage(url, { viewport });
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.getByRole("group", { name: /Which color should the button be\?/ }).waitFor();
    await page.getByRole("group", { name: /Which parts should change\?/ }).waitFor();
    // Fits the phone: nothing wider than the screen, the buttons big enough to hit.
    expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(
      viewport.width,
    );
    const send = page.getByRole("button", { name: "Send answer" });
    const box = await send.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(await page.locator("script").count()).toBe(0);

    await page.getByRole("radio", { name: /Green/ }).check();
    await page.getByRole("checkbox", { name: /Border/ }).check();
    await page.getByRole("checkbox", { name: /Label/ }).check();
    await page.getByLabel("Other answer to question 2").fill("rounder corners");
    // Not world.shot: that one waits for the web client's sidebar, which this page does not have.
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "answer-page.png"), fullPage: true });
    await send.click();
    await page.getByText("was recorded").waitFor();
    await events.waitForEvent("turn_complete");
    const results = world.model?.requests.filter((r) => r.messages.at(-1)?.role === "tool") ?? [];
    expect(results.map((r) => messageText(r.messages.at(-1)))).toEqual([
      "User has provided the following answers:\n\n**Color**: Green\n**Parts**: Border, Label, rounder corners",
    ]);

    // The page again (back, reload): answered, with the answer.
    await page.goto(url);
    await page.getByText("This was already answered").waitFor();
    expect(await page.textContent("body")).toContain("Green; Border, Label, rounder corners");
    const origin = new URL(daemon.url).origin;
    expect(requested.filter((r) => !r.startsWith(origin))).toEqual([]);
    // The one console line: the browser notes the 409 the already-answered page comes with.
    expect(errors.filter((e) => !/status of 409 \(Conflict\)/.test(e))).toEqual([]);
    await events.close();
  }, 120_000);
});
