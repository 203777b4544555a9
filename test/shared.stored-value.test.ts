/**
 * What the shared store reads back from its backend is foreign text: a value
 * that is not a ledger (hand-edited, truncated, another program's) reads as
 * an empty ledger — the call renders in full — and the next write replaces
 * it; malformed parts of a ledger are dropped, as the ledger's reader drops
 * them, and so is any part that names a session. A sound value reads back as
 * it was written.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Emission } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type MemoryBackend,
  type SharedSessionStoreOptions,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { emission as emissionWith, fileEmission, ranges, span } from './_build.js';

/** A store that waits on its backend as long as a loaded machine needs: time is not what these tests check. */
function patient(backend: SharedStoreBackend, options: SharedSessionStoreOptions = {}) {
  return createSharedSessionStore(backend, { timeoutMs: 60_000, ...options });
}

const KEY = createHash('sha256').update('conn-1', 'utf8').digest('hex');

function emission(path = 'a.ts', start = 1): Emission {
  return emissionWith({
    files: [fileEmission(path, [span(start, start + 9)], 300, 'fp')],
    sourceChars: 300,
    responseChars: 500,
  });
}

/** A value the store itself wrote: two calls of conn-1. */
async function soundValue(): Promise<string> {
  const backend = createMemoryBackend();
  const store = patient(backend);
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
    const project = await patient(backend).project('/repo', 'conn-1');
    expect(project.callCount).toBe(2);
    expect(project.calls.map((c) => [c.index, c.files[0]!.path, c.files[0]!.ranges])).toEqual([
      [1, 'a.ts', ranges('1-10')],
      [2, 'b.ts', ranges('20-29')],
    ]);
  });

  it('stores no session id in the value: every entry is of the bucket itself', async () => {
    const value = JSON.parse(await soundValue());
    expect(value.entries.map((e: { session: unknown }) => e.session)).toEqual([null]);
  });

  const notALedger: [string, (sound: string) => string][] = [
    ['text that is not JSON', () => 'hello'],
    ['an empty string', () => ''],
    ['a truncated value', (s) => s.slice(0, Math.floor(s.length / 2))],
    ['JSON that is not an object', () => '[1,2,3]'],
    ['JSON null', () => 'null'],
    ["another program's JSON", () => '{"user":"ann","cart":[1,2]}'],
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
      'a value past 16 MB',
      () => `{"version":1,"entries":[],"pad":"${'x'.repeat(16 * 1024 * 1024)}"}`,
    ],
  ];

  for (const [what, make] of notALedger) {
    it(`reads ${what} as an empty ledger, and replaces it on the next write`, async () => {
      const backend = await seeded(make(await soundValue()));
      const store = patient(backend);
      expect(await store.view('conn-1')).toEqual({ version: 1, projects: [] });
      expect((await store.record(emission(), 'conn-1'))!.index).toBe(1);
      const replaced = JSON.parse((await backend.get(KEY))!);
      expect(replaced.entries[0].project.callCount).toBe(1);
    });
  }

  /** Parts of a ledger that are malformed: dropped, the rest read as it was. */
  const badParts: [string, (v: Stored) => void, number[]][] = [
    [
      'an entry that is not an object',
      (v) => {
        v.entries.push(7 as never);
      },
      [1, 2],
    ],
    [
      'the same project twice',
      (v) => {
        v.entries.push(v.entries[0]!);
      },
      [1, 2],
    ],
    [
      'a project that is not an object',
      (v) => {
        v.entries[0]!.project = 'p' as never;
      },
      [],
    ],
    [
      'an empty project root',
      (v) => {
        v.entries[0]!.project.projectRoot = '';
      },
      [],
    ],
    [
      'a project root too long to be one',
      (v) => {
        v.entries[0]!.project.projectRoot = `/${'r'.repeat(5000)}`;
      },
      [],
    ],
    [
      'a call without an index',
      (v) => {
        delete v.entries[0]!.project.calls[0]!.index;
      },
      [2],
    ],
    [
      'a call without a project root',
      (v) => {
        delete v.entries[0]!.project.calls[1]!.projectRoot;
      },
      [1],
    ],
    [
      'calls that are not a list',
      (v) => {
        v.entries[0]!.project.calls = null as never;
      },
      [],
    ],
  ];

  for (const [what, edit, calls] of badParts) {
    it(`drops ${what} and reads the rest`, async () => {
      const backend = await seeded(edited(await soundValue(), edit));
      const view = await patient(backend).view('conn-1');
      expect(view.projects.flatMap((p) => p.calls.map((c) => c.index))).toEqual(calls);
    });
  }

  it('drops an entry naming a session, and does not carry it into the next write', async () => {
    const value = edited(await soundValue(), (v) => {
      v.entries[0]!.session = 'conn-1';
      v.evicted = [{ session: 'conn-1', key: '/a', callCount: 3, responseChars: 0 }];
    });
    const backend = await seeded(value);
    const store = patient(backend);
    expect((await store.view('conn-1')).projects).toEqual([]);
    expect((await store.record(emission(), 'conn-1'))!.index).toBe(1);
    const written = (await backend.get(KEY))!;
    expect(written).not.toContain('conn-1');
  });

  it('drops kept counters that are malformed or name a session', async () => {
    const value = edited(await soundValue(), (v) => {
      v.evicted = [
        null,
        { session: 'x', key: '/gone', callCount: 50, responseChars: 0 },
        { session: null, key: '/gone', callCount: -1, responseChars: 0 },
        { session: null, callCount: 40, responseChars: 0 },
      ];
    });
    const store = patient(await seeded(value));
    const back = { ...emission(), projectRoot: '/gone' };
    expect((await store.record(back, 'conn-1'))!.index).toBe(1);
  });

  it("holds a value that names larger limits to this store's limits", async () => {
    const value = edited(await soundValue(), (v) => {
      (v as unknown as { limits: unknown }).limits = { maxCallsRetained: 1000, maxViewCalls: 1000 };
    });
    const store = patient(await seeded(value), { limits: { maxViewCalls: 1 } });
    expect((await store.view('conn-1')).projects[0]!.calls.map((c) => c.index)).toEqual([2]);
  });

  it('reads a value without kept counters (an older ledger) as one with none', async () => {
    const backend = await seeded(
      edited(await soundValue(), (v) => {
        delete v.evicted;
      }),
    );
    expect((await patient(backend).project('/repo', 'conn-1')).callCount).toBe(2);
  });

  it('keeps kept counters, so an evicted project that returns goes on counting', async () => {
    const value = edited(await soundValue(), (v) => {
      v.evicted = [{ session: null, key: '/gone', callCount: 7, responseChars: 70 }];
    });
    const store = patient(await seeded(value));
    const back = { ...emission(), projectRoot: '/gone' };
    expect((await store.record(back, 'conn-1'))!.index).toBe(8);
  });

  it("bounds a value written under larger limits by this store's limits", async () => {
    const backend = createMemoryBackend();
    const wide = patient(backend, {
      limits: { maxProjects: 4, maxCallsRetained: 8 },
    });
    for (const root of ['/a', '/b', '/c']) {
      for (let i = 0; i < 3; i++) await wide.record({ ...emission(), projectRoot: root }, 'conn-1');
    }
    const narrow = patient(backend, {
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
