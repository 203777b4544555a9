/**
 * The shared store when its backend fails: a backend that rejects, throws,
 * hangs or answers nonsense never fails a tool call. Recording degrades to
 * nothing recorded (the next call re-sends), reading to an empty view (the
 * call renders in full); once the backend answers again, so does the store.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { Emission } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { emission as emissionWith, fileEmission } from './_build.js';

const emission: Emission = emissionWith({
  files: [fileEmission('a.ts', '1-10', 300, 'fp')],
  sourceChars: 300,
  responseChars: 500,
});

const EMPTY = { version: 1, projects: [] };

/** The in-memory backend behind a switch: while `fault` is set, each call does that instead. */
function switchable() {
  const inner = createMemoryBackend();
  const state: { fault: null | 'reject' | 'throw' | 'hang' | 'junk' } = { fault: null };
  function faulty<T>(real: () => Promise<T>): Promise<T> {
    switch (state.fault) {
      case 'reject':
        return Promise.reject(new Error('connection refused'));
      case 'throw':
        throw new Error('client closed');
      case 'hang':
        return new Promise<T>(() => {});
      case 'junk':
        return Promise.resolve(42 as T);
      default:
        return real();
    }
  }
  const backend: SharedStoreBackend = {
    get: (key) => faulty(() => inner.get(key)),
    compareAndSet: (key, expected, next, ttlMs) =>
      faulty(() => inner.compareAndSet(key, expected, next, ttlMs)),
  };
  return { backend, state };
}

describe('createSharedSessionStore: a failing backend never fails a call', () => {
  for (const fault of ['reject', 'throw', 'hang', 'junk'] as const) {
    it(`degrades to nothing recorded and an empty view while the backend ${fault === 'junk' ? 'answers nonsense' : `${fault}s`}, and resumes after`, async () => {
      const { backend, state } = switchable();
      // Long enough for a loaded machine to answer in time, short enough to end a hang.
      const store = createSharedSessionStore(backend, {
        timeoutMs: fault === 'hang' ? 500 : 60_000,
      });
      expect((await store.record(emission, 'conn-1'))!.index).toBe(1);

      state.fault = fault;
      expect(await store.record(emission, 'conn-1')).toBeNull();
      expect(await store.view('conn-1')).toEqual(EMPTY);
      expect(await store.project('/repo', 'conn-1')).toEqual({
        projectRoot: '/repo',
        callCount: 0,
        responseChars: 0,
        calls: [],
      });
      await store.forget('conn-1');

      state.fault = null;
      expect((await store.record(emission, 'conn-1'))!.index).toBe(2);
      expect((await store.project('/repo', 'conn-1')).callCount).toBe(2);
    });
  }

  it('records nothing when only the compare-and-set fails', async () => {
    const inner = createMemoryBackend();
    const store = createSharedSessionStore(
      {
        get: (key) => inner.get(key),
        compareAndSet: () => Promise.reject(new Error('READONLY')),
      },
      { timeoutMs: 60_000 },
    );
    expect(await store.record(emission, 'conn-1')).toBeNull();
    expect(inner.size()).toBe(0);
  });

  it('never writes over a stored value that is not a string: the record stops at once', async () => {
    const inner = createMemoryBackend();
    let writes = 0;
    const store = createSharedSessionStore(
      {
        get: async () => 42 as unknown as string,
        compareAndSet: (key, expected, next, ttlMs) => {
          writes++;
          return inner.compareAndSet(key, expected, next, ttlMs);
        },
      },
      { timeoutMs: 60_000 },
    );
    expect(await store.record(emission, 'conn-1')).toBeNull();
    expect(writes).toBe(0);
    expect(inner.size()).toBe(0);
  });

  it('counts a compare-and-set that answers neither true nor false as a lost race', async () => {
    const inner = createMemoryBackend();
    let attempts = 0;
    const store = createSharedSessionStore(
      {
        get: (key) => inner.get(key),
        compareAndSet: async () => {
          attempts++;
          return 1 as unknown as boolean;
        },
      },
      { timeoutMs: 10_000 },
    );
    expect(await store.record(emission, 'conn-1')).toBeNull();
    expect(attempts).toBe(8);
  });

  it('makes no further backend call once an operation is past its deadline', async () => {
    const inner = createMemoryBackend();
    let gets = 0;
    const store = createSharedSessionStore(
      {
        get(key) {
          gets++;
          return inner.get(key);
        },
        compareAndSet() {
          // Answers, but only after holding the thread past the deadline.
          const until = Date.now() + 300;
          while (Date.now() < until);
          return Promise.resolve(false);
        },
      },
      { timeoutMs: 200 },
    );
    expect(await store.record(emission, 'conn-1')).toBeNull();
    expect(gets).toBe(1);
  });

  it('takes an answer that arrived while the process was busy past the deadline', async () => {
    const inner = createMemoryBackend();
    await createSharedSessionStore(inner).record(emission, 'conn-1');
    // The answer is on its way (a message, as a socket's reply would be) when
    // the thread is held past the deadline: both are due when the loop turns.
    const { port1, port2 } = new MessageChannel();
    const store = createSharedSessionStore(
      {
        get(key) {
          const answer = new Promise<string | null>((resolve) => port2.once('message', resolve));
          void inner.get(key).then((value) => port1.postMessage(value));
          const until = Date.now() + 300;
          while (Date.now() < until);
          return answer;
        },
        compareAndSet: () => Promise.resolve(false),
      },
      { timeoutMs: 200 },
    );
    try {
      const view = await store.view('conn-1');
      expect(view.projects.map((p) => p.calls.length)).toEqual([1]);
    } finally {
      port1.close();
    }
  });

  it('tells every write waiting behind a hung one that nothing was recorded', async () => {
    const { backend, state } = switchable();
    const store = createSharedSessionStore(backend, { timeoutMs: 500 });
    state.fault = 'hang';
    const records = await Promise.all([1, 2, 3].map(() => store.record(emission, 'conn-1')));
    expect(records).toEqual([null, null, null]);
    state.fault = null;
    expect((await store.record(emission, 'conn-1'))!.index).toBe(1);
  });

  it("keeps recording other sessions while one session's writes wait", async () => {
    const inner = createMemoryBackend();
    const hung = createSharedSessionStore(
      {
        get: (key) => inner.get(key),
        compareAndSet: (key, expected, next, ttlMs) =>
          key === 'default'
            ? new Promise(() => {})
            : inner.compareAndSet(key, expected, next, ttlMs),
      },
      { timeoutMs: 500 },
    );
    const [stuck, other] = await Promise.all([
      hung.record(emission),
      hung.record(emission, 'conn-2'),
    ]);
    expect(stuck).toBeNull();
    expect(other!.index).toBe(1);
  });
});
