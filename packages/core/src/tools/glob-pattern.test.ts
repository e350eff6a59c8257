import { describe, expect, it } from "vitest";
import { createGlobFilter, globToRegExp } from "./glob-pattern.js";

const m = (pattern: string, p: string) => globToRegExp(pattern).test(p);

describe("globToRegExp", () => {
  it("* and ? stay within one segment", () => {
    expect(m("*.ts", "a.ts")).toBe(true);
    expect(m("*.ts", "src/a.ts")).toBe(false);
    expect(m("a?.ts", "ab.ts")).toBe(true);
    expect(m("a?.ts", "a/.ts")).toBe(false);
    expect(m("src/*", "src/a/b")).toBe(false);
  });
  it("** spans zero or more directories", () => {
    expect(m("**/*.ts", "a.ts")).toBe(true);
    expect(m("**/*.ts", "x/y/a.ts")).toBe(true);
    expect(m("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(m("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(m("src/**/*.ts", "lib/a.ts")).toBe(false);
    expect(m("src/**", "src/x/y")).toBe(true);
    expect(m("**", "any/thing")).toBe(true);
    expect(m("a**b", "axxb")).toBe(true);
    expect(m("a**b", "a/b")).toBe(false);
  });
  it("braces alternate, nest, and an unclosed brace is literal", () => {
    expect(m("*.{ts,tsx}", "a.tsx")).toBe(true);
    expect(m("*.{ts,tsx}", "a.js")).toBe(false);
    expect(m("{src,lib}/**/*.{js,{c,m}js}", "lib/x/a.mjs")).toBe(true);
    expect(m("{a,b", "{a,b")).toBe(true);
    expect(m("{**/,}x.md", "d/e/x.md")).toBe(true);
  });
  it("character classes and escapes", () => {
    expect(m("[ab].txt", "b.txt")).toBe(true);
    expect(m("[!ab].txt", "b.txt")).toBe(false);
    expect(m("[!ab].txt", "c.txt")).toBe(true);
    expect(m("\\*.txt", "*.txt")).toBe(true);
    expect(m("\\*.txt", "a.txt")).toBe(false);
    expect(m("a.b(c)+", "a.b(c)+")).toBe(true);
    expect(m("a.b", "aXb")).toBe(false);
  });
});

describe("createGlobFilter", () => {
  it("matches a slash-free pattern against the basename when asked", () => {
    expect(createGlobFilter("*.ts", { basenameIfNoSlash: true })("deep/x/a.ts")).toBe(true);
    expect(createGlobFilter("*.ts", { basenameIfNoSlash: false })("deep/x/a.ts")).toBe(false);
    expect(createGlobFilter("src/*.ts", { basenameIfNoSlash: true })("deep/src/a.ts")).toBe(false);
  });
});
