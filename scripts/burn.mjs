#!/usr/bin/env node
/**
 * Keeps the machine's cores busy for a bounded time, to run tests the way a
 * loaded CI runner or a busy laptop runs them:
 *
 *   node scripts/burn.mjs 300        every core busy for 300 s, then exits
 *   node scripts/burn.mjs 300 2      two spinning threads for 300 s
 *
 * Each thread spins until the deadline and stops by itself; the seconds are
 * required and capped at 1800, so a forgotten burner never outlives a run.
 * Ctrl-C (or SIGTERM) stops it at once.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const MAX_SECONDS = 1800;

if (isMainThread) {
  const [secondsArg, threadsArg] = process.argv.slice(2);
  const seconds = Number(secondsArg);
  const threads = threadsArg === undefined ? availableParallelism() : Number(threadsArg);
  if (!(Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_SECONDS)) {
    process.stderr.write(`usage: burn.mjs <seconds, at most ${MAX_SECONDS}> [threads]\n`);
    process.exit(2);
  }
  if (!(Number.isInteger(threads) && threads > 0 && threads <= 64)) {
    process.stderr.write('burn.mjs: threads must be a whole number from 1 to 64\n');
    process.exit(2);
  }
  const until = Date.now() + seconds * 1000;
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { workerData: { until } }),
  );
  const stop = () => {
    for (const w of workers) w.terminate();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stderr.write(`burn: ${threads} threads busy for ${seconds} s\n`);
} else {
  // Spin in slices, checking the clock between them: busy, and never past the deadline.
  let x = 0;
  while (Date.now() < workerData.until) {
    for (let i = 0; i < 1_000_000; i++) x = (x * 31 + i) | 0;
  }
  if (x === 0.5) process.stdout.write('');
}
