// The world every daemon e2e file shares: one fake model server per file and a fresh E2eEnv per test, with
// the vitest hooks that start, reset and dispose them registered in one place. The handler is put back
// before every test, so a test that swaps it (a stall, say) cannot leak into the next one even when it fails
// half-way. A failed test keeps its folders and prints the daemons' stderr (E2eEnv.dispose).
import { type FakeHandler, type FakeOpenAIServer, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { E2eEnv } from "./e2e-env.js";
import { conversationHandler } from "./model-script.js";

export interface E2eWorld {
  /** The file's fake model (from beforeAll to afterAll). */
  readonly server: FakeOpenAIServer;
  /** The running test's workspace, QWEN_HOME and daemons (inside a test only). */
  readonly env: E2eEnv;
}

/**
 * Registers the hooks at the top level of a test file and returns getters for what they create.
 * `handler` makes the model's behaviour; it is called once per test so stateful handlers start fresh.
 */
export function useE2eWorld(handler: () => FakeHandler = () => conversationHandler()): E2eWorld {
  let server: FakeOpenAIServer | undefined;
  let env: E2eEnv | undefined;

  beforeAll(async () => {
    server = await startFakeOpenAIServer({ handler: handler() });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    const model = started(server, "server");
    model.setHandler(handler());
    env = new E2eEnv(model.url);
  });
  afterEach(async ({ task }) => {
    const finished = env;
    env = undefined;
    await finished?.dispose(task.result?.state === "fail");
  });

  return {
    get server() {
      return started(server, "server");
    },
    get env() {
      return started(env, "env");
    },
  };
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`useE2eWorld: ${what} is used outside the hooks that create it`);
  return value;
}
