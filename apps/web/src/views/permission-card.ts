// The card for a tool approval: what the agent wants to do, shown so a person can judge it (an edit as a
// diff, a command with the folder it runs in, anything else by its title and details), and one button per
// option the request offers.
import { relativeToWorkspace } from "../conversation/tool-content.js";
import { isApproval, optionLabel } from "../interactions/answers.js";
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
  const buttons = interaction.request.options.map((option) =>
    h(
      "button",
      {
        type: "button",
        class: isApproval(option) ? "primary" : "secondary",
        onclick: () => handlers.onVote(option),
      },
      optionLabel(option),
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
    h("div", { class: "card-foot" }, errorLine, statusLine, h("div", { class: "card-actions" }, ...buttons)),
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
    return [subject, ...interaction.diffs.map((d) => diffView(d, workspace))];
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
