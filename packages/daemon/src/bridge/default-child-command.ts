// The agent a daemon runs when its embedder names none: `@qwen-daemon/acp-child`, installed beside the
// daemon. Only its file is looked up (the daemon never imports the agent: it talks to it over stdio), and
// only when needed, so a program that passes its own `childCommand` does not need the package at all.
import { createRequire } from "node:module";

export const DEFAULT_AGENT_PACKAGE = "@qwen-daemon/acp-child";

/**
 * `[node, <acp-child's bin>]`, or an error that says what to install or pass. `resolve` finds a module the
 * way `require.resolve` does from this file (a seam for tests).
 */
export function defaultChildCommand(
  resolve: (specifier: string) => string = createRequire(import.meta.url).resolve,
): string[] {
  let entry: string;
  try {
    entry = resolve(`${DEFAULT_AGENT_PACKAGE}/bin`);
  } catch (cause) {
    throw new Error(
      `No childCommand was given and ${DEFAULT_AGENT_PACKAGE}, the agent the daemon runs by default, is not ` +
        `installed beside @qwen-daemon/daemon. Install it (npm install ${DEFAULT_AGENT_PACKAGE}), or pass ` +
        `childCommand: the program and arguments that start an ACP agent, to which the daemon appends --acp ` +
        `(for example [process.execPath, "/path/to/agent.js"]).`,
      { cause },
    );
  }
  return [process.execPath, entry];
}
