/**
 * The shared store on a real Redis (Debian's redis-server, started here on a
 * free loopback port with no persistence): two store instances with their own
 * connections stand for two processes of one daemon. What it proves: no lost
 * record under concurrency, the TTL renewed by every write and ending idle
 * sessions, values that are not ledgers replaced, a Redis that goes away
 * degrading the store and coming back resuming it, keys that never hold a
 * session id, and a URL that cannot connect failing at start-up in one line.
 */
import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emission } from '../../src/index.js';
import { connectRedis, redisBackend } from '../../src/redis/index.js';
import { createSharedSessionStore } from '../../src/shared/index.js';
import { freePort, startRedis, type TestRedis } from './_redis.js';

/** Operations wait as long as a loaded machine needs: time is not what these tests check. */
const PATIENT = { timeoutMs: 30_000 } as const;

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type Client = ReturnType<typeof createClient>;

let redis: TestRedis;
const clients: Client[] = [];

function connect(options: Parameters<typeof connectRedis>[2] = {}): Promise<Client> {
  return connectRedis(createClient, redis.url, options).then((c) => {
    clients.push(c);
    return c;
  });
}

beforeAll(async () => {
  redis = await startRedis({ debug: true });
  if (!existsSync(join(REPO, 'dist/redis.cjs')))
    execSync('npx tsup', { cwd: REPO, stdio: 'ignore' });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.destroy()));
  await redis?.stop();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function emission(path = 'a.ts', root = '/repo'): Emission {
  return {
    projectRoot: root,
    query: 'q',
    files: [{ path, ranges: [{ start: 1, end: 10 }], chars: 300, fingerprint: 'fp' }],
    sourceChars: 300,
    responseChars: 500,
  };
}

/** Every key under `prefix`, by SCAN. */
async function keysUnder(client: Client, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
    keys.push(...batch);
  }
  return keys.sort();
}

