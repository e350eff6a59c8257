// What the page tells the user about itself: the connection indicator, the banner (with an optional
// action), and screen-reader announcements.
import { ui } from "./page-elements.js";

/**
 * @param {string} text
 * @param {"ok" | "live" | "warn" | "bad"} tone
 */
export function setConn(text, tone) {
  ui.conn.textContent = text;
  ui.conn.dataset.tone = tone;
}

/** @param {string} text */
export function announce(text) {
  ui.announce.textContent = "";
  // A fresh text node after a tick makes screen readers announce repeated messages too.
  setTimeout(() => {
    ui.announce.textContent = text;
  }, 50);
}

/**
 * @param {string} text
 * @param {{ label: string, run: () => void } | undefined} [action]
 */
export function showBanner(text, action) {
  ui.banner.hidden = false;
  ui.bannerText.textContent = text;
  ui.bannerAction.hidden = !action;
  ui.bannerAction.textContent = action?.label ?? "";
  ui.bannerAction.onclick = action
    ? () => {
        hideBanner();
        action.run();
      }
    : null;
}

export function hideBanner() {
  ui.banner.hidden = true;
}
