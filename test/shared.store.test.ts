/**
 * The shared session store over the in-memory backend: the same ledger as the
 * in-process store, one value per session bucket, keyed by a hash, shared by
 * every store on the backend, and never failing a call when the backend does.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSessionStore, type Emission } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type SharedSessionStoreOptions,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { fileEmission } from './_build.js';

/** A store that waits on its backend as long as a loaded machine needs: time is not what these tests check. */
function patient(backend: SharedStoreBackend, options: SharedSessionStoreOptions = {}) {
  return createSharedSessionStore(backend, { timeoutMs: 60_000, ...options });
}

function emission(root = '/repo', path = 'a.ts'): Emission {
  return {
    projectRoot: root,
    query: 'q',
    files: [fileEmission(path, '1-10', 300, 'fp')],
    sourceChars: 300,
    responseChars: 500,
  };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The in-memory backend, with every key and value written to it kept aside. */
function loggedBackend() {
  const inner = createMemoryBackend();
  const writes: { key: string; value: string }[] = [];
  const reads: string[] = [];
  const backend: SharedStoreBackend = {
    get(key) {
      reads.push(key);
      return inner.get(key);
    },
    async compareAndSet(key, expected, next, ttlMs) {
      const won = await inner.compareAndSet(key, expected, next, ttlMs);
      if (won) writes.push({ key, value: next });
      return won;
    },
  };
  return { backend, inner, writes, reads };
}

describe('createSharedSessionStore: the async twin of the session store', () => {
  it('resolves the record as stored, with its index, and the view counts it', async () => {
    const store = patient(createMemoryBackend());
    expect(await store.record(emission(), 'conn-1')).toEqual({ ...emission(), index: 1 });
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(2);
    const view = await store.view('conn-1');
    expect(view.projects.map((p) => [p.projectRoot, p.callCount])).toEqual([['/repo', 2]]);
  });

  it('gives the views the in-process store gives for the same calls', async () => {
    const shared = patient(createMemoryBackend());
    const local = createSessionStore();
    const calls: [Emission, string | undefined][] = [
      [emission('/repo', 'a.ts'), 'alice'],
      [emission('/repo', 'b.ts'), 'alice'],
      [emission('/other', 'c.ts'), 'alice'],
      [emission('/repo', 'a.ts'), undefined],
      [emission('/repo/', 'd.ts'), 'alice'],
    ];
    for (const [e, id] of calls) {
      expect(await shared.record(e, id)).toEqual(local.record(e, id));
    }
    expect(await shared.view('alice')).toEqual(local.view('alice'));
    expect(await shared.view()).toEqual(local.view());
  });

  it("keeps sessions apart: a session never sees another one's calls", async () => {
    const store = patient(createMemoryBackend());
    await store.record(emission('/repo', 'a.ts'), 'alice');
    await store.record(emission('/repo', 'b.ts'), 'bob');
    const alice = await store.project('/repo', 'alice');
    expect(alice.calls.flatMap((c) => c.files.map((f) => f.path))).toEqual(['a.ts']);
    expect((await store.view('carol')).projects).toEqual([]);
    expect((await store.view()).projects).toEqual([]);
  });

  it('shares a session between two stores on one backend, as two processes on one Redis', async () => {
    const backend = createMemoryBackend();
    const one = patient(backend);
    const two = patient(backend);
    await one.record(emission(), 'conn-1');
    expect((await two.record(emission(), 'conn-1'))!.index).toBe(2);
    expect((await one.project('/repo', 'conn-1')).callCount).toBe(2);
  });

  it('answers project() with an empty state, never null, for a project it has not seen', async () => {
    const store = patient(createMemoryBackend());
    expect(await store.project('/repo', 'conn-1')).toEqual({
      projectRoot: '/repo',
      callCount: 0,
      responseChars: 0,
      calls: [],
    });
  });

  it('resolves null and writes nothing for a malformed emission', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    for (const junk of [null, undefined, 'x', {}, { projectRoot: '' }, { projectRoot: 1 }]) {
      expect(await store.record(junk as never, 'conn-1')).toBeNull();
    }
    expect(writes).toEqual([]);
  });

  it('resolves null when the limits keep no record, but still counts the call', async () => {
    expect(
      await patient(createMemoryBackend(), { limits: { maxProjects: 0 } }).record(emission()),
    ).toBeNull();
    const store = patient(createMemoryBackend(), {
      limits: { maxCallsRetained: 0 },
    });
    expect(await store.record(emission())).toBeNull();
    expect((await store.project('/repo')).callCount).toBe(1);
  });

  it("bounds each session by the limits on its own: maxProjects counts one session's projects", async () => {
    const store = patient(createMemoryBackend(), { limits: { maxProjects: 1 } });
    await store.record(emission('/one'), 'alice');
    await store.record(emission('/two'), 'bob');
    await store.record(emission('/two'), 'alice');
    expect((await store.view('alice')).projects.map((p) => p.projectRoot)).toEqual(['/two']);
    expect((await store.view('bob')).projects.map((p) => p.projectRoot)).toEqual(['/two']);
  });

  it('hands out frozen views and records', async () => {
    const store = patient(createMemoryBackend());
    const record = await store.record(emission(), 'conn-1');
    expect(Object.isFrozen(record)).toBe(true);
    const view = await store.view('conn-1');
    const call = view.projects[0]!.calls[0]!;
    expect(
      [view, view.projects, call, call.files, call.files[0], call.files[0]!.ranges[0]].every(
        Object.isFrozen,
      ),
    ).toBe(true);
  });
});