describe('redisBackend: compare-and-set on the server', () => {
  it('sets only when the current value is the expected one, with a PX lifetime', async () => {
    const client = await connect();
    const backend = redisBackend(client, { prefix: 'cas-test:' });
    expect(await backend.get('k')).toBeNull();
    expect(await backend.compareAndSet('k', 'v0', 'v1', 60_000)).toBe(false);
    expect(await backend.compareAndSet('k', null, 'v1', 60_000)).toBe(true);
    expect(await backend.compareAndSet('k', null, 'v2', 60_000)).toBe(false);
    expect(await backend.compareAndSet('k', 'v2', 'v3', 60_000)).toBe(false);
    expect(await backend.compareAndSet('k', 'v1', 'v2', 60_000)).toBe(true);
    expect(await client.get('cas-test:k')).toBe('v2');
    const ttl = await client.pTTL('cas-test:k');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('passes on what Redis refuses, such as a lifetime of 0 ms', async () => {
    const backend = redisBackend(await connect(), { prefix: 'refused-test:' });
    await expect(backend.compareAndSet('k', null, 'v', 0)).rejects.toThrow(/invalid expire time/);
    expect(await backend.get('k')).toBeNull();
  });

  it('loads the script again after the server forgot it (NOSCRIPT)', async () => {
    const client = await connect();
    const backend = redisBackend(client, { prefix: 'noscript-test:' });
    expect(await backend.compareAndSet('k', null, 'v1', 60_000)).toBe(true);
    await client.scriptFlush();
    expect(await backend.compareAndSet('k', 'v1', 'v2', 60_000)).toBe(true);
    expect(await backend.get('k')).toBe('v2');
  });

  it('prefixes keys with span-ledger: unless told otherwise, and refuses a prefix that is not a string', async () => {
    const client = await connect();
    await redisBackend(client).compareAndSet('default-prefix-test', null, 'v', 60_000);
    expect(await client.get('span-ledger:default-prefix-test')).toBe('v');
    expect(() => redisBackend(client, { prefix: 7 as never })).toThrow(
      /redisBackend\(client, options\): prefix must be a string/,
    );
  });

  it('reads the same through a client that maps bulk strings to Buffers', async () => {
    const client = await connect();
    const buffers = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    const plain = createSharedSessionStore(
      redisBackend(client, { prefix: 'buffer-test:' }),
      PATIENT,
    );
    const mapped = createSharedSessionStore(
      redisBackend(buffers, { prefix: 'buffer-test:' }),
      PATIENT,
    );
    await plain.record(emission('é.ts'), 'conn-1');
    expect((await mapped.record(emission(), 'conn-1'))!.index).toBe(2);
    expect(await mapped.view('conn-1')).toEqual(await plain.view('conn-1'));
  });
});

describe('createSharedSessionStore on Redis: values as Redis keeps them', () => {
  it('keeps recording a session whose value holds text that UTF-8 cannot carry (a lone surrogate)', async () => {
    const client = await connect();
    const store = createSharedSessionStore(redisBackend(client, { prefix: 'surrogate:' }), PATIENT);
    await store.record(emission('lone-\uD800.ts'), 'conn-1');
    expect((await store.record(emission('lone-\uD800.ts'), 'conn-1'))!.index).toBe(2);
    const other = createSharedSessionStore(redisBackend(client, { prefix: 'surrogate:' }), PATIENT);
    expect((await other.record(emission(), 'conn-1'))!.index).toBe(3);
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(4);
  });
});

describe('createSharedSessionStore on Redis: two processes, one session', () => {
  it('loses no record and no counter when 50 records race through two stores', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const stores = [a, b].map((c) =>
      createSharedSessionStore(redisBackend(c, { prefix: 'race:' }), PATIENT),
    );
    const records = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        stores[i % 2]!.record(emission(`f${i}.ts`), 'conversation-1'),
      ),
    );
    expect(records.map((r) => r!.index).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const project = await stores[1]!.project('/repo', 'conversation-1');
    expect(project.callCount).toBe(50);
    expect(project.responseChars).toBe(50 * 500);
  });

  it('loses none either when 20 sessions each make 10 concurrent calls over both stores', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const stores = [a, b].map((c) =>
      createSharedSessionStore(redisBackend(c, { prefix: 'many:' }), PATIENT),
    );
    const calls: Promise<unknown>[] = [];
    for (let s = 0; s < 20; s++) {
      for (let i = 0; i < 10; i++) {
        calls.push(stores[(s + i) % 2]!.record(emission(`s${s}-${i}.ts`), `session-${s}`));
      }
    }
    expect((await Promise.all(calls)).every((r) => r !== null)).toBe(true);
    for (let s = 0; s < 20; s++) {
      const project = await stores[s % 2]!.project('/repo', `session-${s}`);
      expect(project.callCount).toBe(10);
      const paths = project.calls.flatMap((c) => c.files.map((f) => f.path));
      expect(paths.every((p) => p.startsWith(`s${s}-`))).toBe(true);
    }
  });
});

describe('createSharedSessionStore on Redis: lifetime', () => {
  it('renews the TTL on every write', async () => {
    const client = await connect();
    const store = createSharedSessionStore(redisBackend(client, { prefix: 'ttl:' }), {
      ...PATIENT,
      ttlMs: 60_000,
    });
    await store.record(emission(), 'conn-1');
    const key = `ttl:${sha256('conn-1')}`;
    await client.pExpire(key, 5_000);
    expect(await client.pTTL(key)).toBeLessThanOrEqual(5_000);
    await store.record(emission(), 'conn-1');
    expect(await client.pTTL(key)).toBeGreaterThan(50_000);
  });

  it('lets an idle session expire: it starts over like a first call', async () => {
    const client = await connect();
    const store = createSharedSessionStore(redisBackend(client, { prefix: 'expiry:' }), {
      ...PATIENT,
      ttlMs: 600,
    });
    await store.record(emission(), 'conn-1');
    expect((await store.project('/repo', 'conn-1')).callCount).toBe(1);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await client.exists(`expiry:${sha256('conn-1')}`)).toBe(0);
    expect((await store.view('conn-1')).projects).toEqual([]);
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(1);
  });
});

