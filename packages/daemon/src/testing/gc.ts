// A real garbage collection from inside a test, so a test can assert that something is no longer retained
// (a WeakRef cleared) instead of guessing from heap sizes. `--expose-gc` is set at run time and `gc` taken
// from a fresh context, where V8 installs it once the flag is on.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined;

/** Runs full garbage collections (several, so finalizers and weak cells settle). */
export async function collectGarbage(): Promise<void> {
  if (collect === undefined) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  for (let i = 0; i < 3; i += 1) {
    collect();
    // Let pending reactions run: a WeakRef is only cleared after the job that last saw its target.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
