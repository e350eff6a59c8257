// Small statistics helpers for benchmark scripts: medians and percentiles over repeated runs.
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export function fmtMs(x) {
  return `${x.toFixed(x < 10 ? 2 : 1)} ms`;
}

/** Prints one result line: name, median, p90, n. */
export function report(name, samples, unit = "ms") {
  const med = median(samples);
  const p90 = percentile(samples, 90);
  const f = unit === "ms" ? fmtMs : (x) => `${x.toFixed(1)} ${unit}`;
  console.log(
    `${name.padEnd(52)} median ${f(med).padStart(10)}   p90 ${f(p90).padStart(10)}   n=${samples.length}`,
  );
  return med;
}

/** "met" / "NOT met" against an upper bound, for the target column of a benchmark's output. */
export function verdict(value, limit) {
  return value < limit ? "met" : "NOT met";
}
