import { describe, expect, it } from "vitest";
import { AGENT_ONLY_ENV, agentOnlyEnv, dropAgentOnlyEnv } from "./agent-process-env.js";

describe("agentOnlyEnv", () => {
  it("caps glibc's malloc arenas for the agent and lists the variable for removal", () => {
    expect(agentOnlyEnv({ PATH: "/bin" })).toEqual({
      MALLOC_ARENA_MAX: "2",
      [AGENT_ONLY_ENV]: "MALLOC_ARENA_MAX",
    });
  });

  it("adds nothing when the user set MALLOC_ARENA_MAX: the agent inherits that value like any other", () => {
    expect(agentOnlyEnv({ MALLOC_ARENA_MAX: "8" })).toEqual({});
  });
});

describe("dropAgentOnlyEnv", () => {
  it("removes the listed variables and the list, nothing else", () => {
    const env: Record<string, string | undefined> = {
      PATH: "/bin",
      MALLOC_ARENA_MAX: "2",
      OTHER: "kept",
      [AGENT_ONLY_ENV]: "MALLOC_ARENA_MAX,,OTHER_GONE",
      OTHER_GONE: "x",
    };
    dropAgentOnlyEnv(env);
    expect(env).toEqual({ PATH: "/bin", OTHER: "kept" });
  });

  it("leaves an environment without the list as it is (a user's MALLOC_ARENA_MAX stays)", () => {
    const env = { MALLOC_ARENA_MAX: "8" };
    dropAgentOnlyEnv(env);
    expect(env).toEqual({ MALLOC_ARENA_MAX: "8" });
  });
});
