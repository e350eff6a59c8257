// zod 4 compiles a parser (`new Function`) for every object schema the first time it parses with it, and
// decides whether it may when the schema is built. That pays off over long runs of one shape; in a cold
// process nearly every parse is a first one (the ACP SDK's message schemas, the daemon's routes, the first
// transcript records), and profiles of the cold restore path show the compiling (zod's generateFastpass,
// its `compile` and the `new Function` parse) as the largest part of both processes' work after module
// loading. Turned off, the cold prompt and the restart cost ~30 % and ~15 % less CPU; a 100k-record
// transcript read costs ~20 % more (BENCHMARKS.md). zod reads this shared config object from globalThis
// when its module loads, so it must be set before the bundle's zod is imported (bin.ts does it first).
export function makeZodJitless(): void {
  const global = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  global.__zod_globalConfig ??= {};
  global.__zod_globalConfig.jitless = true;
}
