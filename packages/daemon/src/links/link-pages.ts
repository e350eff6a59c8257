// The small HTML pages of answer links (docs/notifications.md), pure: one stylesheet inline in the web
// client's colours, no script, nothing fetched. Every text that came from the agent or a person is escaped.
// A confirm page and the answer page post to their own URL (a relative form action keeps a reverse proxy's
// path); every other page only says what happened.

/** A question or approval as the pages show it. */
export type LinkView = {
  kind: "question" | "approval";
  /** "Run: npm test", "Edit notes.md", or the question when there is one. */
  title: string;
  questions: {
    question: string;
    header?: string | undefined;
    options: { label: string; description?: string | undefined }[];
    multiSelect: boolean;
  }[];
};

/** What one page says. `status` is the HTTP status it goes out with. */
export type Page = { status: 200 | 400 | 403 | 404 | 409 | 410 | 413 | 429 | 503; html: string };

const STYLE = `:root{color-scheme:light dark;--bg:#fff;--surface:#f6f6f8;--text:#1c1d21;--muted:#62656e;--border:#e3e3e8;--accent:#5b55e0;--accent-strong:#4a43cc;--on-accent:#fff;--ask:#a15c00;--ask-bg:#fff4e0;--ok:#177245;--ok-bg:#e6f5ec;--bad:#c0352b;--bad-bg:#fdecea}
@media (prefers-color-scheme:dark){:root{--bg:#16171b;--surface:#1f2026;--text:#e8e8ec;--muted:#a0a3ab;--border:#2e3038;--ask-bg:#3a2a10;--ask:#f1c27a;--ok-bg:#15321f;--ok:#7fd3a1;--bad-bg:#3b1a17;--bad:#f2a49b}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main{max-width:34rem;margin:0 auto;padding:20px 16px 40px}h1{font-size:1.15rem;margin:0 0 12px}
.card{background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:14px 16px;margin:12px 0}
.tag{display:inline-block;font-size:.8rem;padding:2px 8px;border-radius:999px;background:var(--ask-bg);color:var(--ask);margin-bottom:8px}
.ok{background:var(--ok-bg);color:var(--ok)}.bad{background:var(--bad-bg);color:var(--bad)}.muted{color:var(--muted);font-size:.9rem}
fieldset{border:0;margin:0 0 14px;padding:0}legend{font-weight:600;margin-bottom:6px}
label.opt{display:flex;gap:10px;align-items:flex-start;padding:10px 12px;border:1px solid var(--border);border-radius:8px;margin:6px 0;background:var(--bg)}
label.opt input{margin-top:4px}.desc{display:block;color:var(--muted);font-size:.9rem}
input[type=text]{width:100%;padding:10px 12px;border:1px solid var(--border);border-radius:8px;font:inherit;background:var(--bg);color:var(--text)}
.actions{display:flex;gap:10px;flex-wrap:wrap;margin-top:16px}
button{font:inherit;font-weight:600;padding:12px 18px;border-radius:10px;border:1px solid var(--border);background:var(--bg);color:var(--text);min-height:44px}
button.primary{background:var(--accent);border-color:var(--accent-strong);color:var(--on-accent);flex:1}`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: Page["status"], title: string, body: string): Page {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return { status, html };
}

function subject(view: LinkView): string {
  const tag = view.kind === "question" ? "The agent asks" : "The agent asks to";
  return `<div class="card"><span class="tag">${tag}</span><h1>${escapeHtml(view.title)}</h1></div>`;
}

/** GET on a one-tap action: the question, the choice, one confirm button. Changes nothing. */
export function confirmPage(view: LinkView, choice: string): Page {
  return page(
    200,
    view.title,
    `${subject(view)}<p>Your answer: <strong>${escapeHtml(choice)}</strong></p><form method="post" action=""><div class="actions"><button class="primary" type="submit">Confirm: ${escapeHtml(choice)}</button></div></form><p class="muted">Nothing is sent until you confirm. The link works once.</p>`,
  );
}

/** GET on the answer page's action: every part of the question on one form. */
export function answerPage(view: LinkView, problem?: string): Page {
  const parts = view.questions
    .map((q, i) => {
      const type = q.multiSelect ? "checkbox" : "radio";
      const options = q.options
        .map(
          (o) =>
            `<label class="opt"><input type="${type}" name="q${i}" value="${escapeHtml(o.label)}"><span>${escapeHtml(o.label)}${o.description ? `<span class="desc">${escapeHtml(o.description)}</span>` : ""}</span></label>`,
        )
        .join("");
      const legend = `${q.header ? `${escapeHtml(q.header)}: ` : ""}${escapeHtml(q.question)}${q.multiSelect ? ' <span class="muted">(choose any)</span>' : ""}`;
      return `<fieldset><legend>${legend}</legend>${options}<input type="text" name="q${i}_other" placeholder="Other (type your own answer)" aria-label="Other answer to question ${i + 1}"></fieldset>`;
    })
    .join("");
  const error = problem ? `<p class="card bad">${escapeHtml(problem)}</p>` : "";
  return page(
    problem ? 400 : 200,
    view.title,
    `${subject(view)}${error}<form method="post" action="">${parts}<div class="actions"><button class="primary" type="submit" name="do" value="submit">Send answer</button><button type="submit" name="do" value="decline">Decline</button></div></form><p class="muted">Nothing is sent until you press a button. The page works once.</p>`,
  );
}

export function answeredPage(view: LinkView | undefined, answer: string): Page {
  return page(
    200,
    "Answered",
    `${view ? subject(view) : ""}<div class="card"><span class="tag ok">Answered</span><p>Your answer <strong>${escapeHtml(answer)}</strong> was recorded. The agent goes on.</p></div>`,
  );
}

export function alreadyAnsweredPage(
  view: LinkView | undefined,
  first: { answer?: string | undefined; by?: string | undefined; at?: string | undefined },
): Page {
  const what = first.answer ? ` with <strong>${escapeHtml(first.answer)}</strong>` : "";
  const who = first.by ? ` ${escapeHtml(answeredBy(first.by))}` : "";
  const when = first.at ? ` ${escapeHtml(answeredAt(first.at))}` : "";
  return page(
    409,
    "Already answered",
    `${view ? subject(view) : ""}<div class="card"><span class="tag">Already answered</span><p>This was already answered${what}${who}${when}. Nothing was changed.</p></div>`,
  );
}

/**
 * Who answered, in words a person on a phone reads: a link's voter is `link:<label>` (the notification's
 * button, "Answer" for the answer page); any other voter is a client of the daemon.
 */
export function answeredBy(voter: string): string {
  if (!voter.startsWith("link:")) return "from the web client or another app";
  const label = voter.slice("link:".length);
  // The same words as the web client's answer lines.
  return label === "Answer"
    ? "on the answer page a notification linked to"
    : `with the “${label}” button of a notification`;
}

/** When, to the minute, in UTC (the page cannot know the reader's zone): "on 2026-12-04 at 19:15 UTC". */
export function answeredAt(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const text = at.toISOString();
  return `on ${text.slice(0, 10)} at ${text.slice(11, 16)} UTC`;
}

/** A plain page for everything that changed nothing: a bad link, a refusal, a question gone. */
export function messagePage(status: Page["status"], title: string, text: string): Page {
  return page(
    status,
    title,
    `<div class="card"><span class="tag bad">${escapeHtml(title)}</span><p>${escapeHtml(text)}</p><p class="muted">Nothing was changed.</p></div>`,
  );
}
