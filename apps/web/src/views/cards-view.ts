// The dock above the message box where the agent's questions and approvals wait: a card per interaction,
// focused when it arrives (unless the person is typing), disabled while nothing can be sent, gone once
// answered (focus then returns to the message box).
import { leftAfterSend } from "../interactions/drafts.js";
import type { Interaction } from "../interactions/interaction.js";
import type { SessionController } from "../session/session-controller.js";
import { permissionCard } from "./permission-card.js";
import { type CardView, questionCard } from "./question-card.js";

export class CardsView {
  readonly #cards = new Map<string, CardView>();

  constructor(
    readonly container: HTMLElement,
    readonly controller: SessionController,
    readonly composer: HTMLTextAreaElement,
  ) {
    controller.subscribe((e) => {
      if (e.type === "reset") this.#clear();
      else if (e.type === "interaction-added") this.#add(e.interaction, e.live);
      else if (e.type === "interaction-changed") this.#update(e.interaction.requestId);
      else if (e.type === "interaction-removed") this.#remove(e.requestId);
      else if (e.type === "status") for (const id of this.#cards.keys()) this.#update(id);
    });
  }

  #add(interaction: Interaction, live: boolean): void {
    const c = this.controller;
    const onVote = (option: Parameters<typeof c.vote>[1], answers?: Record<string, string>) =>
      void c.vote(interaction.requestId, option, answers);
    const view =
      interaction.kind === "question"
        ? questionCard(interaction, {
            selection: c.selectionFor(interaction.key),
            onChange: (selections) => c.saveSelection(interaction.key, selections),
            onVote,
          })
        : permissionCard(interaction, { onVote }, c.workspace);
    this.#cards.set(interaction.requestId, view);
    this.container.append(view.el);
    this.#update(interaction.requestId);
    if (!live) return;
    // The text still on its way to the daemon (the card can arrive before the send's answer) is not typing:
    // only what will stay in the box once it is sent counts (the composer's own rule, leftAfterSend).
    const draft = leftAfterSend(this.composer.value, this.composer.dataset.sending ?? "");
    const typing = document.activeElement === this.composer && draft.trim() !== "";
    if (!typing) view.heading.focus({ preventScroll: true });
    view.el.scrollIntoView?.({ block: "nearest" });
  }

  #update(requestId: string): void {
    this.#cards.get(requestId)?.update(this.controller.cardState(requestId), this.controller.canAct);
  }

  #remove(requestId: string): void {
    const view = this.#cards.get(requestId);
    if (!view) return;
    this.#cards.delete(requestId);
    // Disabling the card while its vote was sent may already have dropped the focus to <body>.
    const active = document.activeElement;
    const hadFocus = view.el.contains(active) || active === document.body || active === null;
    view.el.remove();
    if (hadFocus) this.composer.focus({ preventScroll: true });
  }

  #clear(): void {
    for (const view of this.#cards.values()) view.el.remove();
    this.#cards.clear();
  }
}
