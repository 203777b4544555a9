/**
 * The in-memory backend (compare-and-set with expiry, as Redis keys expire)
 * and the store's TTL over it: every write renews a session's lifetime, an
 * idle session is gone after it and starts over.
 */
import { describe, expect, it } from 'vitest';
import type { Emission } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type SharedSessionStoreOptions,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { emission as emissionWith, fileEmission } from './_build.js';

/** A store that waits on its backend as long as a loaded machine needs: time is not what these tests check. */
function patient(backend: SharedStoreBackend, options: SharedSessionStoreOptions = {}) {
  return createSharedSessionStore(backend, { timeoutMs: 60_000, ...options });
}

const emission: Emission = emissionWith({
  files: [fileEmission('a.ts', '1-10', 300, 'fp')],
  sourceChars: 300,
  responseChars: 500,
});

function clock() {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
}

describe('createMemoryBackend', () => {
  it('sets only when the current value is the expected one', async () => {
    const backend = createMemoryBackend();
    expect(await backend.get('k')).toBeNull();
    expect(await backend.compareAndSet('k', 'v0', 'v1', 1000)).toBe(false);
    expect(await backend.compareAndSet('k', null, 'v1', 1000)).toBe(true);
    expect(await backend.compareAndSet('k', null, 'v2', 1000)).toBe(false);
    expect(await backend.compareAndSet('k', 'v2', 'v3', 1000)).toBe(false);
    expect(await backend.get('k')).toBe('v1');
    expect(await backend.compareAndSet('k', 'v1', 'v2', 1000)).toBe(true);
    expect(await backend.get('k')).toBe('v2');
  });

  it('throws a TypeError for options that are not an object, or a clock that is not a function', () => {
    expect(() => createMemoryBackend(null as never)).toThrow(
      /createMemoryBackend\(options\): options must be an object/,
    );
    expect(() => createMemoryBackend({ now: 5 as never })).toThrow(
      /createMemoryBackend\(options\): options\.now must be a function/,
    );
    expect(createMemoryBackend({}).size()).toBe(0);
  });

  it('holds keys such as __proto__ like any other', async () => {
    const backend = createMemoryBackend();
    expect(await backend.compareAndSet('__proto__', null, 'x', 1000)).toBe(true);
    expect(await backend.get('__proto__')).toBe('x');
    expect(await backend.get('constructor')).toBeNull();
  });

  it('lets a value expire ttlMs after it was set: then it reads as absent', async () => {
    const c = clock();
    const backend = createMemoryBackend({ now: c.now });
    await backend.compareAndSet('k', null, 'v1', 1000);
    c.t += 999;
    expect(await backend.get('k')).toBe('v1');
    c.t += 1;
    expect(await backend.get('k')).toBeNull();
    expect(await backend.compareAndSet('k', 'v1', 'v2', 1000)).toBe(false);
    expect(await backend.compareAndSet('k', null, 'v2', 1000)).toBe(true);
  });

  it('drops expired values as later writes come in, so abandoned sessions do not pile up', async () => {
    const c = clock();
    const backend = createMemoryBackend({ now: c.now });
    for (const key of ['a', 'b', 'c']) await backend.compareAndSet(key, null, 'v', 1000);
    c.t += 500;
    await backend.compareAndSet('d', null, 'v', 1000);
    expect(backend.size()).toBe(4);
    c.t += 600;
    await backend.compareAndSet('e', null, 'v', 1000);
    expect(backend.size()).toBe(2);
    expect(await backend.get('d')).toBe('v');
  });

  it('keeps a value rewritten later past the older ones that expire', async () => {
    const c = clock();
    const backend = createMemoryBackend({ now: c.now });
    await backend.compareAndSet('a', null, 'v', 1000);
    await backend.compareAndSet('b', null, 'v', 1000);
    c.t += 900;
    await backend.compareAndSet('a', 'v', 'w', 1000);
    c.t += 200;
    await backend.compareAndSet('c', null, 'v', 1000);
    expect(backend.size()).toBe(2);
    expect(await backend.get('a')).toBe('w');
  });
});

describe('createSharedSessionStore: TTL', () => {
  it("renews a session's lifetime on every write, and starts it over once it was idle past it", async () => {
    const c = clock();
    const store = patient(createMemoryBackend({ now: c.now }), { ttlMs: 1000 });
    await store.record(emission, 'conn-1');
    c.t += 900;
    await store.record(emission, 'conn-1');
    c.t += 900;
    expect((await store.project('/repo', 'conn-1')).callCount).toBe(2);
    c.t += 100;
    expect((await store.view('conn-1')).projects).toEqual([]);
    expect((await store.record(emission, 'conn-1'))!.index).toBe(1);
  });

  it('does not renew a session on a read', async () => {
    const c = clock();
    const store = patient(createMemoryBackend({ now: c.now }), { ttlMs: 1000 });
    await store.record(emission, 'conn-1');
    c.t += 900;
    await store.view('conn-1');
    c.t += 100;
    expect((await store.view('conn-1')).projects).toEqual([]);
  });
});
