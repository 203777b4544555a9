/**
 * One daemon process of the shared-store benchmark (bench/shared.ts starts one
 * or two of these). It connects to the Redis named on its command line, says
 * `ready`, waits for `go` on stdin, then answers `calls` tool calls' worth of
 * bookkeeping (view, then record, as a tool call does) over the given
 * sessions, `concurrency` at a time, and prints what it did as one JSON line.
 *
 * argv: url prefix calls concurrency sessions
 */
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { connectRedis, redisBackend } from 'span-ledger/redis';
import { createSharedSessionStore } from 'span-ledger/shared';

const [url, prefix, calls, concurrency, sessions] = process.argv.slice(2);
const total = Number(calls);
const width = Number(concurrency);
const sessionCount = Number(sessions);

/** A 24-file emission like a ranked explore response, varied by `i`. */
function emission(i) {
  const files = [];
  for (let f = 0; f < 24; f++) {
    const ranges = [];
    for (let r = 0; r < 6; r++) {
      const start = 1 + r * 60 + ((i * 7 + f * 3 + r) % 40);
      ranges.push({ start, end: start + 12 + ((i + f) % 18) });
    }
    files.push({
      path: `src/module-${(i * 13 + f) % 500}/file-${f}.ts`,
      ranges,
      chars: 400 + ((i * 31 + f * 17) % 3600),
      fingerprint: `${4000 + f}:${(i % 7).toString(16).padStart(16, '0')}`,
    });
  }
  const sourceChars = files.reduce((sum, f) => sum + f.chars, 0);
  return {
    projectRoot: '/work/api',
    query: `query ${i}`,
    files,
    sourceChars,
    responseChars: sourceChars + 2400,
  };
}

const client = await connectRedis(createClient, url);
const store = createSharedSessionStore(redisBackend(client, { prefix }));
process.stdout.write('ready\n');

const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));

let next = 0;
let recorded = 0;
const t0 = performance.now();
async function lane() {
  while (next < total) {
    const i = next++;
    const sessionId = `bench-session-${i % sessionCount}`;
    await store.view(sessionId);
    if ((await store.record(emission(i), sessionId)) !== null) recorded++;
  }
}
await Promise.all(Array.from({ length: width }, lane));
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, calls: total, recorded })}\n`);
lines.close();
await client.quit();