describe('createSharedSessionStore: keys and values name no session', () => {
  it('keys a bucket by the SHA-256 of its normalized id, and the default bucket by "default"', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    await store.record(emission(), '  conn-1 ');
    await store.record(emission());
    await store.record(emission(), '   ');
    expect(writes.map((w) => w.key)).toEqual([sha256('conn-1'), 'default', 'default']);
  });

  it('keeps the raw id out of every key and every value', async () => {
    const { backend, writes, reads } = loggedBackend();
    const store = patient(backend);
    const id = 'secret-conversation-id-7f3q';
    await store.record(emission(), id);
    await store.view(id);
    await store.forget(id);
    expect(writes.length).toBe(2);
    for (const text of [...reads, ...writes.flatMap((w) => [w.key, w.value])]) {
      expect(text).not.toContain(id);
    }
  });

  it('hashes the SHA-256 of a long id again, so a key has one fixed length', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    const long = 'x'.repeat(300);
    await store.record(emission(), long);
    expect(writes[0]!.key).toBe(sha256(sha256(long)));
  });

  it('takes a 1 MB id and __proto__ as ids like any other, each its own bucket', async () => {
    const store = patient(createMemoryBackend());
    const huge = `${'m'.repeat(1024 * 1024)}`;
    for (const id of [huge, `${huge}-b`, '__proto__', 'constructor']) {
      expect((await store.record(emission(), id))!.index).toBe(1);
    }
    expect((await store.project('/repo', huge)).callCount).toBe(1);
    expect((await store.project('/repo', '__proto__')).callCount).toBe(1);
    expect((await store.view()).projects).toEqual([]);
  });
});

describe('createSharedSessionStore: concurrent writes', () => {
  it('loses no record when 50 records of one session race through two stores', async () => {
    const backend = createMemoryBackend();
    const stores = [patient(backend), patient(backend)];
    const records = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        stores[i % 2]!.record(emission('/repo', `f${i}.ts`), 'conn-1'),
      ),
    );
    expect(records.map((r) => r!.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect((await stores[0]!.project('/repo', 'conn-1')).callCount).toBe(50);
  });

  it('re-applies a record whose compare-and-set lost to another process', async () => {
    const inner = createMemoryBackend();
    const other = patient(inner);
    let raced = false;
    let attempts = 0;
    const store = patient({
      get: (key) => inner.get(key),
      async compareAndSet(key, expected, next, ttlMs) {
        attempts++;
        if (!raced) {
          raced = true;
          await other.record(emission('/repo', 'theirs.ts'), 'conn-1');
        }
        return inner.compareAndSet(key, expected, next, ttlMs);
      },
    });
    const mine = await store.record(emission('/repo', 'mine.ts'), 'conn-1');
    expect(attempts).toBe(2);
    expect(mine!.index).toBe(2);
    const project = await other.project('/repo', 'conn-1');
    expect(project.calls.map((c) => c.files[0]!.path)).toEqual(['theirs.ts', 'mine.ts']);
  });

  it('gives up after 8 lost races and records nothing', async () => {
    const inner = createMemoryBackend();
    let attempts = 0;
    const store = patient(
      {
        get: (key) => inner.get(key),
        async compareAndSet() {
          attempts++;
          return false;
        },
      },
      { timeoutMs: 10_000 },
    );
    expect(await store.record(emission(), 'conn-1')).toBeNull();
    expect(attempts).toBe(8);
    expect(inner.size()).toBe(0);
  });

  it('sends the writes of one session that wait together, in one compare-and-set', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    const records = await Promise.all([1, 2, 3, 4].map(() => store.record(emission(), 'conn-1')));
    expect(records.map((r) => r!.index)).toEqual([1, 2, 3, 4]);
    expect(writes.length).toBe(2);
  });
});