describe('createSharedSessionStore on Redis: one number per response', () => {
  it('refuses a write that reaches the server past its deadline, by the server clock', async () => {
    const client = await connect();
    const admin = await connect();
    const backend = redisBackend(client, { prefix: 'late:' });
    expect(await backend.compareAndSet('k', null, 'v1', 60_000, Date.now() + 10_000)).toBe(true);
    // The server sleeps past the deadline; the write waits in its queue.
    const asleep = admin.sendCommand(['DEBUG', 'SLEEP', '0.5']);
    await new Promise((r) => setTimeout(r, 50));
    const late = backend.compareAndSet('k', 'v1', 'v2', 60_000, Date.now() + 100);
    await asleep;
    expect(await late).toBe(false);
    expect(await client.get('late:k')).toBe('v1');
  });

  it('never hands two stores one number: 60 reservations racing through two clients', async () => {
    const stores = [await connect(), await connect()].map((c) =>
      createSharedSessionStore(redisBackend(c, { prefix: 'reserve:' }), PATIENT),
    );
    const taken = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stores[i % 2]!.reserve('/repo', 'ctx')),
    );
    expect(taken.every((r) => r !== null)).toBe(true);
    expect(new Set(taken.map((r) => r!.callIndex)).size).toBe(60);
    const tag = taken[0]!.generation!;
    const record = await stores[1]!.record({ ...emission(), index: 37, generation: tag }, 'ctx');
    expect(record?.index).toBe(37);
    expect(record?.query).toBe('');
  });
});

describe('createSharedSessionStore on Redis: values that are not a ledger', () => {
  const junk: [string, (client: Client, key: string) => Promise<unknown>][] = [
    ['hand-edited text', (c, k) => c.set(k, 'not a ledger')],
    [
      'a truncated ledger',
      (c, k) => c.set(k, '{"version":1,"entries":[{"session":null,"key":"/repo","pro'),
    ],
    ["another program's JSON", (c, k) => c.set(k, '{"user":"ann","cart":[1,2]}')],
    ["another program's hash", (c, k) => c.hSet(k, { field: 'value' })],
    ["another program's list", (c, k) => c.rPush(k, ['a', 'b'])],
  ];
  for (const [what, put] of junk) {
    it(`reads ${what} as an empty ledger and replaces it on the next write`, async () => {
      const client = await connect();
      const store = createSharedSessionStore(redisBackend(client, { prefix: 'junk:' }), PATIENT);
      const id = `conn-${what}`;
      const key = `junk:${sha256(id)}`;
      await client.del(key);
      await put(client, key);
      expect(await store.view(id)).toEqual({ version: 1, projects: [] });
      expect((await store.record(emission(), id))!.index).toBe(1);
      expect(await client.type(key)).toBe('string');
      const value = JSON.parse((await client.get(key))!);
      expect(value.entries[0].project.callCount).toBe(1);
      expect((await store.record(emission(), id))!.index).toBe(2);
    });
  }
});

describe('createSharedSessionStore on Redis: keys', () => {
  it('keys every bucket by prefix + SHA-256 of its id, and no key or value holds an id', async () => {
    const client = await connect();
    const store = createSharedSessionStore(redisBackend(client, { prefix: 'keys:' }), PATIENT);
    const huge = `mega-${'x'.repeat(1024 * 1024)}`;
    const ids = ['conversation-7f3q2ab', '__proto__', 'constructor', huge];
    for (const id of ids) expect((await store.record(emission(), id))!.index).toBe(1);
    await store.record(emission());
    const expected = [
      ...ids.map((id) => `keys:${sha256(id.length > 128 ? sha256(id) : id)}`),
      'keys:default',
    ].sort();
    const keys = await keysUnder(client, 'keys:');
    expect(keys).toEqual(expected);
    for (const key of keys) {
      const value = (await client.get(key))!;
      for (const id of ids) {
        expect(key).not.toContain(id);
        expect(value).not.toContain(id);
      }
    }
    expect((await store.project('/repo', huge)).callCount).toBe(1);
    expect((await store.project('/repo', '__proto__')).callCount).toBe(1);
  });
});

