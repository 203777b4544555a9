/**
 * The shared store's costs, on a real redis-server started for the run:
 *
 * 1. Latency: one tool call's bookkeeping (the view it plans with, then the
 *    record of what it sent) through the Redis backend, against the
 *    in-process session store and against the shared store on the in-memory
 *    backend, interleaved in one process. The ratio says what moving a
 *    session's state out of the process costs per call.
 * 2. Throughput: calls per second of two daemon processes (child processes)
 *    on one Redis against one process, serving the same sessions without
 *    affinity, as a load balancer would spread them; and whether any record
 *    was lost on the way (every session's callCount adds up to the calls).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { createSessionStore, type Emission } from 'span-ledger';
import { connectRedis, redisBackend } from 'span-ledger/redis';
import { createMemoryBackend, createSharedSessionStore } from 'span-ledger/shared';
import { startRedis } from '../test/e2e/_redis.js';
import { exploreEmission, hexDigits, median, type PeerResult, report } from './_harness.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = join(REPO, 'bench/shared-worker.mjs');

/** A 24-file emission like a ranked explore response. */
function emission(seed: number): Emission {
  return exploreEmission(seed, {
    projectRoot: '/work/api',
    query: 'q',
    fingerprint: (chars, draw) => `${chars}:${hexDigits(draw, 52)}`,
  });
}

/** Median ms per operation of each peer, run interleaved for `rounds` rounds of `n` awaited operations. */
async function compareAsync(
  peers: readonly { name: string; run: (i: number) => unknown }[],
  n: number,
  rounds: number,
): Promise<PeerResult[]> {
  const samples: number[][] = peers.map(() => []);
  for (let r = -1; r < rounds; r++) {
    for (const [p, peer] of peers.entries()) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await peer.run(i);
      // Round -1 warms up.
      if (r >= 0) samples[p]!.push((performance.now() - t0) / n);
    }
  }
  return peers.map((peer, p) => ({ name: peer.name, ms: median(samples[p]!) }));
}

interface WorkerResult {
  readonly ms: number;
  readonly calls: number;
  readonly recorded: number;
}

