/**
 * The MCP example scaled out: `--http <port> --redis <url>` runs the
 * transport stateless, so any process answers any request, and keeps every
 * conversation's ledger in Redis, keyed by its `_meta` conversation id (or
 * its context token). Two daemon processes share one real `redis-server`
 * (Debian's, started on a free loopback port by the test); the SDK client's
 * calls alternate between them as a load balancer without session affinity
 * would route them.
 */
import { spawn } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend } from '../../src/redis/index.js';
import { createSharedSessionStore } from '../../src/shared/index.js';
import {
  body,
  callToHangUp,
  connectHttp,
  envWith,
  explore,
  FAULTY_WORKER,
  hasPointer,
  health,
  logged,
  REPO,
  RESTOCK,
  SERVER,
  STOCK,
  sleep,
  startDaemon,
  tokenOf,
  useExample,
  WIDE,
} from './_mcp-explore.js';
import { freePort, startRedis, type TestRedis } from './_redis.js';

useExample();

let redis: TestRedis;
/** One client on each of the two daemons. */
let a: Client;
let b: Client;

/** The 50-conversation test's bound: about 14 s at rest, 25 s with both cores busy, 55 s at load 19. */
const TEST_TIMEOUT_MS = 120_000;

/**
 * A store operation past its deadline (2 s by default) leaves its call
 * untracked by design, and a busy machine can keep a daemon from reading
 * Redis's reply that long (traced under load: a compare-and-set came back
 * after 0.9-1.7 s, and the re-read passed the deadline). The daemons here
 * wait for the store longer than any test may run, so the deadline (tested
 * on its own) decides no outcome in this file. A Redis that is down still
 * fails each operation at once (the client queues nothing while offline).
 */
const PATIENT = { EXPLORE_STORE_TIMEOUT_MS: String(2 * TEST_TIMEOUT_MS) };

/** A daemon on the test's Redis, waiting for the store as long as a test may run. */
const sharedDaemon = (extra: Record<string, string> = {}) =>
  startDaemon({ ...PATIENT, ...extra }, [], ['--redis', redis.url]);

beforeAll(async () => {
  redis = await startRedis();
  const [one, two] = await Promise.all([sharedDaemon(), sharedDaemon()]);
  expect(one.log()).toContain('stateless, shared store');
  [a, b] = await Promise.all([connectHttp(one.url), connectHttp(two.url)]);
});
afterAll(() => redis?.stop());

const SEQUENCE = [WIDE, STOCK, WIDE, RESTOCK, WIDE, STOCK];

/** `queries` as one conversation, each call on the client `route(i)` picks. */
async function converse(
  id: string,
  queries: readonly string[],
  route: (i: number) => Client,
): Promise<string[]> {
  const out: string[] = [];
  for (const [i, query] of queries.entries()) {
    out.push(await explore(route(i), { query }, { conversationId: id }));
  }
  return out;
}

