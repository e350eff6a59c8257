import { describe, expect, it } from "vitest";
import type { ChannelSpec, ChildChannel } from "./channel.js";
import { withPrespawnedChannel } from "./prespawned-channel.js";

function fakeChannel(name: string): ChildChannel & { name: string; signals: string[] } {
  const signals: string[] = [];
  return {
    name,
    signals,
    pid: undefined,
    input: new WritableStream(),
    output: new ReadableStream(),
    stderr: undefined,
    exited: new Promise(() => undefined),
    kill: (signal) => signals.push(signal),
  };
}

describe("withPrespawnedChannel", () => {
  it("hands out the prespawned channel first, then spawns through the factory", () => {
    const first = fakeChannel("prespawned");
    const specs: ChannelSpec[] = [];
    const factory = withPrespawnedChannel({ channel: first, workspace: "/ws" }, (spec) => {
      specs.push(spec);
      return fakeChannel(`spawned ${specs.length}`);
    });
    expect(factory({ workspace: "/ws" })).toBe(first);
    expect((factory({ workspace: "/ws" }) as ReturnType<typeof fakeChannel>).name).toBe("spawned 1");
    expect((factory({ workspace: "/ws" }) as ReturnType<typeof fakeChannel>).name).toBe("spawned 2");
    expect(specs).toEqual([{ workspace: "/ws" }, { workspace: "/ws" }]);
    expect(first.signals).toEqual([]);
  });

  it("kills a prespawned channel started for another workspace and spawns one for the asked workspace", () => {
    const first = fakeChannel("prespawned");
    const factory = withPrespawnedChannel({ channel: first, workspace: "/elsewhere" }, () =>
      fakeChannel("spawned"),
    );
    expect((factory({ workspace: "/ws" }) as ReturnType<typeof fakeChannel>).name).toBe("spawned");
    expect(first.signals).toEqual(["SIGKILL"]);
  });
});
