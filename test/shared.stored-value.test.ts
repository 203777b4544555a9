/**
 * What the shared store reads back from its backend is foreign text: a value
 * that is not a bucket ledger (hand-edited, truncated, another program's,
 * naming a session) reads as an empty ledger — the call renders in full —
 * and the next write replaces it. A sound value reads back as it was written.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type Emission,
  type MemoryBackend,
} from '../src/index.js';

const KEY = createHash('sha256').update('conn-1', 'utf8').digest('hex');

function emission(path = 'a.ts', start = 1): Emission {
  return {
    projectRoot: '/repo',
    query: 'q',
    files: [{ path, ranges: [{ start, end: start + 9 }], chars: 300, fingerprint: 'fp' }],
    sourceChars: 300,
    responseChars: 500,
  };
}

/** A value the store itself wrote: two calls of conn-1. */
async function soundValue(): Promise<string> {
  const backend = createMemoryBackend();
  const store = createSharedSessionStore(backend);
  await store.record(emission('a.ts'), 'conn-1');
  await store.record(emission('b.ts', 20), 'conn-1');
  return (await backend.get(KEY))!;
}

/** A stored value as JSON.parse gives it, typed loosely enough to be edited into junk. */
interface Stored {
  version: unknown;
  entries: { session: unknown; key?: unknown; project: StoredProject }[];
  evicted?: unknown;
}
interface StoredProject {
  projectRoot: unknown;
  callCount: unknown;
  responseChars: unknown;
  calls: { index?: unknown; projectRoot?: unknown }[];
}

/** `value` edited: parsed, changed by `edit`, written back. */
function edited(value: string, edit: (v: Stored) => void): string {
  const v = JSON.parse(value);
  edit(v);
  return JSON.stringify(v);
}

async function seeded(value: string): Promise<MemoryBackend> {
  const backend = createMemoryBackend();
  await backend.compareAndSet(KEY, null, value, 60_000);
  return backend;
}

