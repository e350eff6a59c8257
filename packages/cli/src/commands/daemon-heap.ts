// V8 settings the daemon applies to itself at start. A process cannot pass itself command-line V8 flags
// (`qwen serve` is started as plain `node bin.js serve`), but these two are read by V8 while it runs, so
// setting them before the heavy modules load still takes effect (measured on one idle session):
// - `--semi-space-growth-factor=1`: the young generation keeps its initial 1 MB semi-spaces instead of
//   doubling them (up to 16 MB) during the allocation burst of loading the daemon's modules; that burst is
//   over once the daemon listens, and the grown space would stay committed while it idles (~5 MB RSS).
// - TurboFan optimizes a function after 4x as much execution as by default (the flag for this V8:
//   v8-tiering.ts), so code hot only while modules load is not optimized for nothing (~2.5 MB RSS on Node 20);
//   the daemon's own hot paths (SSE fan-out, transcript reads) still get optimized code soon after.
// - `--heap-growing-percent=20`: after each full GC the old generation may grow to 1.2x what survived it before
//   the next one, instead of V8's dynamic 1.1x-4x. A daemon runs for weeks and what it allocates per turn dies
//   young (~1.7 MB a turn, none of it kept), but with a 1 MB young generation part of it is promoted: with the
//   dynamic factor the old space filled with that garbage to several times the live size, and V8 kept the pages
//   (RSS creeping up for thousands of turns; after a burst of hostile requests 150 MB of garbage over 16 MB
//   live). Read by V8 each time it sizes the heap, so setting it at start works. Costs more full GCs, each on a
//   small heap (BENCHMARKS.md, issue 20).
// `--optimize-for-size` would save ~1 MB more but makes a 100k-record transcript read ~1.5x slower.
// The daemon's own malloc arenas are the user's to cap (MALLOC_ARENA_MAX is read when the process starts,
// too early for this file); its agent gets MALLOC_ARENA_MAX=2 (serve.ts, ownChildEnv), which the user's own
// value, when exported, replaces.
import { setFlagsFromString } from "node:v8";
import { lateTurbofanFlag } from "./v8-tiering.js";

export const DAEMON_RUNTIME_V8_FLAGS: readonly string[] = [
  "--semi-space-growth-factor=1",
  lateTurbofanFlag(),
  "--heap-growing-percent=20",
];

export function tuneDaemonHeap(): void {
  for (const flag of DAEMON_RUNTIME_V8_FLAGS) setFlagsFromString(flag);
}
