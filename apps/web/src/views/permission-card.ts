// The card for a tool approval: what the agent wants to do, shown so a person can judge it (an edit as a
// diff, an edit that changes nothing said so, a command with the folder it runs in, anything else by its
// title and details), and the options the request offers, safest first: "Allow" (this once) is the first
// button and the filled one, "Reject" beside it; a standing choice ("Allow all edits") sits apart, smaller,
// with its scope in words (interactions/approval-choices.ts).
import { relativeToWorkspace } from "../conversation/tool-content.js";
import { approvalChoices, changesNothing } from "../interactions/approval-choices.js";
import type { Interaction } from "../interactions/interaction.js";
import { diffView, displayPath } from "./diff-view.js";
import { domId, h } from "./dom.js";
import { icon } from "./icons.js";
import type { CardHandlers, CardView } from "./question-card.js";

const HEADINGS = {
  edit: "Allow this edit?",
  command: "Allow this command?",
  tool: "Allow this action?",
  question: "Allow this action?",
} as const;

export function permissionCard(
  interaction: Interaction,
  handlers: Pick<CardHandlers, "onVote">,
  workspace: string | undefined,
): CardView {
  const id = domId("req", interaction.requestId);
  const errorLine = h("p", { class: "form-error", role: "alert" });
  const statusLine = h("p", { class: "card-status", "aria-live": "polite" });
  const heading = h(
    "h2",
    { id: `${id}-title`, class: "card-title", tabindex: -1 },
    icon(interaction.kind === "command" ? "terminal" : interaction.kind === "edit" ? "edit" : "approval"),
    h("span", {}, HEADINGS[interaction.kind]),
  );
  const choices = approvalChoices(interaction);
  const button = (choice: (typeof choices)[number], i: number) =>
    h(
      "button",
      {
        type: "button",
        class: choice.role === "once" ? "primary" : choice.role === "reject" ? "secondary" : "broad",
        onclick: () => handlers.onVote(choice.option),
        ...(choice.scope ? { "aria-describedby": `${id}-scope-${i}` } : {}),
      },
      choice.label,
    );
  const main = choices.filter((c) => c.role !== "standing");
  const standing = choices.filter((c) => c.role === "standing");
  const buttons = [...main, ...standing].map(button);
  const mainButtons = buttons.slice(0, main.length);
  const standingRows = standing.map((choice, i) =>
    h(
      "div",
      { class: "standing-choice" },
      buttons[main.length + i],
      h("span", { id: `${id}-scope-${main.length + i}`, class: "scope" }, choice.scope ?? ""),
    ),
  );
  const card = h(
    "section",
    {
      class: `card permission permission-${interaction.kind}${interaction.restored ? " restored" : ""}`,
      "data-request-id": interaction.requestId,
      "aria-labelledby": `${id}-title`,
    },
    h(
      "div",
      { class: "card-head" },
      heading,
      interaction.restored
        ? h("span", { class: "tag restored-tag" }, icon("restart"), "Asked again after a restart")
        : undefined,
    ),
    h("div", { class: "card-body" }, ...body(interaction, workspace)),
    h(
      "div",
      { class: "card-foot" },
      errorLine,
      statusLine,
      h("div", { class: "card-actions" }, ...mainButtons),
      standingRows.length > 0 ? h("div", { class: "standing-choices" }, ...standingRows) : undefined,
    ),
  );
  return {
    el: card,
    heading,
    update(state, canAct) {
      const off = state.sending || !canAct;
      for (const b of buttons) b.disabled = off;
      card.toggleAttribute("aria-busy", state.sending);
      card.classList.toggle("paused", !canAct);
      errorLine.textContent = state.error ?? "";
      statusLine.textContent = state.sending ? "Sending…" : (state.status ?? "");
    },
  };
}

function body(interaction: Interaction, workspace: string | undefined): (Node | undefined)[] {
  const subject = h(
    "p",
    { class: "action" },
    h("strong", {}, relativeToWorkspace(interaction.title, workspace)),
  );
  if (interaction.kind === "command" && interaction.command) {
    const { command, cwd } = interaction.command;
    return [
      h(
        "div",
        { class: "command" },
        h(
          "pre",
          { class: "command-line" },
          h("span", { class: "prompt-sign", "aria-hidden": "true" }, "$ "),
          h("code", {}, command),
        ),
        h(
          "p",
          { class: "command-cwd" },
          h("span", { class: "muted" }, "in "),
          h("code", {}, cwd ?? "the workspace"),
        ),
      ),
    ];
  }
  if (interaction.kind === "edit") {
    const same = interaction.diffs.filter(changesNothing);
    const changed = interaction.diffs.filter((d) => !changesNothing(d));
    return [
      subject,
      ...same.map((d) =>
        h(
          "p",
          { class: "no-change" },
          icon("check"),
          `This edit changes nothing: ${displayPath(d.path, workspace)} stays as it is.`,
        ),
      ),
      ...changed.map((d) => diffView(d, workspace)),
    ];
  }
  const paths = interaction.locations.map((p) => displayPath(p, workspace));
  const detail = interaction.output;
  return [
    subject,
    paths.length > 0 ? h("p", { class: "muted small" }, paths.join(", ")) : undefined,
    detail
      ? h(
          "details",
          { open: detail.split("\n").length <= 24 },
          h("summary", {}, "What it will do"),
          h("pre", {}, detail),
        )
      : undefined,
  ];
}
