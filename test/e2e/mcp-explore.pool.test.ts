/**
 * The MCP example's worker pool survives faults: a call whose arguments do
 * not clone fails alone and its worker stays; a worker that exits, throws or
 * hangs past the call timeout fails its call and is replaced; a full queue
 * answers "busy" at once. From outside, with the SDK client and raw HTTP
 * against a daemon with one worker that misbehaves on request, and on the
 * pool itself for the clone failure no tool argument can reach any more.
 */
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  body,
  connectHttp,
  type ExamplePool,
  examplePool,
  explore,
  exploreError,
  FAULTY_WORKER,
  type FaultyDaemon,
  hasPointer,
  health,
  rawSession,
  rawText,
  sleep,
  startFaultyDaemon,
  untagged,
  useExample,
  WIDE,
} from './_mcp-explore.js';

useExample();

const SLOW_MS = 800;
const TIMEOUT_MS = 1500;
let daemon: FaultyDaemon;
let firstCall = '';

beforeAll(async () => {
  daemon = await startFaultyDaemon(SLOW_MS, {
    EXPLORE_CALL_TIMEOUT_MS: String(TIMEOUT_MS),
    EXPLORE_MAX_QUEUE: '2',
  });
  firstCall = daemon.firstCall;
});

/** `{ query, extra }` with `extra` nested `depth` arrays deep, as JSON text (no recursion needed). */
function nestedArguments(query: string, depth: number): string {
  return `{"query":${JSON.stringify(query)},"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

function nestedCall(id: number, depth: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"explore","arguments":${nestedArguments(WIDE, depth)},"_meta":{"conversationId":"c-1"}}}`;
}

/** Resolves once `condition()` holds, polled every 25 ms (10 s at most: only a hang is refused). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`never true: ${what}`);
}

/** Resolves once the daemon's worker is running `n` calls. */
const runningCalls = (n: number) =>
  until(async () => (await health(daemon.origin)).body.running === n, `${n} calls running`);

/** The daemon answers a fresh session's first call exactly as before. */
async function stillAnswers(): Promise<void> {
  expect(body(await explore(await connectHttp(daemon.url), { query: WIDE }))).toBe(body(firstCall));
}

describe('an extra argument nested 10,000 arrays deep', () => {
  it('is dropped before the worker on an idle pool, and the call answers normally', async () => {
    const raw = await rawSession(daemon.url);
    const { status, text } = await raw.post(nestedCall(7, 10_000));
    expect(status).toBe(200);
    const answer = JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
    expect(body(rawText(answer))).toBe(body(firstCall));
    await stillAnswers();
  });

  it('neither wedges nor crashes a busy pool', async () => {
    const busy = explore(await connectHttp(daemon.url), { query: 'slow:zzz' });
    await daemon.slowCallStarted();
    const raw = await rawSession(daemon.url);
    const { status, text } = await raw.post(nestedCall(8, 10_000));
    await busy;
    expect(status).toBe(200);
    expect(body(rawText(JSON.parse(/^data: (.*)$/m.exec(text)![1]!)))).toBe(body(firstCall));
    await stillAnswers();
    expect(daemon.proc.exitCode).toBeNull();
  });
});

describe('a worker that fails', () => {
  it('fails only its call when it exits without an error, and is replaced', async () => {
    const client = await connectHttp(daemon.url);
    expect(await exploreError(client, { query: 'exit:' })).toBe(
      'explore could not answer: the rendering worker stopped.',
    );
    // The session's next call is an honest first call: the failed one recorded nothing.
    expect(body(await explore(client, { query: WIDE }))).toBe(body(firstCall));
    expect((await health(daemon.origin)).body.workers).toBe(1);
  });

  it('fails only its call when it throws, and is replaced', async () => {
    const client = await connectHttp(daemon.url);
    expect(await exploreError(client, { query: 'throw:' })).toBe(
      'explore could not answer: the rendering worker crashed.',
    );
    expect(body(await explore(client, { query: WIDE }))).toBe(body(firstCall));
  });

  it('is terminated and replaced when it hangs past the call timeout', async () => {
    const client = await connectHttp(daemon.url);
    const other = await connectHttp(daemon.url);
    // A call queued behind the hung one is served by the replacement, whose
    // start-up is not counted against it (however long a busy machine takes).
    const hung = exploreError(client, { query: 'hang:' });
    await runningCalls(1);
    const behind = explore(other, { query: WIDE });
    expect(await hung).toBe(
      `explore could not answer: the call took longer than ${TIMEOUT_MS} ms.`,
    );
    expect(body(await behind)).toBe(body(firstCall));
    expect(hasPointer(await explore(other, { query: WIDE }))).toBe(true);
  });
});