describe('createSharedSessionStore: values seen before', () => {
  it('reads a value it saw last time as the same ledger, and a changed one afresh', async () => {
    const backend = createMemoryBackend();
    const store = patient(backend);
    await store.record(emission(), 'conn-1');
    const first = (await store.view('conn-1')).projects[0];
    expect((await store.view('conn-1')).projects[0]).toBe(first);
    await patient(backend).record(emission(), 'conn-1');
    const changed = (await store.view('conn-1')).projects[0];
    expect(changed).not.toBe(first);
    expect(changed!.callCount).toBe(2);
  });

  it('remembers the values of the 64 sessions seen last, and reads older ones afresh', async () => {
    const backend = createMemoryBackend();
    const writer = patient(backend);
    for (let i = 0; i <= 64; i++) await writer.record(emission(), `conn-${i}`);
    const store = patient(backend);
    const first = (await store.view('conn-0')).projects[0];
    for (let i = 1; i < 64; i++) await store.view(`conn-${i}`);
    expect((await store.view('conn-0')).projects[0]).toBe(first);
    await store.view('conn-64');
    for (let i = 1; i < 64; i++) await store.view(`conn-${i}`);
    expect((await store.view('conn-0')).projects[0]).not.toBe(first);
  });
});

describe('createSharedSessionStore: writing on the value seen last', () => {
  it('records after a view without reading the value again', async () => {
    const { backend, reads, writes } = loggedBackend();
    const store = patient(backend);
    await store.record(emission(), 'conn-1');
    reads.length = 0;
    await store.view('conn-1');
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(2);
    expect(reads.length).toBe(1);
    expect(writes.length).toBe(2);
  });

  it('reads again when another process wrote since, and loses nothing', async () => {
    const backend = createMemoryBackend();
    const mine = patient(backend);
    const theirs = patient(backend);
    await mine.record(emission('/repo', 'a.ts'), 'conn-1');
    await theirs.record(emission('/repo', 'b.ts'), 'conn-1');
    expect((await mine.record(emission('/repo', 'c.ts'), 'conn-1'))!.index).toBe(3);
    const project = await theirs.project('/repo', 'conn-1');
    expect(project.calls.map((c) => c.files[0]!.path)).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('prunes a call another process recorded since the value it saw last', async () => {
    const backend = createMemoryBackend();
    const mine = patient(backend);
    const theirs = patient(backend);
    await mine.record(emission(), 'conn-1');
    await theirs.record(emission(), 'conn-1');
    await mine.prune({ sessionId: 'conn-1', calls: [2] });
    expect((await theirs.project('/repo', 'conn-1')).calls.map((c) => c.index)).toEqual([1]);
  });

  it('forgets a session another process recorded since it last looked', async () => {
    const backend = createMemoryBackend();
    const mine = patient(backend);
    const theirs = patient(backend);
    await mine.view('conn-1');
    await theirs.record(emission(), 'conn-1');
    await mine.forget('conn-1');
    expect((await theirs.view('conn-1')).projects).toEqual([]);
  });
});

describe('createSharedSessionStore: prune', () => {
  it('drops the records the agent no longer holds and keeps the counters', async () => {
    const store = patient(createMemoryBackend());
    for (const path of ['a.ts', 'b.ts', 'c.ts'])
      await store.record(emission('/repo', path), 'conn-1');
    await store.prune({ sessionId: 'conn-1', calls: [1, 3] });
    const project = await store.project('/repo', 'conn-1');
    expect(project.calls.map((c) => c.index)).toEqual([2]);
    expect(project.callCount).toBe(3);
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(4);
  });

  it('prunes one project only when told its root, every project otherwise', async () => {
    const store = patient(createMemoryBackend());
    await store.record(emission('/one'), 'conn-1');
    await store.record(emission('/two'), 'conn-1');
    await store.prune({ sessionId: 'conn-1', projectRoot: '/one' });
    expect((await store.project('/one', 'conn-1')).calls).toEqual([]);
    expect((await store.project('/two', 'conn-1')).calls.length).toBe(1);
    await store.prune({ sessionId: 'conn-1' });
    expect((await store.project('/two', 'conn-1')).calls).toEqual([]);
  });

  it('prunes the default bucket too, and nobody else', async () => {
    const store = patient(createMemoryBackend());
    await store.record(emission());
    await store.record(emission(), 'conn-1');
    await store.prune();
    expect((await store.project('/repo')).calls).toEqual([]);
    expect((await store.project('/repo')).callCount).toBe(1);
    expect((await store.project('/repo', 'conn-1')).calls.length).toBe(1);
  });

  it('writes nothing for a request that is malformed or matches nothing', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    await store.record(emission(), 'conn-1');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const request of [
      { sessionId: 'conn-1', calls: [9] },
      { sessionId: 'conn-1', calls: 'all' },
      { sessionId: 'conn-1', calls: [0, -1, 1.5] },
      { sessionId: 'conn-1', projectRoot: '/elsewhere' },
      { sessionId: 'nobody' },
      proxy,
    ]) {
      await store.prune(request as never);
    }
    expect(writes.length).toBe(1);
    expect((await store.project('/repo', 'conn-1')).calls.length).toBe(1);
  });
});

