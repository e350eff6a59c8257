import { describe, expect, it } from "vitest";
import { ClientRegistry } from "./client-registry.js";

function registry(maxClients = 0) {
  let n = 0;
  let now = 0;
  const clients = new ClientRegistry({ mint: () => `c${++n}`, maxClients, now: () => now });
  return {
    clients,
    at(t: number) {
      now = t;
      return t;
    },
  };
}

describe("ClientRegistry", () => {
  it("mints ids, reuses a registered one, and forgets a client when its last reference detaches", () => {
    const { clients } = registry();
    const a = clients.attach(undefined, 0);
    expect(clients.attach(a, 1)).toBe(a);
    expect(clients.attach("forged", 2)).toBe("c2");
    clients.detach(a);
    expect(clients.has(a)).toBe(true);
    clients.detach(a);
    expect(clients.has(a)).toBe(false);
  });

  it("past maxClients drops the client seen least recently, never one with an open event stream", () => {
    const r = registry(3);
    const { clients } = r;
    const a = clients.attach(undefined, r.at(1));
    const b = clients.attach(undefined, r.at(2));
    const c = clients.attach(undefined, r.at(3));
    const release = clients.streamOpened(a);
    r.at(4);
    expect(clients.seen(b)).toBe(true); // b was seen at 4: c is now the least recent without a stream
    const d = clients.attach(undefined, r.at(5));
    expect(clients.ids()).toEqual([a, b, d]);
    expect(clients.has(c)).toBe(false);
    // A stream that ends counts as a sighting: a was seen at 6, so b (seen at 4) goes next.
    r.at(6);
    release();
    clients.attach(undefined, r.at(7));
    expect(clients.ids()).toEqual([d, a, "c5"]);
    expect(clients.size).toBe(3);
  });

  it("expire drops clients not seen for idleMs, except those listening on an event stream", () => {
    const r = registry();
    const { clients } = r;
    const idle = clients.attach(undefined, r.at(0));
    const streaming = clients.attach(undefined, r.at(0));
    const fresh = clients.attach(undefined, r.at(0));
    clients.streamOpened(streaming);
    r.at(900);
    clients.seen(fresh);
    expect(clients.expire(r.at(1000), 1000)).toEqual([idle]);
    expect(clients.ids()).toEqual([streaming, fresh]);
    expect(clients.seen("unknown")).toBe(false);
  });

  it("20,000 attaches leave at most maxClients behind", () => {
    const { clients } = registry(1024);
    for (let i = 0; i < 20_000; i += 1) clients.attach(undefined, i);
    expect(clients.size).toBe(1024);
  });
});
