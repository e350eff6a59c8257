// A tiny element builder, so views read as markup and text always goes in as text (never innerHTML; the
// one exception is sanitised markdown, in markdown.ts).

export type PropValue = string | number | boolean | undefined | null | ((e: never) => void);
export type Child = Node | string | undefined | null | false;

/**
 * `h("button", { type: "button", onclick }, "Send")`. Props starting with `on` become listeners,
 * `class` sets className, booleans toggle attributes, null/undefined/false are skipped.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, PropValue> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.slice(2), value as EventListener);
    else if (name === "class") el.className = String(value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child);
  }
}

/** The element with this id; throws when the page lacks it (a broken page should say so at once). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page has no #${id}`);
  return el as T;
}

/** Text for screen readers only. */
export function hidden(text: string): HTMLSpanElement {
  return h("span", { class: "visually-hidden" }, text);
}

/** A DOM id made from any string (request ids may hold characters ids cannot). */
export function domId(prefix: string, raw: string): string {
  return `${prefix}-${raw.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}
