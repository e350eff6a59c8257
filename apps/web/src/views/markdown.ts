// Agent messages as markdown: marked (GFM) turns them into HTML with code blocks highlighted by
// highlight.js (its core plus the languages below, bundled: nothing is fetched at run time), and
// DOMPurify sanitises the result before it reaches the page. Raw HTML in a message is shown as text, and
// images become links, so a message can neither run script nor make the browser fetch anything.
import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { Marked } from "marked";

const LANGUAGES = {
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  markdown,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Highlighted HTML of a code block (escaped by highlight.js), and the language it was read as. */
export function highlight(code: string, lang: string | undefined): { html: string; language?: string } {
  const asked = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  const found = asked ? hljs.getLanguage(asked) : undefined;
  // The registered name, not the alias the message used ("ts" is typescript).
  const name = found ? hljs.listLanguages().find((l) => hljs.getLanguage(l) === found) : undefined;
  if (name)
    return { html: hljs.highlight(code, { language: name, ignoreIllegals: true }).value, language: name };
  return { html: escapeHtml(code) };
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const { html, language } = highlight(text, lang);
      const label = language ? ` data-language="${escapeHtml(language)}"` : "";
      return `<pre class="code"${label}><code class="hljs${language ? ` language-${language}` : ""}">${html}</code></pre>\n`;
    },
    html({ text }) {
      return escapeHtml(text);
    },
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    // Links open in a new tab and tell the target nothing about this page.
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
    });
  }
  return DOMPurify;
}

/** Sanitised HTML for a markdown text. */
export function markdownHtml(text: string): string {
  const raw = marked.parse(text, { async: false });
  return purifier().sanitize(raw, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      "img",
      "style",
      "form",
      "input",
      "button",
      "textarea",
      "select",
      "iframe",
      "video",
      "audio",
    ],
    FORBID_ATTR: ["style"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/|\.)/i,
  });
}

/** Fills `el` with the rendered message (its only innerHTML write: the HTML is sanitised above). */
export function renderMarkdownInto(el: HTMLElement, text: string): void {
  el.innerHTML = markdownHtml(text);
}
