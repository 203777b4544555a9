/**
 * The function-level API a host that keeps its own render loop embeds: the
 * retained record of a bucket, clearing a store, which responses served a
 * file's lines (proved by fingerprint), the pointer in the host's wording,
 * an opt-in switch, symbols by overlap, and mutable copies of frozen results.
 */
import { describe, expect, it } from 'vitest';
import {
  createSessionStore,
  dedupEnabledFromEnv,
  fingerprint,
  formatPointer,
  type ProjectState,
  servedBy,
  symbolsInSpans,
} from '../src/index.js';
import { createMemoryBackend, type SharedStoreBackend } from '../src/shared/index.js';
import { emission, fileEmission, plain, ranges } from './_build.js';
import { patient } from './_shared-store.js';

const content = 'let x = 1;\n'.repeat(200);
const fp = fingerprint(content);

/** A store whose calls sent `a.ts` at these spans, each its own response. */
function served(...spans: string[]) {
  const store = createSessionStore();
  for (const s of spans) store.record(emission({ files: [fileEmission('a.ts', s, 10, fp)] }));
  return store;
}

describe('store.entry: the retained record of a bucket', () => {
  it('holds every retained call where project() holds the view window', () => {
    const store = createSessionStore({ maxViewCalls: 2, maxCallsRetained: 6 });
    for (let i = 0; i < 5; i++) store.record(emission());
    expect(store.project('/repo')!.calls.map((c) => c.index)).toEqual([4, 5]);
    expect(store.entry('/repo')!.calls.map((c) => c.index)).toEqual([1, 2, 3, 4, 5]);
    expect(store.entry('/repo/')!.callCount).toBe(5);
  });

  it('is null for a project the session never asked about, another session, and a junk root', () => {
    const store = createSessionStore();
    store.record(emission(), 'a');
    expect(store.entry('/elsewhere', 'a')).toBeNull();
    expect(store.entry('/repo', 'b')).toBeNull();
    expect(store.entry('/repo')).toBeNull();
    for (const junk of [undefined, null, 7, {}, ['/repo']]) {
      expect(store.entry(junk as never, 'a')).toBeNull();
    }
    store.forget('a');
    expect(store.entry('/repo', 'a')).toBeNull();
  });

  it('is frozen, and structuredClone gives a mutable copy that still plans as the same prior', () => {
    const store = served('1-40');
    const entry = store.entry('/repo')!;
    expect(Object.isFrozen(entry.calls[0]!.files[0]!.ranges[0])).toBe(true);
    const copy = structuredClone(entry) as { -readonly [K in keyof ProjectState]: ProjectState[K] };
    copy.responseChars = 0;
    expect(copy.responseChars).toBe(0);
    const query = { path: 'a.ts', fingerprint: fp, ranges: ranges('1-60') };
    expect(servedBy(copy, query)).toEqual(servedBy(entry, query));
  });
});

describe('store.clear', () => {
  it('drops every bucket, and numbering starts again under a fresh tag', () => {
    const store = createSessionStore();
    const first = store.reserve('/repo', 'a')!;
    store.record(emission(), 'b');
    store.clear();
    expect(store.entry('/repo', 'a')).toBeNull();
    expect(store.entry('/repo', 'b')).toBeNull();
    expect(store.ledger().entries).toEqual([]);
    const again = store.reserve('/repo', 'a')!;
    expect(again.callIndex).toBe(1);
    expect(again.generation).not.toBe(first.generation);
  });
});