/** Starts `count` worker processes, lets them go at once, and returns the wall time and their results. */
async function runProcesses(
  url: string,
  prefix: string,
  count: number,
  calls: number,
  concurrency: number,
  sessions: number,
): Promise<{ wallMs: number; results: WorkerResult[] }> {
  const procs: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<WorkerResult>[] = [];
  for (let w = 0; w < count; w++) {
    const proc = spawn(
      process.execPath,
      [WORKER, url, prefix, String(calls), String(concurrency), String(sessions)],
      { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    procs.push(proc);
    const lines = createInterface({ input: proc.stdout! });
    const iter = lines[Symbol.asyncIterator]();
    ready.push(
      iter.next().then((l) => {
        if (l.value !== 'ready') throw new Error(`worker said ${String(l.value)}`);
      }),
    );
    done.push(
      ready[w]!.then(() => iter.next()).then((l) => JSON.parse(String(l.value)) as WorkerResult),
    );
  }
  await Promise.all(ready);
  const t0 = performance.now();
  for (const proc of procs) proc.stdin!.write('go\n');
  const results = await Promise.all(done);
  const wallMs = performance.now() - t0;
  await Promise.all(
    procs.map(
      (p) => new Promise<void>((r) => (p.exitCode !== null ? r() : p.once('exit', () => r()))),
    ),
  );
  return { wallMs, results };
}

export async function sharedBench(): Promise<boolean> {
  const redis = await startRedis();
  const client = await connectRedis(createClient, redis.url);
  try {
    // 1. Latency of one call's bookkeeping, with a session at its steady state.
    const emissions = Array.from({ length: 64 }, (_, i) => emission(i));
    const local = createSessionStore();
    const memory = createSharedSessionStore(createMemoryBackend());
    const remote = createSharedSessionStore(redisBackend(client, { prefix: 'bench-latency:' }));
    for (let i = 0; i < 16; i++) {
      local.record(emissions[i]!, 'conn-1');
      await memory.record(emissions[i]!, 'conn-1');
      await remote.record(emissions[i]!, 'conn-1');
    }
    const [key] = await client.keys('bench-latency:*');
    const value = (await client.get(key!)) ?? '';
    const latency = await compareAsync(
      [
        {
          name: 'in-process store: view + record',
          run: (i) => {
            local.view('conn-1');
            return local.record(emissions[i % 64]!, 'conn-1');
          },
        },
        {
          name: 'shared store, memory backend: view + record',
          run: async (i) => {
            await memory.view('conn-1');
            return memory.record(emissions[i % 64]!, 'conn-1');
          },
        },
        {
          name: 'shared store, Redis backend: view + record',
          run: async (i) => {
            await remote.view('conn-1');
            return remote.record(emissions[i % 64]!, 'conn-1');
          },
        },
      ],
      200,
      9,
    );
    console.log(`  a session's value in Redis: ${(value.length / 1024).toFixed(1)} KB`);
    let ok = report("one call's bookkeeping (24-file emission, 8 calls retained)", latency, [
      {
        subject: 'shared store, Redis backend: view + record',
        peer: 'in-process store: view + record',
        max: 100,
        label: 'Redis backend / in-process store',
      },
      {
        subject: 'shared store, Redis backend: view + record',
        peer: 'shared store, memory backend: view + record',
        max: 10,
        label: 'Redis backend / memory backend',
      },
    ]);

    // 2. Calls per second: one process against two, same Redis, same sessions.
    const calls = 1200;
    const one = await runProcesses(redis.url, 'bench-one:', 1, calls, 8, 32);
    const two = await runProcesses(redis.url, 'bench-two:', 2, calls / 2, 8, 32);
    const rate = (r: { wallMs: number }) => (calls / r.wallMs) * 1000;
    const recorded = (r: { results: WorkerResult[] }) =>
      r.results.reduce((s, x) => s + x.recorded, 0);
    const lost =
      (await lostRecords(client, 'bench-one:', recorded(one))) +
      (await lostRecords(client, 'bench-two:', recorded(two)));
    console.log(
      '\n## calls per second on one Redis (view + record, 32 sessions, 8 in flight per process)',
    );
    console.log(
      `  one process   ${rate(one).toFixed(0).padStart(7)} calls/s  (${recorded(one)} of ${calls} recorded)`,
    );
    console.log(
      `  two processes ${rate(two).toFixed(0).padStart(7)} calls/s  (${recorded(two)} of ${calls} recorded)`,
    );
    // Without affinity each process mostly reads values the other wrote, so a
    // second process adds CPU per call as well as capacity; the target is
    // that it never costs throughput (a retry storm would), not that it doubles it.
    const scale = rate(two) / rate(one);
    const scaled = scale >= 0.75;
    console.log(
      `  ratio two / one: ${scale.toFixed(2)}× (target ≥ 0.75×) ${scaled ? 'met' : 'MISSED'}`,
    );
    console.log(
      `  records lost across both runs: ${lost} (target 0) ${lost === 0 ? 'met' : 'MISSED'}`,
    );
    ok &&= scaled && lost === 0;
    return ok;
  } finally {
    await client.quit();
    await redis.stop();
  }
}

/**
 * How many records that came back stored the sessions' counters miss: the
 * calls recorded under `prefix` must all be counted in some session's
 * callCount (a record that came back null recorded nothing, and is not lost).
 */
async function lostRecords(
  client: ReturnType<typeof createClient>,
  prefix: string,
  recorded: number,
): Promise<number> {
  let counted = 0;
  for (const key of await client.keys(`${prefix}*`)) {
    const value = JSON.parse((await client.get(key))!) as {
      entries: { project: { callCount: number } }[];
    };
    for (const e of value.entries) counted += e.project.callCount;
  }
  return Math.max(0, recorded - counted);
}
