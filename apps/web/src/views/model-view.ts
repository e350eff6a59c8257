// The model in the header: its name, and a choice of models when the agent offers several (the session's
// `model` config option; the change goes through `POST /session/:id/config` and lasts while the session is
// live). Hidden when the agent reports no model.

import type { SessionController } from "../session/session-controller.js";
import { modelOption, optionValues } from "../session/session-updates.js";
import { h } from "./dom.js";
import type { PageElements } from "./page-elements.js";

export class ModelView {
  /** A change is on its way to the daemon: the select shows the pick meanwhile. */
  #changing = false;

  constructor(
    readonly ui: Pick<PageElements, "model" | "modelName" | "modelSelect">,
    readonly controller: SessionController,
  ) {
    ui.modelSelect.addEventListener("change", async () => {
      const option = modelOption(controller.configOptions);
      if (!option) return;
      this.#changing = true;
      this.#render();
      // A refusal puts the select back to what the session really uses (the banner says why).
      await controller.setConfig(option.id, ui.modelSelect.value);
      this.#changing = false;
      this.#render();
    });
    controller.subscribe((e) => {
      if (e.type === "status" || e.type === "reset") this.#render();
    });
    this.#render();
  }

  #render(): void {
    const option = modelOption(this.controller.configOptions);
    this.ui.model.hidden = option === undefined;
    if (!option) return;
    const values = optionValues(option);
    const current = String(option.currentValue);
    const name = values.find((v) => v.value === current)?.name ?? current;
    const choosable = values.length > 1;
    this.ui.modelName.hidden = choosable;
    this.ui.modelName.textContent = name;
    this.ui.modelSelect.hidden = !choosable;
    if (!choosable) return;
    const shown = [...this.ui.modelSelect.options].map((o) => `${o.value}\u0000${o.text}`).join("\n");
    if (shown !== values.map((v) => `${v.value}\u0000${v.name}`).join("\n")) {
      this.ui.modelSelect.replaceChildren(...values.map((v) => h("option", { value: v.value }, v.name)));
    }
    if (!this.#changing) this.ui.modelSelect.value = current;
    this.ui.modelSelect.disabled = this.#changing || !this.controller.canAct;
  }
}
