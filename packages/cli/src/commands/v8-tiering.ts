// The V8 flag that makes TurboFan wait 4x longer than by default before optimizing a function, for the
// daemon (daemon-heap.ts) and its agent (serve.ts CHILD_V8_FLAGS): code hot only while the modules load is
// then not optimized for nothing. V8 changed how it counts: V8 11.3 (every Node 20) spends an interrupt budget
// (`--interrupt-budget`, default 67584); the V8 of every later Node (11.8 in Node 21, 12.4 in 22, 13.6 in 24)
// counts invocations (`--invocation-count-for-turbofan`, default 3000) and no longer knows the old flag
// (checked with `node --v8-options` on each), so a node started with
// it exits at once ("bad option": the daemon's agent never came up on Node 22) and setFlagsFromString prints
// an error. Measured on one idle agent after session/new: Node 20 57.5 MB RSS with it, Node 22 61.2 MB with
// the invocation count against 67.3 MB without; Node 24 the same either way.

/** The flag for the V8 of `v8Version` (process.versions.v8 of the node that will run it). */
export function lateTurbofanFlag(v8Version: string = process.versions.v8): string {
  const [major = 0, minor = 0] = v8Version.split(".").map((part) => Number.parseInt(part, 10));
  const countsInvocations = major > 11 || (major === 11 && minor > 3);
  return countsInvocations ? "--invocation-count-for-turbofan=12000" : "--interrupt-budget=270336";
}