describe('the shared store: entry and clear', () => {
  it('entry is the retained record, null for a project never asked about', async () => {
    const store = patient(createMemoryBackend(), { limits: { maxViewCalls: 1 } });
    await store.record(emission(), 's');
    await store.record(emission(), 's');
    expect((await store.project('/repo', 's')).calls).toHaveLength(1);
    expect((await store.entry('/repo', 's'))!.calls.map((c) => c.index)).toEqual([1, 2]);
    expect(await store.entry('/elsewhere', 's')).toBeNull();
    expect(await store.entry(42 as never, 's')).toBeNull();
  });

  it('entry is null when the backend fails: nothing known, nothing withheld', async () => {
    const broken: SharedStoreBackend = {
      get: () => Promise.reject(new Error('down')),
      compareAndSet: () => Promise.reject(new Error('down')),
    };
    expect(await patient(broken).entry('/repo')).toBeNull();
  });

  it('clear empties a backend that can be cleared, and says false for one that cannot', async () => {
    const backend = createMemoryBackend();
    const store = patient(backend);
    await store.record(emission(), 's');
    expect(await store.clear()).toBe(true);
    expect(backend.size()).toBe(0);
    expect(await store.entry('/repo', 's')).toBeNull();
    const noClear: SharedStoreBackend = { get: backend.get, compareAndSet: backend.compareAndSet };
    expect(await patient(noClear).clear()).toBe(false);
    const failing = { ...noClear, clear: () => Promise.reject(new Error('down')) };
    expect(await patient(failing).clear()).toBe(false);
  });
});

describe('servedBy: which lines the context holds, proved by fingerprint', () => {
  it('answers the held lines and the responses that served them, most recent first', () => {
    const store = served('1-40', '30-80', '150-160');
    const got = servedBy(store.entry('/repo'), {
      path: 'a.ts',
      fingerprint: fp,
      ranges: ranges('20-100, 155'),
    });
    expect(plain(got.covered)).toEqual(ranges('20-80, 155'));
    expect(got.coveredBy).toEqual([3, 2, 1]);
    expect(Object.isFrozen(got.covered)).toBe(true);
  });

  it('proves nothing for a changed file, a record without fingerprint, or a path never sent', () => {
    const store = served('1-40');
    store.record(emission({ files: [fileEmission('b.ts', '1-40', 10)] }));
    const prior = store.entry('/repo');
    const none = { covered: [], coveredBy: [] };
    expect(servedBy(prior, { path: 'a.ts', fingerprint: 'other', ranges: ranges('1-9') })).toEqual(
      none,
    );
    expect(servedBy(prior, { path: 'b.ts', fingerprint: fp, ranges: ranges('1-9') })).toEqual(none);
    expect(servedBy(prior, { path: 'c.ts', fingerprint: fp, ranges: ranges('1-9') })).toEqual(none);
    expect(servedBy(prior, { path: 'a.ts', fingerprint: fp, ranges: ranges('50-60') })).toEqual(
      none,
    );
  });

  it('ignores a record of another project, junk priors, paths and ranges', () => {
    const prior = served('1-40').entry('/repo');
    const none = { covered: [], coveredBy: [] };
    const good = { path: 'a.ts', fingerprint: fp, ranges: ranges('1-9') };
    expect(servedBy(prior, { ...good, projectRoot: '/other' })).toEqual(none);
    expect(servedBy(prior, { ...good, projectRoot: 7 as never })).toEqual(none);
    expect(servedBy({ ...prior!, projectRoot: '' }, { ...good, projectRoot: '/repo' })).toEqual(
      none,
    );
    expect(servedBy(prior, { ...good, projectRoot: '/repo/' }).coveredBy).toEqual([1]);
    for (const junk of [null, undefined, 'x', 7, [], { calls: 'x' }]) {
      expect(servedBy(junk as never, good)).toEqual(none);
    }
    for (const path of ['', '../a.ts', 'a\u0000.ts', 7, null]) {
      expect(servedBy(prior, { ...good, path } as never)).toEqual(none);
    }
    for (const r of [null, 'x', [{ start: 9, end: 1 }], [{ start: 0, end: 3 }]]) {
      expect(servedBy(prior, { ...good, ranges: r } as never)).toEqual(none);
    }
    expect(servedBy(prior, null as never)).toEqual(none);
  });

  it('cites no response a prune took back', () => {
    const store = served('1-40', '1-40');
    store.prune({ calls: [2] });
    const got = servedBy(store.entry('/repo'), {
      path: 'a.ts',
      fingerprint: fp,
      ranges: ranges('1-9'),
    });
    expect(got.coveredBy).toEqual([1]);
  });
});