describe('two processes sharing one Redis', () => {
  it('give one client, alternating between them, exactly what a single process gives', async () => {
    const single = await converse('on-one-process', SEQUENCE, () => a);
    const split = await converse('on-two-processes', SEQUENCE, (i) => (i % 2 === 0 ? a : b));
    expect(split).toEqual(single);
    // History mattered: later calls point back, and every response is numbered in order.
    expect(single.slice(1).some(hasPointer)).toBe(true);
    expect(split.map((t) => /^Response #(\d+)/.exec(t)?.[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
  });

  it('follow a context token from one process to the other', async () => {
    const first = await explore(a, { query: WIDE }, null);
    const token = tokenOf(first);
    expect(token).not.toBeNull();
    const second = await explore(b, { query: WIDE, context: token }, null);
    expect(second.startsWith(`Response #2/tag · context ${token}`)).toBe(true);
    expect(hasPointer(second)).toBe(true);
  });

  it(
    'keep 50 concurrent conversations of 10 calls each apart and lose no record',
    async () => {
      // Fresh daemons (PATIENT, as every daemon here): 50 conversations keep a daemon's event
      // loop from reading Redis's replies for up to seconds with both cores busy.
      // Each call has a connection of its own: a client too busy to retire an idle keep-alive
      // connection in time can write a POST to one the daemon is closing ("other side closed").
      const [one, two] = await Promise.all([sharedDaemon(), sharedDaemon()]);
      const apart = { headers: { connection: 'close' } };
      const [c, d] = await Promise.all([connectHttp(one.url, apart), connectHttp(two.url, apart)]);
      const queries = (s: number) =>
        Array.from({ length: 10 }, (_, i) => SEQUENCE[(s + i) % SEQUENCE.length]!);
      // What each distinct sequence gives on one process, alone.
      const alone = await Promise.all(
        SEQUENCE.map((_, s) => converse(`alone-${s}`, queries(s), () => c)),
      );
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, s) =>
          converse(`load-${s}`, queries(s), (i) => ((s + i) % 2 === 0 ? c : d)),
        ),
      );
      for (const [s, texts] of results.entries()) {
        expect(texts, `conversation load-${s}`).toEqual(alone[s % SEQUENCE.length]);
      }
      // Every conversation's ledger counts exactly the calls it made (read as patiently).
      const client = createClient({ url: redis.url });
      await client.connect();
      try {
        const backend = redisBackend(client, { prefix: 'mcp-explore:' });
        const store = createSharedSessionStore(backend, { timeoutMs: TEST_TIMEOUT_MS });
        for (let s = 0; s < 50; s++) {
          const view = await store.view(`meta:load-${s}`);
          expect(view.projects.map((p) => p.callCount)).toEqual([10]);
        }
      } finally {
        await client.quit();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe('Redis going away', () => {
  it('keeps calls succeeding with full source and nothing recorded, and recording resumes after', async () => {
    const id = { conversationId: 'through-an-outage' };
    const first = await explore(a, { query: WIDE }, id);
    expect(hasPointer(await explore(b, { query: WIDE }, id))).toBe(true);

    await redis.halt();
    for (const client of [a, b, a]) {
      const text = await explore(client, { query: WIDE }, id);
      // Untracked while Redis is away: no number to print, nothing withheld, nothing recorded.
      expect(hasPointer(text)).toBe(false);
      expect(text).toBe(body(first));
    }

    await redis.restart();
    // The clients reconnect on their own (backing off up to 2 s): wait until a repeat points back.
    let resumed = false;
    for (let i = 0; i < 40 && !resumed; i++) {
      await sleep(250);
      const again = await explore(a, { query: WIDE }, { conversationId: `after-outage-${i}` });
      resumed = hasPointer(
        await explore(b, { query: WIDE }, { conversationId: `after-outage-${i}` }),
      );
      expect(body(again)).toBe(body(first));
    }
    expect(resumed).toBe(true);
  }, 30_000);
});

describe('a call whose client hung up, on a stateless daemon', () => {
  it('records nothing in the shared store', async () => {
    const daemon = await sharedDaemon({
      EXPLORE_WORKER: FAULTY_WORKER,
      EXPLORE_WORKERS: '1',
      EXPLORE_TEST_SLOW_MS: '600',
    });
    const id = { conversationId: 'hung-up' };
    const exchange = callToHangUp(daemon.url, `slow:${WIDE}`, { meta: id, id: 1 });
    await logged(daemon, 'slow call started', 1);
    exchange.hangUp();
    await exchange.closed;
    // The worker finishes the call (however long that takes); its answer is dropped, not recorded.
    for (let i = 0; i < 400 && (await health(daemon.origin)).body.running > 0; i++) await sleep(25);
    expect((await health(daemon.origin)).body.running).toBe(0);

    const client = await connectHttp(daemon.url);
    const fresh = await explore(client, { query: WIDE }, { conversationId: 'never-called' });
    // Its number was taken (the next call prints #2), and nothing was recorded under it.
    expect(body(await explore(client, { query: WIDE }, id))).toBe(body(fresh));
  });
});

describe('a conversation idle past the TTL', () => {
  it('is stored with the idle timeout as its TTL, and starts over once it expires', async () => {
    // Idle time is Redis's to count: the test reads the TTL the daemon set and then ends it,
    // instead of betting that two calls come within a short window and a sleep outlasts it.
    const IDLE_MS = 60_000;
    const daemon = await sharedDaemon({ EXPLORE_IDLE_MS: String(IDLE_MS) });
    const client = await connectHttp(daemon.url);
    const id = { conversationId: 'left-idle' };
    const keys = createClient({ url: redis.url });
    await keys.connect();
    try {
      const before = new Set(await keys.keys('mcp-explore:*'));
      const first = await explore(client, { query: WIDE }, id);
      const added = (await keys.keys('mcp-explore:*')).filter((k) => !before.has(k));
      expect(added).toHaveLength(1);
      const key = added[0]!;
      expect(hasPointer(await explore(client, { query: WIDE }, id))).toBe(true);
      // Renewed by the second call's write: at most the idle timeout, nowhere near the default hour.
      const ttl = await keys.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(IDLE_MS);
      // The idle timeout passes (Redis expires the key), and the conversation starts over.
      await keys.pExpire(key, 1);
      for (let i = 0; i < 200 && (await keys.exists(key)) === 1; i++) await sleep(10);
      expect(await keys.exists(key)).toBe(0);
      const later = await explore(client, { query: WIDE }, id);
      expect(later).toBe(first);
    } finally {
      await keys.quit();
    }
  });
});

describe('a Redis URL that cannot connect', () => {
  it('fails at start-up with one clear line', async () => {
    const port = await freePort();
    const proc = spawn(
      process.execPath,
      [SERVER, '--http', '0', '--redis', `redis://127.0.0.1:${port}`],
      { cwd: REPO, env: envWith({}), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((done) => proc.once('exit', done));
    expect(code).toBe(2);
    expect(err.trimEnd().split('\n')).toEqual([
      `[mcp-explore] span-ledger/redis: cannot connect to redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
  });
});
