// Another process appending to a PostgreSQL log (the shared contract's two-process test):
// `append-worker.ts <url> <cwd> <sessionId> <tag> <count>` appends {tag, n} for n = 0..count-1, in order.
import { postgresSessionStorage } from "../postgres-storage.js";

const [url, cwd, sessionId, tag, count] = process.argv.slice(2);
if (
  url === undefined ||
  cwd === undefined ||
  sessionId === undefined ||
  tag === undefined ||
  count === undefined
) {
  throw new Error("usage: append-worker <url> <cwd> <sessionId> <tag> <count>");
}
const storage = postgresSessionStorage({ url });
const log = storage.log({ cwd, sessionId }, "transcript", (v) => v);
try {
  const pending: Promise<void>[] = [];
  for (let n = 0; n < Number(count); n++) pending.push(log.append({ tag, n }, { durable: n % 2 === 0 }));
  await Promise.all(pending);
} finally {
  await log.close();
  await storage.close();
}
