const t0 = performance.now();
const m = process.argv[2];
await import(m);
console.log(m, (performance.now()-t0).toFixed(1));
