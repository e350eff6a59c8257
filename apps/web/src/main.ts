// Browser client for `qwen serve`: the page the daemon serves at `/`. This is the production wiring, the
// only place that touches `window`'s fetch, storage and timers: it builds the session controller (which
// owns the open session) and the views that show it, then boots. Imports point one way: main → views →
// session/sessions → interactions/conversation → net; nothing imports main, and no module imports a view.
import { BrowserNotifier } from "./attention/browser-notifier.js";
import { Drafts } from "./interactions/drafts.js";
import { createApi, sessionFromHash, tokenFromHash } from "./net/api.js";
import { ClientIds, deviceId, freshClientIdHint, type KeyValueStorage } from "./net/client-ids.js";
import { openEventStream } from "./net/event-stream.js";
import { routeUrl } from "./net/routes.js";
import { AnswerMemory } from "./session/answer-memory.js";
import type { Clock } from "./session/controller-types.js";
import { SessionController } from "./session/session-controller.js";
import { SessionDirectory } from "./sessions/session-directory.js";
import { sessionTitle } from "./sessions/session-list.js";
import { WaitingMemory } from "./sessions/waiting-memory.js";
import { CardsView } from "./views/cards-view.js";
import { ComposerView } from "./views/composer-view.js";
import { DeleteView } from "./views/delete-view.js";
import { ModelView } from "./views/model-view.js";
import { pageElements } from "./views/page-elements.js";
import { QueueView } from "./views/queue-view.js";
import { SidebarView } from "./views/sidebar-view.js";
import { StatusView } from "./views/status-view.js";
import { TimelineView } from "./views/timeline-view.js";
import { TitleView } from "./views/title-view.js";
import { TokenView } from "./views/token-view.js";

const LIST_POLL_MS = 15_000;
const OPEN_SESSION_KEY = "qwen-serve.openSession";

const fetchFn: typeof fetch = (input, init) => window.fetch(input, init);
const clock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => window.setTimeout(run, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};
const tabStorage = storage(() => window.sessionStorage);
const browserStorage = storage(() => window.localStorage);

const device = deviceId(browserStorage, (b) => crypto.getRandomValues(b));
const api = createApi({ fetch: fetchFn, token: tokenFromHash(location.hash), device });
const controller = new SessionController({
  api,
  clientIds: new ClientIds(tabStorage),
  drafts: new Drafts(tabStorage),
  device,
  answers: new AnswerMemory(browserStorage),
  clock,
  openStream: (options) => openEventStream({ ...options, fetch: fetchFn }),
  freshClientId: () => freshClientIdHint((b) => crypto.getRandomValues(b)),
  detach: (sessionId, clientId, leaving) => {
    // Tells the daemon this tab stopped watching (consensus votes count attached clients). Best effort.
    fetchFn(routeUrl("detach", { params: { id: sessionId } }), {
      method: "POST",
      headers: { ...api.headers(clientId), "content-type": "application/json" },
      body: "{}",
      keepalive: leaving,
    }).catch((error) => console.warn(`qwen web: detaching from ${sessionId} failed`, error));
  },
});
const memory = new WaitingMemory(browserStorage, () => Date.now());
const directory = new SessionDirectory(api, memory, clock, () => controller.workspace);

const ui = pageElements();
const timeline = new TimelineView(ui.log, ui.scroller, () => controller.workspace);
const tokens = new TokenView(ui);
const sidebar = new SidebarView(ui, directory, memory, controller, () => Date.now());
new StatusView(ui, controller);
new TitleView(ui, controller);
new ModelView(ui, controller);
new DeleteView(ui, controller, (sessionId) => {
  directory.noteDeleted(sessionId);
  sidebar.show(true);
  if (!sidebar.narrow.matches) ui.newSession.focus();
});
const composer = new ComposerView(ui, controller);
new QueueView(ui.queued, controller, (text) => composer.takeBack(text));
new CardsView(ui.pending, controller, ui.prompt);
new BrowserNotifier(ui.notify, controller);

controller.subscribe((e) => {
  if (e.type === "reset") {
    timeline.clear();
    // No session open (the open one was deleted): a reload opens none either.
    tabStorage?.setItem(OPEN_SESSION_KEY, controller.sessionId ?? "");
  } else if (e.type === "item") timeline.render(e.item);
  else if (e.type === "list-changed") directory.scheduleRefresh();
  else if (e.type === "token-needed") tokens.ask();
  else if (e.type === "interaction-added" || e.type === "interaction-removed") {
    if (controller.sessionId) memory.observe(controller.sessionId, controller.interactions.length > 0);
  }
});
directory.subscribe((e) => {
  if (e.type === "token-needed") tokens.ask();
});

window.addEventListener("pagehide", () => controller.leave(true));
window.setInterval(() => {
  if (document.visibilityState === "visible") void directory.refresh();
}, LIST_POLL_MS);

let booted = false;
controller.subscribe((e) => {
  // A daemon that was away at boot: carry on once the controller has reached it.
  if (e.type === "status" && !booted && controller.workspace) void boot();
});

async function boot(): Promise<void> {
  if (booted) return;
  if (!controller.workspace && !(await controller.connect())) return;
  if (booted) return;
  booted = true;
  await directory.refresh();
  // A link to a session (`#session=<id>`, what the daemon's notifications point to) opens it; a reload
  // returns to the session this tab had open.
  const wanted = sessionFromHash(location.hash) ?? tabStorage?.getItem(OPEN_SESSION_KEY) ?? undefined;
  if (wanted) {
    const summary = directory.find(wanted);
    void controller.open(wanted, summary ? sessionTitle(summary) : undefined, {
      kind: "pick",
      onDisk: summary !== undefined && summary.live !== true,
    });
  } else {
    sidebar.show(true);
  }
}

function storage(get: () => Storage): KeyValueStorage | undefined {
  try {
    return get();
  } catch {
    // Storage can be disabled (privacy settings): ids and drafts then live only as long as the page.
    return undefined;
  }
}

void boot();
