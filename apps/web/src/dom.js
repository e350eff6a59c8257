// A tiny element builder, so views read as markup and text always goes in as text (never innerHTML).

/**
 * @typedef {string | number | boolean | undefined | null | ((e: Event) => void)} PropValue
 * @typedef {Node | string | undefined | null | false} Child
 */

/**
 * `h("button", { type: "button", onclick }, "Send")`. Props starting with `on` become listeners,
 * `class` sets className, booleans toggle attributes, null/undefined/false are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, PropValue>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name === "class") el.className = String(value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child);
  }
}

/**
 * The element with this id; throws when the page lacks it (a broken page should say so at once).
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page has no #${id}`);
  return /** @type {T} */ (el);
}