describe('a full queue', () => {
  it('refuses the call past the bound with a busy error and serves the queued ones', async () => {
    const sessions = await Promise.all([1, 2, 3, 4].map(() => connectHttp(daemon.url)));
    const running = explore(sessions[0]!, { query: 'slow:zzz' });
    await daemon.slowCallStarted();
    const queued = [explore(sessions[1]!, { query: WIDE }), explore(sessions[2]!, { query: WIDE })];
    // Both reach the daemon and wait behind the busy worker (polled, however long that takes).
    await until(async () => (await health(daemon.origin)).body.queued >= 2, 'two calls queued');
    expect(await exploreError(sessions[3]!, { query: WIDE })).toBe(
      'explore could not answer: the server is busy (2 calls waiting): try again shortly.',
    );
    await running;
    expect(await Promise.all(queued)).toEqual([firstCall, firstCall]);
    // The refused call recorded nothing either.
    expect(body(await explore(sessions[3]!, { query: WIDE }))).toBe(body(firstCall));
  });
});

describe('a call on a worker still starting', () => {
  it('is timed from when the worker is ready, not from its start-up', async () => {
    // Start-up alone outlasts the call's bound, as a replacement's can on a busy machine.
    const pool = await examplePool(1, pathToFileURL(FAULTY_WORKER), {
      timeoutMs: 2000,
      startupMs: 2500,
    });
    try {
      const answer = (await pool.run({ query: WIDE })) as { content: { text: string }[] };
      expect(body(untagged(answer.content[0]!.text))).toBe(body(firstCall));
    } finally {
      await pool.close();
    }
  });

  it('fails when the worker is not ready within the start-up limit, which never holds a call forever', async () => {
    const pool = await examplePool(1, pathToFileURL(FAULTY_WORKER), {
      startupMs: 3000,
      startupLimitMs: 500,
    });
    try {
      await expect(pool.run({ query: WIDE })).rejects.toThrow(
        'the rendering worker did not start within 500 ms',
      );
    } finally {
      await pool.close();
    }
  });
});

