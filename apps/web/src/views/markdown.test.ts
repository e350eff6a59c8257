// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { highlight, markdownHtml } from "./markdown.js";

function dom(html: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = html;
  return div;
}

describe("markdown", () => {
  it("renders GFM: headings, emphasis, lists, tables, inline code", () => {
    const el = dom(
      markdownHtml(
        "# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
      ),
    );
    expect(el.querySelector("h1")?.textContent).toBe("Title");
    expect(el.querySelector("strong")?.textContent).toBe("bold");
    expect(el.querySelector("p code")?.textContent).toBe("code");
    expect([...el.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["one", "two"]);
    expect(el.querySelectorAll("table td")).toHaveLength(2);
  });

  it("highlights fenced code in the languages it bundles, and escapes the rest", () => {
    const el = dom(markdownHtml("```ts\nconst x: number = 1;\n```\n\n```nosuchlang\n<b>hi</b>\n```"));
    const [ts, other] = [...el.querySelectorAll("pre.code")];
    expect(ts?.getAttribute("data-language")).toBe("typescript");
    expect(ts?.querySelector(".hljs-keyword")?.textContent).toBe("const");
    expect(ts?.textContent).toBe("const x: number = 1;");
    expect(other?.querySelector("b")).toBeNull();
    expect(other?.textContent).toBe("<b>hi</b>");
    expect(highlight("ls -la", "sh").language).toBe("bash");
  });

  it("never lets a message run script, fetch an image or style the page", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src="http://example.invalid/x.png" onerror="alert(1)">',
      "[click](javascript:alert(1))",
      "![tracker](http://example.invalid/pixel.png)",
      '<a href="#" onclick="alert(1)">x</a>',
      "<style>body{display:none}</style>",
    ].join("\n\n");
    const el = dom(markdownHtml(hostile));
    expect(el.querySelector("script, img, style, [onerror], [onclick]")).toBeNull();
    for (const a of el.querySelectorAll("a")) {
      expect(a.getAttribute("href") ?? "").not.toMatch(/^javascript:/i);
    }
    // Raw HTML is shown as the text it is; an image is a link to it, not a fetch.
    expect(el.textContent).toContain("<script>alert(1)</script>");
    const link = [...el.querySelectorAll("a")].find((a) => a.textContent === "tracker");
    expect(link?.getAttribute("href")).toBe("http://example.invalid/pixel.png");
  });

  it("opens links in a new tab without telling them where they came from", () => {
    const a = dom(markdownHtml("see [docs](https://example.org/docs)")).querySelector("a");
    expect(a?.getAttribute("target")).toBe("_blank");
    expect(a?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });
});