describe('createSharedSessionStore on Redis: Redis goes away mid-session', () => {
  it('degrades to nothing recorded and an empty view, then resumes once Redis is back', async () => {
    const errors: Error[] = [];
    const client = await connect({ onError: (e) => errors.push(e) });
    // A stopped Redis refuses at once (no offline queue): the deadline only bounds a hang.
    const store = createSharedSessionStore(redisBackend(client, { prefix: 'outage:' }), {
      timeoutMs: 5_000,
    });
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(1);

    await redis.halt();
    expect(await store.record(emission(), 'conn-1')).toBeNull();
    expect(await store.view('conn-1')).toEqual({ version: 1, projects: [] });
    expect((await store.project('/repo', 'conn-1')).callCount).toBe(0);
    expect(errors.length).toBeGreaterThan(0);

    await redis.restart();
    let resumed = null;
    for (let i = 0; i < 100 && resumed === null; i++) {
      resumed = await store.record(emission(), 'conn-1');
      if (resumed === null) await new Promise((r) => setTimeout(r, 100));
    }
    // The restarted Redis kept nothing (no persistence): the session starts over.
    expect(resumed?.index).toBe(1);
    expect((await store.project('/repo', 'conn-1')).callCount).toBe(1);
  }, 60_000);
});

describe('connectRedis: a URL that cannot connect fails at start-up, in one line', () => {
  it('rejects with one line naming the URL and the cause', async () => {
    const port = await freePort();
    const err = await connectRedis(createClient, `redis://127.0.0.1:${port}`).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(
      new RegExp(
        `^span-ledger/redis: cannot connect to redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`,
      ),
    );
    expect(err.message).not.toContain('\n');
  });

  it('never shows the password of the URL', async () => {
    const port = await freePort();
    const err = await connectRedis(createClient, `redis://ann:hunter2@127.0.0.1:${port}`).catch(
      (e) => e,
    );
    expect(err.message).toContain(`redis://ann:***@127.0.0.1:${port}`);
    expect(err.message).not.toContain('hunter2');
  });

  for (const url of ['nonsense:::hunter2', 'not a url hunter2', 'http://hunter2@127.0.0.1:1']) {
    it(`rejects ${JSON.stringify(url)}, which is not a Redis URL, without echoing it`, async () => {
      const err = await connectRedis(createClient, url).catch((e) => e);
      expect(err.message).toMatch(
        /^span-ledger\/redis: cannot connect to the Redis URL \(not a redis:\/\/ or rediss:\/\/ URL\): /,
      );
      expect(err.message).not.toContain('hunter2');
    });
  }

  it('ends a host that follows the documented pattern with exit 1 and one line on stderr', async () => {
    const port = await freePort();
    const script = `
      const { createClient } = require('redis');
      const { connectRedis } = require(${JSON.stringify(join(REPO, 'dist/redis.cjs'))});
      connectRedis(createClient, process.argv[1]).then(
        () => process.exit(0),
        (e) => { console.error(e.message); process.exit(1); },
      );`;
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['-e', script, `redis://127.0.0.1:${port}`], {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 20_000,
      });
    } catch (e) {
      const failed = e as { status: number; stderr: Buffer };
      status = failed.status;
      stderr = failed.stderr.toString();
    }
    expect(status).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^span-ledger\/redis: cannot connect to redis:\/\/127\.0\.0\.1:\d+: /),
    ]);
  });

  it('reports in one line whatever the given createClient throws', async () => {
    const throwing = (): never => {
      throw 'no client';
    };
    const err = await connectRedis(throwing, redis.url).catch((e) => e);
    expect(err.message).toBe(`span-ledger/redis: cannot connect to ${redis.url}: no client`);
  });

  it('connects to a Redis that is there, and the client answers', async () => {
    const client = await connect();
    expect(await client.ping()).toBe('PONG');
  });
});