describe('createSharedSessionStore: forget', () => {
  it("drops that session's history and nobody else's", async () => {
    const store = patient(createMemoryBackend());
    await store.record(emission(), 'alice');
    await store.record(emission(), 'bob');
    await store.record(emission());
    await store.forget('alice');
    expect((await store.view('alice')).projects).toEqual([]);
    expect((await store.project('/repo', 'bob')).callCount).toBe(1);
    expect((await store.project('/repo')).callCount).toBe(1);
    expect((await store.record(emission(), 'alice'))!.index).toBe(1);
  });

  it('drops nothing for an id that normalizes to the default bucket', async () => {
    const { backend, writes } = loggedBackend();
    const store = patient(backend);
    await store.record(emission());
    for (const id of ['', '   ', 42, null, undefined]) await store.forget(id as never);
    expect((await store.project('/repo')).callCount).toBe(1);
    expect(writes.length).toBe(1);
  });

  it('writes nothing to forget a session it has never seen', async () => {
    const { backend, writes } = loggedBackend();
    await patient(backend).forget('nobody');
    expect(writes).toEqual([]);
  });
});

describe('createSharedSessionStore: options', () => {
  it('throws a TypeError naming the option for a ttlMs or timeoutMs that is not a positive safe integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '60000', null]) {
      expect(() =>
        createSharedSessionStore(createMemoryBackend(), { ttlMs: bad as never }),
      ).toThrow(
        /createSharedSessionStore\(backend, options\): options\.ttlMs must be a positive safe integer/,
      );
      expect(() =>
        createSharedSessionStore(createMemoryBackend(), { timeoutMs: bad as never }),
      ).toThrow(/options\.timeoutMs must be a positive safe integer/);
    }
  });

  it('throws a TypeError for options that are not an object or cannot be read', () => {
    const throwing = Object.defineProperty({}, 'ttlMs', {
      get(): never {
        throw new Error('hostile');
      },
    });
    for (const [bad, message] of [
      [null, /options must be an object/],
      [42, /options must be an object/],
      [throwing, /options\.ttlMs could not be read/],
    ] as const) {
      expect(() => createSharedSessionStore(createMemoryBackend(), bad as never)).toThrow(message);
    }
  });

  it('throws a TypeError for a backend without get and compareAndSet', () => {
    const get = async () => null;
    for (const bad of [
      null,
      42,
      {},
      { get },
      { compareAndSet: get },
      { get: 1, compareAndSet: get },
    ]) {
      expect(() => createSharedSessionStore(bad as never)).toThrow(
        /createSharedSessionStore\(backend, options\): backend must have get and compareAndSet methods/,
      );
    }
  });

  it('throws for malformed limits, as createLedger does', () => {
    expect(() =>
      createSharedSessionStore(createMemoryBackend(), { limits: { maxProjects: -1 } }),
    ).toThrow(TypeError);
  });

  it('passes ttlMs to every write, and an hour by default', async () => {
    const ttls: number[] = [];
    const inner = createMemoryBackend();
    const spy: SharedStoreBackend = {
      get: (key) => inner.get(key),
      compareAndSet(key, expected, next, ttlMs) {
        ttls.push(ttlMs);
        return inner.compareAndSet(key, expected, next, ttlMs);
      },
    };
    await patient(spy).record(emission());
    await patient(spy, { ttlMs: 1234 }).record(emission());
    expect(ttls).toEqual([3_600_000, 1234]);
  });
});