describe("formatPointer in the host's words", () => {
  const input = { path: 'src/a.ts', covered: ranges('10-80'), calls: [5, 3], refresh: true };

  it('fills the templates, and keeps the default for parts missing or not strings', () => {
    const text = formatPointer(input, {
      sent: 'Already shown in {responses} ({numbers}): {what}.',
      unchanged: null as never,
      refresh: 'Lost {numbers}? Pass refresh: {refresh}. {unknown} stays.',
    });
    expect(text).toBe(
      'Already shown in responses #5 and #3 (#5 and #3): `src/a.ts` L10-80. The file is unchanged since.' +
        ' Lost #5 and #3? Pass refresh: [5, 3]. {unknown} stays.',
    );
  });

  it('reads the default wording for junk words', () => {
    const plainText = formatPointer(input);
    for (const junk of [null, 7, 'words', [], { sent: 7, partial: {} }]) {
      expect(formatPointer(input, junk as never)).toBe(plainText);
    }
  });

  it('uses every template: without numbers, partial, compact', () => {
    const words = {
      sentEarlier: 'Earlier: {path} {spans} [{symbols}].',
      partial: 'New lines follow.',
      compact: '{what} in {numbers}.',
      compactEarlier: '{what} earlier.',
    };
    expect(
      formatPointer({ path: 'a.ts', covered: ranges('1-9'), symbols: ['f'], partial: true }, words),
    ).toBe('Earlier: a.ts L1-9 [f]. New lines follow.');
    expect(
      formatPointer({ path: 'a.ts', covered: ranges('1-9'), compact: true, calls: [2] }, words),
    ).toBe('`a.ts` L1-9 in #2.');
    expect(formatPointer({ path: 'a.ts', covered: ranges('1-9'), compact: true }, words)).toBe(
      '`a.ts` L1-9 earlier.',
    );
  });

  it('hands a function the parts frozen, and falls back when it throws or returns no string', () => {
    const plainText = formatPointer(input);
    let seen: unknown;
    expect(
      formatPointer(input, (p) => {
        seen = p;
        return `${p.path} ${p.calls?.join('+')}`;
      }),
    ).toBe('src/a.ts 5+3');
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen((seen as { covered: object[] }).covered[0])).toBe(true);
    expect(
      formatPointer(input, () => {
        throw new Error('host bug');
      }),
    ).toBe(plainText);
    expect(formatPointer(input, (() => 7) as never)).toBe(plainText);
  });
});

describe('dedupEnabledFromEnv with an opt-in default', () => {
  const optIn = { name: 'CG_DEDUP', default: false };
  it.each([
    ['1', true],
    [' TRUE ', true],
    ['on', true],
    ['yes', true],
    ['0', false],
    ['', false],
    ['enabled', false],
    [undefined, false],
    [1, false],
    [true, false],
    [{}, false],
  ])('opt-in %j → %s', (value, on) => {
    expect(dedupEnabledFromEnv({ CG_DEDUP: value } as never, optIn)).toBe(on);
  });

  it('keeps on-by-default semantics, and reads junk options as the defaults', () => {
    expect(dedupEnabledFromEnv({ CG_DEDUP: 'whatever' }, { name: 'CG_DEDUP' })).toBe(true);
    expect(dedupEnabledFromEnv({ CG_DEDUP: 'no' }, { name: 'CG_DEDUP', default: true })).toBe(
      false,
    );
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: 'off' }, { name: 7 } as never)).toBe(false);
    expect(dedupEnabledFromEnv({}, { default: 'no' } as never)).toBe(true);
    expect(dedupEnabledFromEnv({}, null as never)).toBe(true);
  });
});

describe('symbolsInSpans by overlap', () => {
  const nodes = [
    { name: 'ZodType', kind: 'class' as const, start: 1, end: 400 },
    { name: 'parse', kind: 'method' as const, start: 120, end: 140 },
    { name: 'after', kind: 'function' as const, start: 401, end: 420 },
  ];
  it('names every symbol a span touches; declaration stays the default', () => {
    expect(symbolsInSpans(nodes, ranges('125-130'), { by: 'overlap' })).toEqual([
      'ZodType',
      'parse',
    ]);
    expect(symbolsInSpans(nodes, ranges('125-130'))).toEqual([]);
    expect(symbolsInSpans(nodes, ranges('125-130'), { by: 'junk' as never })).toEqual([]);
    expect(symbolsInSpans(nodes, ranges('400-401'), { by: 'overlap' })).toEqual([
      'ZodType',
      'after',
    ]);
  });
});
