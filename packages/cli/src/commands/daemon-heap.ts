// V8 settings the daemon applies to itself at start. A process cannot pass itself command-line V8 flags
// (`qwen serve` is started as plain `node bin.js serve`), but these two are read by V8 while it runs, so
// setting them before the heavy modules load still takes effect (measured on one idle session):
// - `--semi-space-growth-factor=1`: the young generation keeps its initial 1 MB semi-spaces instead of
//   doubling them (up to 16 MB) during the allocation burst of loading the daemon's modules; that burst is
//   over once the daemon listens, and the grown space would stay committed while it idles (~5 MB RSS).
// - `--interrupt-budget=270336` (4x V8's default): TurboFan optimizes a function after 4x as much
//   execution, so code hot only while modules load is not optimized for nothing (~2.5 MB RSS); the
//   daemon's own hot paths (SSE fan-out, transcript reads) still get optimized code soon after.
// `--optimize-for-size` would save ~1 MB more but makes a 100k-record transcript read ~1.5x slower.
import { setFlagsFromString } from "node:v8";

export const DAEMON_RUNTIME_V8_FLAGS: readonly string[] = [
  "--semi-space-growth-factor=1",
  "--interrupt-budget=270336",
];

export function tuneDaemonHeap(): void {
  for (const flag of DAEMON_RUNTIME_V8_FLAGS) setFlagsFromString(flag);
}
