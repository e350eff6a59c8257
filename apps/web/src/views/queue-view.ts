// The messages the daemon holds in its queue, under the conversation: each as the person wrote it, its place
// in line, and two ways to take it back (Edit puts it in the message box, Withdraw drops it). A message
// leaves this list when it starts (it then appears in the conversation as sent) or is taken back.
import { placeInLine, type QueuedMessage } from "../conversation/queued-prompts.js";
import type { SessionController } from "../session/session-controller.js";
import { h, hidden } from "./dom.js";
import { icon } from "./icons.js";

export class QueueView {
  constructor(
    readonly list: HTMLOListElement,
    readonly controller: SessionController,
    /** Where an edited message goes: the message box. */
    readonly takeBack: (text: string) => void,
  ) {
    controller.subscribe((e) => {
      if (e.type === "queue" || e.type === "reset" || e.type === "status") this.render();
    });
    this.render();
  }

  render(): void {
    const items = this.controller.queued;
    this.list.replaceChildren(...items.map((m) => this.#item(m)));
    this.list.hidden = items.length === 0;
  }

  #item(m: QueuedMessage): HTMLLIElement {
    const canAct = this.controller.canAct;
    const place = `Queued · ${placeInLine(m.position)}`;
    return h(
      "li",
      { class: "item user queued", "data-prompt-id": m.promptId },
      hidden("You said, not sent yet: "),
      h("div", { class: "bubble" }, m.text),
      h(
        "p",
        { class: "queue-meta" },
        icon("working"),
        h("span", { class: "queue-position" }, place),
        m.mine ? undefined : h("span", { class: "muted" }, " (from another window)"),
        h(
          "button",
          {
            type: "button",
            class: "link-button queue-action",
            disabled: !canAct,
            onclick: async () => {
              if (await this.controller.withdraw(m.promptId)) this.takeBack(m.text);
            },
          },
          "Edit",
        ),
        h(
          "button",
          {
            type: "button",
            class: "link-button queue-action",
            disabled: !canAct,
            onclick: () => void this.controller.withdraw(m.promptId),
          },
          "Withdraw",
        ),
      ),
    );
  }
}