describe('createSharedSessionStore: values that are not a ledger', () => {
  it('reads a sound value back as it was written', async () => {
    const backend = await seeded(await soundValue());
    const project = await createSharedSessionStore(backend).project('/repo', 'conn-1');
    expect(project.callCount).toBe(2);
    expect(project.calls.map((c) => [c.index, c.files[0]!.path, c.files[0]!.ranges])).toEqual([
      [1, 'a.ts', [{ start: 1, end: 10 }]],
      [2, 'b.ts', [{ start: 20, end: 29 }]],
    ]);
  });

  it('stores no session id in the value: every entry is of the bucket itself', async () => {
    const value = JSON.parse(await soundValue());
    expect(value.entries.map((e: { session: unknown }) => e.session)).toEqual([null]);
  });

  const junk: [string, (sound: string) => string][] = [
    ['text that is not JSON', () => 'hello'],
    ['an empty string', () => ''],
    ['a truncated value', (s) => s.slice(0, Math.floor(s.length / 2))],
    ['JSON that is not an object', () => '[1,2,3]'],
    ['JSON null', () => 'null'],
    [
      'another version',
      (s) =>
        edited(s, (v) => {
          v.version = 2;
        }),
    ],
    [
      'entries that are not a list',
      (s) =>
        edited(s, (v) => {
          v.entries = {} as never;
        }),
    ],
    [
      'an entry that is not an object',
      (s) =>
        edited(s, (v) => {
          v.entries.push(7 as never);
        }),
    ],
    [
      'an entry naming a session',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.session = 'conn-1';
        }),
    ],
    [
      'an entry without a key',
      (s) =>
        edited(s, (v) => {
          delete v.entries[0]!.key;
        }),
    ],
    [
      'one key twice',
      (s) =>
        edited(s, (v) => {
          v.entries.push(v.entries[0]!);
        }),
    ],
    [
      'a project that is not an object',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project = 'p' as never;
        }),
    ],
    [
      'an empty project root',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.projectRoot = '';
        }),
    ],
    [
      'a project root that is not a string',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.projectRoot = 5;
        }),
    ],
    [
      'a project root too long to be one',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.projectRoot = `/${'r'.repeat(5000)}`;
        }),
    ],
    [
      'a negative call count',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.callCount = -1;
        }),
    ],
    [
      'a fractional call count',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.callCount = 2.5;
        }),
    ],
    [
      'response chars that are not a number',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.responseChars = '9';
        }),
    ],
    [
      'negative response chars',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.responseChars = -9;
        }),
    ],
    [
      'calls that are not a list',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.calls = null as never;
        }),
    ],
    [
      'a call without an index',
      (s) =>
        edited(s, (v) => {
          delete v.entries[0]!.project.calls[0]!.index;
        }),
    ],
    [
      'a call without a project root',
      (s) =>
        edited(s, (v) => {
          delete v.entries[0]!.project.calls[0]!.projectRoot;
        }),
    ],
    [
      'calls out of order',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.calls.reverse();
        }),
    ],
    [
      'one index twice',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.calls[1]!.index = 1;
        }),
    ],
    [
      'an index past the call count',
      (s) =>
        edited(s, (v) => {
          v.entries[0]!.project.callCount = 1;
        }),
    ],
    [
      'counters that are not a list',
      (s) =>
        edited(s, (v) => {
          v.evicted = 'none';
        }),
    ],
    [
      'a counter naming a session',
      (s) =>
        edited(s, (v) => {
          v.evicted = [{ session: 'x', key: '/a', callCount: 1, responseChars: 0 }];
        }),
    ],
    [
      'a counter that is not an object',
      (s) =>
        edited(s, (v) => {
          v.evicted = [null];
        }),
    ],
    [
      'a counter without a key',
      (s) =>
        edited(s, (v) => {
          v.evicted = [{ session: null, callCount: 1, responseChars: 0 }];
        }),
    ],
    [
      'a counter with a bad count',
      (s) =>
        edited(s, (v) => {
          v.evicted = [{ session: null, key: '/a', callCount: -1, responseChars: 0 }];
        }),
    ],
    [
      'a counter with bad chars',
      (s) =>
        edited(s, (v) => {
          v.evicted = [{ session: null, key: '/a', callCount: 1, responseChars: null }];
        }),
    ],
    [
      'a value past 16 MB',
      () => `{"version":1,"entries":[],"pad":"${'x'.repeat(16 * 1024 * 1024)}"}`,
    ],
  ];

  for (const [what, make] of junk) {
    it(`reads ${what} as an empty ledger, and replaces it on the next write`, async () => {
      const backend = await seeded(make(await soundValue()));
      const store = createSharedSessionStore(backend);
      expect(await store.view('conn-1')).toEqual({ version: 1, projects: [] });
      expect((await store.record(emission(), 'conn-1'))!.index).toBe(1);
      const replaced = JSON.parse((await backend.get(KEY))!);
      expect(replaced.entries[0].project.callCount).toBe(1);
    });
  }

  it('reads a value without kept counters (an older ledger) as one with none', async () => {
    const backend = await seeded(
      edited(await soundValue(), (v) => {
        delete v.evicted;
      }),
    );
    expect((await createSharedSessionStore(backend).project('/repo', 'conn-1')).callCount).toBe(2);
  });

  it('keeps kept counters, so an evicted project that returns goes on counting', async () => {
    const value = edited(await soundValue(), (v) => {
      v.evicted = [{ session: null, key: '/gone', callCount: 7, responseChars: 70 }];
    });
    const store = createSharedSessionStore(await seeded(value));
    const back = { ...emission(), projectRoot: '/gone' };
    expect((await store.record(back, 'conn-1'))!.index).toBe(8);
  });

  it("bounds a value written under larger limits by this store's limits", async () => {
    const backend = createMemoryBackend();
    const wide = createSharedSessionStore(backend, {
      limits: { maxProjects: 4, maxCallsRetained: 8 },
    });
    for (const root of ['/a', '/b', '/c']) {
      for (let i = 0; i < 3; i++) await wide.record({ ...emission(), projectRoot: root }, 'conn-1');
    }
    const narrow = createSharedSessionStore(backend, {
      limits: { maxProjects: 2, maxCallsRetained: 2 },
    });
    const view = await narrow.view('conn-1');
    expect(
      view.projects.map((p) => [p.projectRoot, p.callCount, p.calls.map((c) => c.index)]),
    ).toEqual([
      ['/b', 3, [2, 3]],
      ['/c', 3, [2, 3]],
    ]);
  });
});
