// Where the browser client (apps/web) is, for `webRoot`: the daemon's build ships a copy in dist/web, and
// a repository checkout has the client's own build. The daemon serves nothing at `/` unless given a webRoot.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = [
  "./web/", // dist/index.js or a dist/ chunk of the installed package
  "../web/", // a module one folder down in dist/
  "../../../apps/web/dist/", // packages/daemon/{src,dist}/ in a checkout
];

/** The folder holding the web client's index.html, or undefined when this install has none. */
export function webClientRoot(): string | undefined {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return undefined;
}