describe('the pool itself, given arguments that do not clone', () => {
  let pool: ExamplePool;
  beforeAll(async () => {
    pool = await examplePool();
  });
  afterAll(() => pool.close());

  /** An array nested `depth` deep, built without recursion. */
  function nested(depth: number): unknown[] {
    let a: unknown[] = [];
    for (let i = 0; i < depth; i++) a = [a];
    return a;
  }

  it('fails that call and keeps the worker, on an idle pool and when dispatched from a reply', async () => {
    await expect(pool.run({ query: WIDE, extra: nested(10_000) })).rejects.toThrow(
      'the arguments could not be passed to a rendering worker',
    );
    await expect(pool.run({ query: WIDE, extra: () => 1 })).rejects.toThrow(
      'the arguments could not be passed',
    );
    // Queued behind a running call, the bad one is posted from the worker's reply handler.
    const [ok, bad, after] = await Promise.allSettled([
      pool.run({ query: WIDE }),
      pool.run({ query: WIDE, extra: nested(10_000) }),
      pool.run({ query: WIDE }),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(after.status).toBe('fulfilled');
    expect(pool.stats()).toEqual({ queued: 0, running: 0, workers: 1 });
  });
});

describe('lanes', () => {
  it('keeps a worker free for another client while one keeps a flood of calls waiting', async () => {
    const pool = await examplePool(2, pathToFileURL(FAULTY_WORKER));
    try {
      // One lane with far more calls waiting than the pool has workers: once its
      // first two have run, it holds one worker at a time.
      const flood = Array.from({ length: 10 }, () =>
        pool.run({ query: `slow:${WIDE}` }, { lane: 'flooder' }).catch(() => null),
      );
      // Once the first two are done (however long a busy machine takes): one runs, seven wait.
      await Promise.all(flood.slice(0, 2));
      expect(pool.stats()).toMatchObject({ running: 1, queued: 7 });
      // Another lane's call runs at once, on the worker the flood may not take.
      const other = pool.run({ query: WIDE }, { lane: 'well-behaved' });
      expect(pool.stats()).toMatchObject({ running: 2, queued: 7 });
      await other;
      await Promise.all(flood);
    } finally {
      await pool.close();
    }
  });

  it('keeps the flooding lane to one worker while its waiting calls dip below the mark, until it drains', async () => {
    const pool = await examplePool(2, pathToFileURL(FAULTY_WORKER));
    try {
      // 7 calls: two run at once, five wait (more than twice the pool's size).
      const flood = Array.from({ length: 7 }, () =>
        pool.run({ query: `slow:${WIDE}` }, { lane: 'flooder' }),
      );
      await Promise.all(flood.slice(0, 3));
      // Three left waiting, one running: still a flood, so the other worker stays free.
      expect(pool.stats()).toMatchObject({ running: 1, queued: 3 });
      await Promise.all(flood);
      // Drained: the same lane's few parallel calls take every worker again.
      const calls = [1, 2, 3].map(() => pool.run({ query: `slow:${WIDE}` }, { lane: 'flooder' }));
      expect(pool.stats()).toMatchObject({ running: 2, queued: 1 });
      await Promise.all(calls);
    } finally {
      await pool.close();
    }
  });

  it('takes one call per call of another active client while it floods, even with a worker free', async () => {
    const pool = await examplePool(3, pathToFileURL(FAULTY_WORKER));
    try {
      // Every worker answers once first, so none is still loading when the flood starts.
      await Promise.all([1, 2, 3].map(() => pool.run({ query: WIDE }, { lane: 'warm-up' })));
      // Three flood calls run at once, seven wait (a flood); the other client's call waits too.
      const flood = Array.from({ length: 10 }, () =>
        pool.run({ query: `slow:${WIDE}` }, { lane: 'flooder' }),
      );
      const other = pool.run({ query: `slow:${WIDE}` }, { lane: 'well-behaved' });
      // As the first three end, the other client's call takes a worker, the flood one more
      // for it, and the third stays free: the flood has had its turn.
      await Promise.all(flood.slice(0, 3));
      expect(pool.stats()).toMatchObject({ running: 2, queued: 6 });
      // Once the other client is done, the flood goes on without it, to the end.
      await other;
      await Promise.all(flood);
      expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  });

  it('sees a flood held at the bound the front keeps per context, on a pool of three workers', async () => {
    const example = (name: string) =>
      import(new URL(`../../examples/mcp-explore/${name}`, import.meta.url).href);
    const { readConfig } = await example('config.mjs');
    const { poolFromConfig } = await example('pool.mjs');
    const config = readConfig({ EXPLORE_WORKERS: '3', EXPLORE_WORKER: FAULTY_WORKER });
    const pool: ExamplePool = poolFromConfig(config, () => {});
    try {
      await Promise.all([1, 2, 3].map(() => pool.run({ query: WIDE }, { lane: 'warm-up' })));
      // As many calls as the front lets one context have in flight: three run, five wait.
      const flood = Array.from({ length: config.maxCallsPerContext }, () =>
        pool.run({ query: `slow:${WIDE}` }, { lane: 'flooder' }),
      );
      const other = pool.run({ query: `slow:${WIDE}` }, { lane: 'well-behaved' });
      // A flood: as the first three end, the other client's call takes a worker, the
      // flood one more for it, and the third stays free.
      await Promise.all(flood.slice(0, 3));
      expect(pool.stats()).toMatchObject({ running: 2, queued: 4 });
      await other;
      await Promise.all(flood);
    } finally {
      await pool.close();
    }
  });

  it('gives a few parallel calls of one lane every worker', async () => {
    const pool = await examplePool(2, pathToFileURL(FAULTY_WORKER));
    try {
      const calls = [1, 2, 3].map(() => pool.run({ query: `slow:${WIDE}` }, { lane: 'agent' }));
      // A call is dispatched when it is submitted: no time passes before the count is read.
      expect(pool.stats()).toMatchObject({ running: 2, queued: 1 });
      await Promise.all(calls);
    } finally {
      await pool.close();
    }
  });
});
