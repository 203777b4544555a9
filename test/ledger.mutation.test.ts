/**
 * The ledger's and the carriers' rules pinned at their edges: every bound one
 * below, at and one above its limit, the string caps at their exact lengths,
 * counts that are zero, negative zero or not numbers, the order eviction
 * follows, what a copy keeps of a property, and session ids at 128 and 129
 * chars. Expected values are written out by hand, never computed by the code
 * under test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listOf, prop } from '../src/boundary/_read.js';
import {
  attachEmission,
  createLedger,
  createSessionStore,
  EMISSION_KEY,
  type Emission,
  type FileEmission,
  type Ledger,
  ledgerReducer,
  normalizeSessionId,
  projectFromView,
  projectKey,
  readSessionView,
  recordSafely,
  servedRangesForFile,
  sessionView,
  takeEmission,
  VIEW_KEY,
  withSessionView,
} from '../src/index.js';
import { DEFAULT_LIMITS, readLimits } from '../src/ledger/limits.js';
import { sha256OfUtf8 } from '../src/ledger/session-id.js';
import { copyWithout } from '../src/wire/_copy.js';

function emission(over: Partial<Emission> = {}): Emission {
  return {
    projectRoot: '/repo',
    query: 'q',
    files: [{ path: 'a.ts', ranges: [{ start: 1, end: 10 }], chars: 100, fingerprint: 'fp' }],
    sourceChars: 100,
    responseChars: 200,
    ...over,
  };
}

function record(ledger: Ledger, e: unknown = emission(), sessionId?: unknown): Ledger {
  return ledgerReducer(ledger, {
    type: 'recorded',
    emission: e as Emission,
    sessionId: sessionId as string,
  });
}

/** The files of the single call recorded from `e` under `limits`. */
function filesOf(e: unknown, limits: Parameters<typeof createLedger>[0] = {}): FileEmission[] {
  const view = sessionView(record(createLedger(limits), e));
  return [...(view.projects[0]?.calls[0]?.files ?? [])];
}

/** `n` files named f0…f(n-1), each with `chars` = its number + 1. */
function numberedFiles(n: number): FileEmission[] {
  return Array.from({ length: n }, (_, i) => ({ path: `f${i}`, ranges: [], chars: i + 1 }));
}

/** A view carried in args, ready for `readSessionView`. */
const wrap = (view: unknown) => ({ [VIEW_KEY]: view });

function rawProject(root: string, calls: unknown[] = [], callCount: unknown = calls.length) {
  return { projectRoot: root, callCount, responseChars: 0, calls };
}

function rawCall(index: number, files: unknown[] = []) {
  return { index, projectRoot: '/repo', query: '', files, sourceChars: 0, responseChars: 0 };
}

describe('maxProjects at its edge', () => {
  const roots = ['/p1', '/p2', '/p3', '/p4', '/p5'];

  it('keeps exactly maxProjects entries, evicting the oldest first', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of roots.slice(0, 3)) ledger = record(ledger, emission({ projectRoot: root }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p1', '/p2', '/p3']);
    ledger = record(ledger, emission({ projectRoot: '/p4' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p2', '/p3', '/p4']);
    ledger = record(ledger, emission({ projectRoot: '/p5' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p3', '/p4', '/p5']);
  });

  it('a recorded-into entry moves to the back without evicting anything', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of roots.slice(0, 3)) ledger = record(ledger, emission({ projectRoot: root }));
    ledger = record(ledger, emission({ projectRoot: '/p1/' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p2', '/p3', '/p1']);
    expect(ledger.entries.map((e) => e.project.projectRoot)).toEqual(['/p2', '/p3', '/p1/']);
    expect(ledger.entries.map((e) => e.project.callCount)).toEqual([1, 1, 2]);
    ledger = record(ledger, emission({ projectRoot: '/p4' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/p3', '/p1', '/p4']);
  });

  it('maxProjects 1 keeps only the newest; 0 keeps nothing but still answers a new ledger', () => {
    let one = record(createLedger({ maxProjects: 1 }), emission({ projectRoot: '/a' }));
    one = record(one, emission({ projectRoot: '/b' }));
    expect(one.entries.map((e) => e.key)).toEqual(['/b']);
    const zero = createLedger({ maxProjects: 0 });
    const after = record(zero, emission());
    expect(after.entries).toEqual([]);
    expect(sessionView(after)).toEqual({ version: 1, projects: [] });
  });

  it('an entry evicted and recorded again comes back with only its new record', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'first' }));
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'second' }));
    ledger = record(ledger, emission({ projectRoot: '/b' }));
    ledger = record(ledger, emission({ projectRoot: '/a', query: 'back' }));
    expect(ledger.entries.map((e) => e.key)).toEqual(['/a']);
    expect(sessionView(ledger).projects[0]!.calls.map((c) => c.query)).toEqual(['back']);
  });
});

describe('maxCallsRetained at its edge', () => {
  function indexes(maxCallsRetained: number, calls: number): number[] {
    let ledger = createLedger({ maxCallsRetained, maxViewCalls: 100 });
    for (let i = 0; i < calls; i++) ledger = record(ledger);
    return ledger.entries[0]!.project.calls.map((c) => c.index);
  }

  it.each([
    [3, 2, [1, 2]],
    [3, 3, [1, 2, 3]],
    [3, 4, [2, 3, 4]],
    [3, 6, [4, 5, 6]],
    [1, 1, [1]],
    [1, 3, [3]],
    [0, 2, []],
  ])('keep %i of %i calls → indexes %j', (keep, calls, want) => {
    expect(indexes(keep, calls)).toEqual(want);
  });

  it('counts every call and every response char, whatever the window', () => {
    let ledger = createLedger({ maxCallsRetained: 0 });
    ledger = record(ledger, emission({ responseChars: 30 }));
    ledger = record(ledger, emission({ responseChars: 12 }));
    expect(ledger.entries[0]!.project).toEqual({
      projectRoot: '/repo',
      callCount: 2,
      responseChars: 42,
      calls: [],
    });
  });
});

describe('maxViewCalls at its edge', () => {
  function viewIndexes(maxViewCalls: number, calls: number): number[] {
    let ledger = createLedger({ maxViewCalls });
    for (let i = 0; i < calls; i++) ledger = record(ledger);
    return sessionView(ledger).projects[0]!.calls.map((c) => c.index);
  }

  it.each([
    [2, 1, [1]],
    [2, 2, [1, 2]],
    [2, 3, [2, 3]],
    [1, 3, [3]],
    [0, 2, []],
  ])('view %i of %i calls → indexes %j', (keep, calls, want) => {
    expect(viewIndexes(keep, calls)).toEqual(want);
  });

  it('hands out the stored project itself when it fits the window', () => {
    let ledger = createLedger({ maxViewCalls: 2 });
    ledger = record(ledger);
    ledger = record(ledger);
    expect(sessionView(ledger).projects[0]).toBe(ledger.entries[0]!.project);
    ledger = record(ledger);
    const trimmed = sessionView(ledger).projects[0]!;
    expect(trimmed).not.toBe(ledger.entries[0]!.project);
    expect(Object.isFrozen(trimmed)).toBe(true);
    expect(Object.isFrozen(trimmed.calls)).toBe(true);
    expect(trimmed.callCount).toBe(3);
  });

  it('shows a session its projects least recently used first', () => {
    let ledger = record(createLedger(), emission({ projectRoot: '/a' }), 's');
    ledger = record(ledger, emission({ projectRoot: '/b' }), 's');
    ledger = record(ledger, emission({ projectRoot: '/x' }), 'other');
    ledger = record(ledger, emission({ projectRoot: '/a' }), 's');
    expect(sessionView(ledger, 's').projects.map((p) => p.projectRoot)).toEqual(['/b', '/a']);
    expect(sessionView(ledger, '  s  ').projects.map((p) => p.projectRoot)).toEqual(['/b', '/a']);
  });

  it('reads past an unreadable entry instead of dropping the rest of the view', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ledger = { ...createLedger(), entries: [null, good] } as unknown as Ledger;
    expect(sessionView(ledger).projects).toEqual([good.project]);
  });

  it('uses the default window when the ledger carries unusable limits', () => {
    let ledger = createLedger();
    for (let i = 0; i < 6; i++) ledger = record(ledger);
    const junk = { ...ledger, limits: { maxViewCalls: -1 } } as unknown as Ledger;
    expect(sessionView(junk).projects[0]!.calls.map((c) => c.index)).toEqual([3, 4, 5, 6]);
  });
});

describe('the ledger and its records are frozen', () => {
  it('freezes the ledger, its entries, projects and records', () => {
    const ledger = record(createLedger(), emission());
    const entry = ledger.entries[0]!;
    for (const value of [
      ledger,
      ledger.limits,
      ledger.entries,
      entry,
      entry.project,
      entry.project.calls,
      entry.project.calls[0],
      entry.project.calls[0]!.files,
      entry.project.calls[0]!.files[0],
    ]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(Object.isFrozen(createLedger())).toBe(true);
    expect(Object.isFrozen(createLedger().entries)).toBe(true);
    expect(Object.isFrozen(createLedger({ maxProjects: 2 }).limits)).toBe(true);
  });

  it('freezes what forgotten, cleared and an empty window return', () => {
    let ledger = record(createLedger(), emission(), 'a');
    ledger = record(ledger, emission(), 'b');
    const forgot = ledgerReducer(ledger, { type: 'forgotten', sessionId: 'a' });
    expect(Object.isFrozen(forgot)).toBe(true);
    expect(Object.isFrozen(forgot.entries)).toBe(true);
    const cleared = ledgerReducer(ledger, { type: 'cleared' });
    expect(Object.isFrozen(cleared)).toBe(true);
    expect(Object.isFrozen(cleared.entries)).toBe(true);
    const none = record(createLedger({ maxCallsRetained: 0 }), emission());
    expect(Object.isFrozen(none.entries[0]!.project.calls)).toBe(true);
    expect(Object.isFrozen(sessionView(ledger))).toBe(true);
  });

  it('cleared of an empty ledger returns the same ledger', () => {
    const empty = createLedger();
    expect(ledgerReducer(empty, { type: 'cleared' })).toBe(empty);
  });

  it('forgotten keeps the other sessions’ entries in their order', () => {
    let ledger = record(createLedger(), emission({ projectRoot: '/1' }), 'a');
    ledger = record(ledger, emission({ projectRoot: '/2' }), 'b');
    ledger = record(ledger, emission({ projectRoot: '/3' }), 'a');
    ledger = record(ledger, emission({ projectRoot: '/4' }), 'c');
    const forgot = ledgerReducer(ledger, { type: 'forgotten', sessionId: 'a' });
    expect(forgot.entries.map((e) => [e.session, e.key])).toEqual([
      ['b', '/2'],
      ['c', '/4'],
    ]);
    expect(forgot.entries[0]).toBe(ledger.entries[1]);
  });
});

describe('sanitizing counts', () => {
  it.each([
    ['zero', 0, 0],
    ['negative zero', -0, 0],
    ['negative', -5, 0],
    ['NaN', Number.NaN, 0],
    ['+Infinity', Number.POSITIVE_INFINITY, 0],
    ['-Infinity', Number.NEGATIVE_INFINITY, 0],
    ['a numeric string', '12', 0],
    ['a bigint', 12n, 0],
    ['null', null, 0],
    ['a fraction', 0.5, 0.5],
    ['a positive count', 12, 12],
  ])('%s → %d', (_name, raw, want) => {
    const call = sessionView(
      record(
        createLedger(),
        emission({
          sourceChars: raw as number,
          responseChars: raw as number,
          files: [{ path: 'a.ts', ranges: [], chars: raw as number }],
        }),
      ),
    ).projects[0]!;
    expect(call.responseChars).toBe(want);
    expect(call.calls[0]!.sourceChars).toBe(want);
    expect(call.calls[0]!.responseChars).toBe(want);
    expect(call.calls[0]!.files[0]!.chars).toBe(want);
  });

  it('adds response chars over calls', () => {
    let ledger = record(createLedger(), emission({ responseChars: 5 }));
    ledger = record(ledger, emission({ responseChars: 0.25 }));
    expect(ledger.entries[0]!.project.responseChars).toBe(5.25);
  });

  it('holds the running total finite when it would pass the largest number', () => {
    let ledger = record(createLedger(), emission({ responseChars: Number.MAX_VALUE }));
    ledger = record(ledger, emission({ responseChars: Number.MAX_VALUE }));
    expect(ledger.entries[0]!.project.responseChars).toBe(Number.MAX_VALUE);
  });
});

describe('string caps at their exact lengths', () => {
  it('keeps a projectRoot of 4096 chars and ignores one of 4097', () => {
    const root = `/${'r'.repeat(4095)}`;
    expect(record(createLedger(), emission({ projectRoot: root })).entries).toHaveLength(1);
    const tooLong = createLedger();
    expect(record(tooLong, emission({ projectRoot: `${root}r` }))).toBe(tooLong);
  });

  it('keeps a path of 4096 chars and drops one of 4097', () => {
    const path = 'p'.repeat(4096);
    const files = filesOf(
      emission({
        files: [
          { path, ranges: [], chars: 1 },
          { path: `${path}p`, ranges: [], chars: 1 },
        ],
      }),
    );
    expect(files.map((f) => f.path.length)).toEqual([4096]);
  });

  it('keeps a fingerprint of 256 chars and drops one of 257', () => {
    const fp = 'f'.repeat(256);
    const files = filesOf(
      emission({
        files: [
          { path: 'a.ts', ranges: [], chars: 1, fingerprint: fp },
          { path: 'b.ts', ranges: [], chars: 1, fingerprint: `${fp}f` },
        ],
      }),
    );
    expect(files.map((f) => f.fingerprint?.length)).toEqual([256, undefined]);
    expect(Object.hasOwn(files[1]!, 'fingerprint')).toBe(false);
  });

  it('keeps a query of 1024 chars whole and cuts a longer one to its first 1024', () => {
    const q = `${'a'.repeat(1023)}b`;
    const exact = sessionView(record(createLedger(), emission({ query: q })));
    expect(exact.projects[0]!.calls[0]!.query).toBe(q);
    const long = sessionView(record(createLedger(), emission({ query: `${q}cdef` })));
    expect(long.projects[0]!.calls[0]!.query).toBe(q);
    const empty = sessionView(record(createLedger(), emission({ query: '' })));
    expect(empty.projects[0]!.calls[0]!.query).toBe('');
  });

  it('ignores an emission that is a function, even one carrying a root', () => {
    const fn = Object.assign(() => 0, emission());
    const ledger = createLedger();
    expect(record(ledger, fn)).toBe(ledger);
  });
});

describe('files of a record', () => {
  it.each([
    [2, 1, ['f0']],
    [2, 2, ['f0', 'f1']],
    [2, 3, ['f1', 'f2']],
    [3, 5, ['f2', 'f3', 'f4']],
  ])('maxFilesPerCall %i of %i files → %j', (max, n, want) => {
    expect(
      filesOf(emission({ files: numberedFiles(n) }), { maxFilesPerCall: max }).map((f) => f.path),
    ).toEqual(want);
  });

  it('keeps the largest files in the order they were reported', () => {
    const files = [
      { path: 'mid', ranges: [], chars: 50 },
      { path: 'small', ranges: [], chars: 1 },
      { path: 'big', ranges: [], chars: 90 },
      { path: 'tiny', ranges: [], chars: 0 },
      { path: 'second', ranges: [], chars: 70 },
    ];
    expect(filesOf(emission({ files }), { maxFilesPerCall: 3 }).map((f) => f.path)).toEqual([
      'mid',
      'big',
      'second',
    ]);
  });

  it('on a tie in chars keeps the file reported first', () => {
    const files = [
      { path: 'a', ranges: [], chars: 5 },
      { path: 'b', ranges: [], chars: 9 },
      { path: 'c', ranges: [], chars: 5 },
      { path: 'd', ranges: [], chars: 5 },
    ];
    expect(filesOf(emission({ files }), { maxFilesPerCall: 2 }).map((f) => f.path)).toEqual([
      'a',
      'b',
    ]);
    expect(filesOf(emission({ files }), { maxFilesPerCall: 3 }).map((f) => f.path)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('ranks a merged path by its summed chars, and keeps it at its first position', () => {
    const files = [
      { path: 'x', ranges: [{ start: 1, end: 2 }], chars: 4 },
      { path: 'y', ranges: [], chars: 6 },
      { path: 'x', ranges: [{ start: 5, end: 6 }], chars: 4 },
      { path: 'z', ranges: [], chars: 7 },
    ];
    expect(filesOf(emission({ files }), { maxFilesPerCall: 2 })).toEqual([
      {
        path: 'x',
        ranges: [
          { start: 1, end: 2 },
          { start: 5, end: 6 },
        ],
        chars: 8,
      },
      { path: 'z', ranges: [], chars: 7 },
    ]);
  });

  it('maxFilesPerCall 0 keeps no files but still records the call', () => {
    const ledger = record(createLedger({ maxFilesPerCall: 0 }), emission());
    expect(ledger.entries[0]!.project.calls[0]!.files).toEqual([]);
    expect(ledger.entries[0]!.project.callCount).toBe(1);
  });
});

describe('merging entries with one path', () => {
  it('drops the fingerprint when a later entry has none, or another one', () => {
    const none = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1, fingerprint: 'fp' },
          { path: 'a', ranges: [], chars: 1 },
        ],
      }),
    );
    expect(none).toEqual([{ path: 'a', ranges: [], chars: 2 }]);
    const other = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1, fingerprint: 'fp' },
          { path: 'a', ranges: [], chars: 1, fingerprint: 'fp' },
          { path: 'a', ranges: [], chars: 1, fingerprint: 'other' },
        ],
      }),
    );
    expect(other).toEqual([{ path: 'a', ranges: [], chars: 3 }]);
  });

  it('never gains a fingerprint the first entry lacked', () => {
    const files = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1 },
          { path: 'a', ranges: [], chars: 1, fingerprint: 'fp' },
          { path: 'a', ranges: [], chars: 1, fingerprint: 'fp' },
        ],
      }),
    );
    expect(files).toEqual([{ path: 'a', ranges: [], chars: 3 }]);
  });

  it('keeps the fingerprint all entries agree on', () => {
    const files = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [{ start: 3, end: 4 }], chars: 1, fingerprint: 'fp' },
          { path: 'a', ranges: [{ start: 1, end: 2 }], chars: 2, fingerprint: 'fp' },
          { path: 'a', ranges: [{ start: 9, end: 9 }], chars: 3, fingerprint: 'fp' },
        ],
      }),
    );
    expect(files).toEqual([
      {
        path: 'a',
        ranges: [
          { start: 1, end: 4 },
          { start: 9, end: 9 },
        ],
        chars: 6,
        fingerprint: 'fp',
      },
    ]);
  });

  it('reads a merged entry whose ranges are not a list, or are unreadable, as no spans', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const files = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [{ start: 1, end: 2 }], chars: 1 },
          { path: 'a', ranges: 'lines 5-9' as never, chars: 1 },
          { path: 'a', ranges: proxy, chars: 1 },
          { path: 'a', ranges: [{ start: 7, end: 8 }], chars: 1 },
        ],
      }),
    );
    expect(files).toEqual([
      {
        path: 'a',
        ranges: [
          { start: 1, end: 2 },
          { start: 7, end: 8 },
        ],
        chars: 4,
      },
    ]);
  });

  it('reads past a member whose getter throws in a merged entry', () => {
    const ranges = [{ start: 1, end: 1 }, null, { start: 3, end: 3 }];
    Object.defineProperty(ranges, 1, {
      get(): never {
        throw new Error('hostile member');
      },
    });
    const files = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [{ start: 10, end: 10 }], chars: 1 },
          { path: 'a', ranges: ranges as never, chars: 1 },
        ],
      }),
    );
    expect(files[0]!.ranges).toEqual([
      { start: 1, end: 1 },
      { start: 3, end: 3 },
      { start: 10, end: 10 },
    ]);
  });
});

describe('rangesTruncated', () => {
  const spans = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ start: 10 * i + 1, end: 10 * i + 1 + i }));

  it.each([
    [3, 2, false],
    [3, 3, false],
    [3, 4, true],
  ])('maxRangesPerFile %i with %i disjoint spans → truncated %s', (max, n, cut) => {
    const [file] = filesOf(emission({ files: [{ path: 'a', ranges: spans(n), chars: 1 }] }), {
      maxRangesPerFile: max,
    });
    expect(file!.ranges).toHaveLength(Math.min(max, n));
    expect(file!.rangesTruncated).toBe(cut ? true : undefined);
    expect(Object.hasOwn(file!, 'rangesTruncated')).toBe(cut);
  });

  it('keeps a flag the reporter set, and only when it is exactly true', () => {
    const files = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1, rangesTruncated: true },
          { path: 'b', ranges: [], chars: 1, rangesTruncated: 'yes' as never },
          { path: 'c', ranges: [], chars: 1, rangesTruncated: false },
        ],
      }),
    );
    expect(files.map((f) => f.rangesTruncated)).toEqual([true, undefined, undefined]);
  });

  it('a merged path is truncated when any of its entries was', () => {
    const later = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1 },
          { path: 'a', ranges: [], chars: 1, rangesTruncated: true },
          { path: 'a', ranges: [], chars: 1 },
        ],
      }),
    );
    expect(later[0]!.rangesTruncated).toBe(true);
    const first = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [], chars: 1, rangesTruncated: true },
          { path: 'a', ranges: [], chars: 1 },
        ],
      }),
    );
    expect(first[0]!.rangesTruncated).toBe(true);
  });

  it('merged spans that fit are not truncated, even when the entries together had more', () => {
    const [file] = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [{ start: 1, end: 5 }], chars: 1 },
          { path: 'a', ranges: [{ start: 6, end: 9 }], chars: 1 },
        ],
      }),
      { maxRangesPerFile: 1 },
    );
    expect(file).toEqual({ path: 'a', ranges: [{ start: 1, end: 9 }], chars: 2 });
  });
});

describe('limits', () => {
  it.each([
    ['an array', []],
    ['a function', () => ({ maxProjects: 1 })],
    ['a string', 'maxProjects'],
  ])('createLedger rejects %s as limits', (_name, limits) => {
    expect(() => createLedger(limits as never)).toThrow(
      new TypeError('createLedger(limits): limits must be an object'),
    );
  });

  it('names a field whose getter throws', () => {
    const limits = Object.defineProperty({}, 'maxFilesPerCall', {
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(() => createLedger(limits)).toThrow(
      new TypeError('createLedger(limits): limits.maxFilesPerCall could not be read'),
    );
  });

  it('accepts 0 and the largest safe integer for every field', () => {
    const zero = {
      maxProjects: 0,
      maxCallsRetained: 0,
      maxFilesPerCall: 0,
      maxRangesPerFile: 0,
      maxViewCalls: 0,
      maxRangesRetained: 0,
      maxViewRanges: 0,
    };
    expect(createLedger(zero).limits).toEqual(zero);
    const big = Number.MAX_SAFE_INTEGER;
    expect(createLedger({ maxViewCalls: big }).limits.maxViewCalls).toBe(big);
  });

  it.each([
    ['maxProjects', -1],
    ['maxCallsRetained', 2 ** 53],
    ['maxFilesPerCall', Number.POSITIVE_INFINITY],
    ['maxRangesPerFile', '3'],
    ['maxViewCalls', null],
  ])('rejects %s = %j, naming the field', (field, value) => {
    expect(() => createLedger({ [field]: value })).toThrow(
      new TypeError(`createLedger(limits): limits.${field} must be a non-negative safe integer`),
    );
  });

  it('readLimits takes each usable field and defaults the rest', () => {
    expect(
      readLimits({
        maxProjects: 0,
        maxCallsRetained: -1,
        maxFilesPerCall: 2.5,
        maxRangesPerFile: '3',
        maxViewCalls: 9,
        maxRangesRetained: null,
        maxViewRanges: 7,
      }),
    ).toEqual({
      maxProjects: 0,
      maxCallsRetained: 8,
      maxFilesPerCall: 24,
      maxRangesPerFile: 24,
      maxViewCalls: 9,
      maxRangesRetained: 4096,
      maxViewRanges: 7,
    });
    const defaults = {
      maxProjects: 4,
      maxCallsRetained: 8,
      maxFilesPerCall: 24,
      maxRangesPerFile: 24,
      maxViewCalls: 4,
      maxRangesRetained: 4096,
      maxViewRanges: 1024,
    };
    expect(readLimits(null)).toEqual(defaults);
    expect(readLimits(undefined)).toEqual(defaults);
    expect(readLimits(DEFAULT_LIMITS)).toEqual(defaults);
  });

  it('a reducer reading unusable limits falls back to the defaults', () => {
    const junk = { ...createLedger(), limits: { maxCallsRetained: 'x' } } as unknown as Ledger;
    let ledger = junk;
    for (let i = 0; i < 10; i++) ledger = record(ledger);
    expect(ledger.entries[0]!.project.calls.map((c) => c.index)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('normalizeSessionId at its edges', () => {
  it('trims before measuring: 128 chars inside spaces stay plain', () => {
    const id = 'i'.repeat(128);
    expect(normalizeSessionId(`  ${id}\t`)).toBe(id);
  });

  it('hashes 129 chars to the SHA-256 of the trimmed id', () => {
    // SHA-256 of 129 × 'a', computed independently (`printf 'a%.0s' {1..129} | sha256sum`).
    const id = 'a'.repeat(129);
    const hex = 'c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae';
    expect(normalizeSessionId(` ${id} `)).toBe(hex);
    expect(sha256OfUtf8(id, 'portable')).toBe(hex);
    expect(normalizeSessionId(id)).not.toBe(id);
  });

  it('keeps one char, and inner spaces', () => {
    expect(normalizeSessionId('x')).toBe('x');
    expect(normalizeSessionId(' a b ')).toBe('a b');
  });

  it('a recorded call under a padded id lands in the trimmed id’s bucket', () => {
    const ledger = record(createLedger(), emission(), '  conn  ');
    expect(ledger.entries[0]!.session).toBe('conn');
    const fallback = record(createLedger(), emission(), '   ');
    expect(fallback.entries[0]!.session).toBeNull();
  });
});

describe('projectKey per platform', () => {
  it.each([
    ['linux', '/A/B/../C/', '/A/C'],
    ['linux', 'a/b/../../..', '..'],
    ['linux', '../..', '../..'],
    ['linux', 'a/../b', 'b'],
    ['linux', './', '.'],
    ['linux', '/..', '/'],
    ['linux', '//server/share', '/server/share'],
    ['linux', 'C:\\Repo', 'C:\\Repo'],
    ['linux', 'C:/..', '.'],
    ['linux', 'z:/a/../../..', '..'],
    ['darwin', '/A/B/', '/a/b'],
    ['win32', 'c:\\Repo\\', 'c:/repo'],
    ['win32', 'C:/', 'c:/'],
    ['win32', 'C:\\..\\..', 'c:/'],
    ['win32', 'c:\\..', 'c:/'],
    ['win32', 'C:\\a', 'c:/a'],
    ['win32', 'foo\\C:\\bar', 'foo/c:/bar'],
    ['win32', '\\Repo\\x', '/repo/x'],
    ['win32', '//Server/Share/Deep/Path', '//server/share/deep/path'],
    ['win32', '\\\\server\\share\\', '//server/share'],
    ['win32', '\\\\server\\share\\..\\up', '//server/share/up'],
    ['win32', '//server', '/server'],
    ['win32', 'a//server/share', 'a/server/share'],
    ['win32', '..\\x', '../x'],
  ])('%s: %j → %j', (platform, root, key) => {
    expect(projectKey(root, platform)).toBe(key);
  });

  it('an empty platform argument means the running platform', () => {
    expect(projectKey('/Repo', '')).toBe(projectKey('/Repo'));
    const saved = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { configurable: true, value: 'darwin' });
    try {
      expect(projectKey('/Repo', '')).toBe('/repo');
      expect(projectKey('/Repo', 'linux')).toBe('/Repo');
    } finally {
      Object.defineProperty(process, 'platform', saved);
    }
  });
});

describe('internal readers', () => {
  it('prop reads only objects', () => {
    const fn = Object.assign(() => 0, { a: 1 });
    expect(prop(fn, 'a')).toBeUndefined();
    expect(prop({ a: 1 }, 'a')).toBe(1);
    expect(prop(null, 'a')).toBeUndefined();
    expect(prop('abc', 'length')).toBeUndefined();
  });

  it('listOf refuses a list whose length is not a safe integer', () => {
    const lying = new Proxy(['a', 'b'], {
      get: (target, key) => (key === 'length' ? 1.5 : Reflect.get(target, key)),
    });
    expect(listOf(lying)).toEqual({ list: [], length: 0 });
    expect(listOf(['a'])).toEqual({ list: ['a'], length: 1 });
    expect(listOf([]).length).toBe(0);
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(listOf(proxy)).toEqual({ list: [], length: 0 });
  });

  it('an emission whose files list lies about its length keeps no files', () => {
    const files = new Proxy([{ path: 'a', ranges: [], chars: 1 }], {
      get: (target, key) => (key === 'length' ? 0.5 : Reflect.get(target, key)),
    });
    expect(filesOf(emission({ files }))).toEqual([]);
  });

  it('a files list with an unreadable member keeps the rest', () => {
    const files = [{ path: 'a', ranges: [], chars: 1 }, null, { path: 'c', ranges: [], chars: 3 }];
    Object.defineProperty(files, 1, {
      get(): never {
        throw new Error('hostile file');
      },
    });
    expect(filesOf(emission({ files: files as never })).map((f) => f.path)).toEqual(['a', 'c']);
  });

  it('copyWithout copies own enumerable properties, symbols too, as plain writable ones', () => {
    const sym = Symbol('s');
    const source = Object.defineProperty({ a: 1, drop: 2, [sym]: 3 }, 'hidden', {
      value: 4,
      enumerable: false,
    });
    const out = copyWithout(source, 'drop')!;
    expect(Reflect.ownKeys(out)).toEqual(['a', sym]);
    expect(out[sym]).toBe(3);
    expect(Object.getOwnPropertyDescriptor(out, 'a')).toEqual({
      value: 1,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('copyWithout gives undefined, or skips, an unreadable property', () => {
    const source = Object.defineProperty({ a: 1, b: 2 }, 'bad', {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(copyWithout(source, 'b')).toBeUndefined();
    expect(copyWithout(source, 'b', true)).toEqual({ a: 1 });
    expect(copyWithout(source, 'bad')).toEqual({ a: 1, b: 2 });
  });
});

describe('createSessionStore', () => {
  it('keeps no record and hands out an empty calls list when maxCallsRetained is 0', () => {
    const store = createSessionStore({ maxCallsRetained: 0 });
    expect(store.record(emission())).toBeNull();
    expect(store.view().projects).toEqual([
      { projectRoot: '/repo', callCount: 1, responseChars: 200, calls: [] },
    ]);
  });

  it('returns the record of the entry recorded into, not an older one', () => {
    const store = createSessionStore({ maxProjects: 2 });
    store.record(emission({ projectRoot: '/a' }), 's');
    store.record(emission({ projectRoot: '/b' }), 's');
    const third = store.record(emission({ projectRoot: '/a', query: 'again' }), 's');
    expect(third).toMatchObject({ projectRoot: '/a', query: 'again', index: 2 });
    expect(store.ledger().entries.map((e) => e.key)).toEqual(['/b', '/a']);
  });

  it('forget of a session with entries drops them, and records after it count from 1', () => {
    const store = createSessionStore();
    store.record(emission(), 'x');
    store.record(emission(), 'x');
    store.forget(' x ');
    expect(store.ledger().entries).toEqual([]);
    expect(store.record(emission(), 'x')?.index).toBe(1);
  });
});

describe('readSessionView bounds', () => {
  it.each([
    [2, 1, ['/p0']],
    [2, 2, ['/p0', '/p1']],
    [2, 3, ['/p0', '/p1']],
    [0, 2, []],
  ])('maxProjects %i of %i projects → %j', (max, n, want) => {
    const projects = Array.from({ length: n }, (_, i) => rawProject(`/p${i}`));
    const view = readSessionView(wrap({ version: 1, projects }), { maxProjects: max });
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(want);
  });

  it('a dropped or duplicate project does not use up the bound', () => {
    const projects = [
      null,
      rawProject(''),
      rawProject('/a'),
      rawProject('/a/'),
      rawProject('/b'),
      rawProject('/c'),
    ];
    const view = readSessionView(wrap({ version: 1, projects }), { maxProjects: 2 });
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(['/a', '/b']);
  });

  it.each([
    [2, [1, 2], [1, 2]],
    [2, [1, 2, 3], [2, 3]],
    [3, [1, 2, 3], [1, 2, 3]],
    [1, [1, 2, 3], [3]],
  ])('maxViewCalls %i of calls %j → %j', (max, indexes, want) => {
    const calls = indexes.map((i) => rawCall(i));
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }), {
      maxViewCalls: max,
    });
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual(want);
  });

  it('keeps a record with index 1, drops 0, negatives, fractions and strings', () => {
    const calls = [
      rawCall(1),
      rawCall(0),
      rawCall(-2),
      rawCall(1.5),
      { ...rawCall(4), index: '4' },
    ];
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }));
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual([1]);
  });

  it('an invalid record does not use up the window', () => {
    const calls = [rawCall(1), rawCall(2), rawCall(0), { index: 3, projectRoot: '' }];
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', calls)] }), {
      maxViewCalls: 2,
    });
    expect(view!.projects[0]!.calls.map((c) => c.index)).toEqual([1, 2]);
  });

  it.each([
    [1, 1],
    [7, 7],
    [0, 0],
    [-0, 0],
    [-3, 0],
    [2.5, 0],
    ['7', 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('callCount %j reads as %d', (raw, want) => {
    const view = readSessionView(wrap({ version: 1, projects: [rawProject('/repo', [], raw)] }));
    expect(view!.projects[0]!.callCount).toBe(want);
  });

  it('bounds files and spans of a carried record by the limits given', () => {
    const files = [
      {
        path: 'a',
        ranges: [
          { start: 1, end: 1 },
          { start: 3, end: 9 },
        ],
        chars: 1,
      },
      { path: 'b', ranges: [], chars: 5 },
      { path: 'c', ranges: [], chars: 3 },
    ];
    const view = readSessionView(
      wrap({ version: 1, projects: [rawProject('/repo', [rawCall(1, files)])] }),
      { maxFilesPerCall: 2, maxRangesPerFile: 1 },
    );
    expect(view!.projects[0]!.calls[0]!.files).toEqual([
      { path: 'b', ranges: [], chars: 5 },
      { path: 'c', ranges: [], chars: 3 },
    ]);
    const spans = readSessionView(
      wrap({ version: 1, projects: [rawProject('/repo', [rawCall(1, files)])] }),
      { maxRangesPerFile: 1 },
    );
    expect(spans!.projects[0]!.calls[0]!.files[0]).toEqual({
      path: 'a',
      ranges: [{ start: 3, end: 9 }],
      chars: 1,
      rangesTruncated: true,
    });
  });

  it('a view read back keeps responseChars and the records’ fields', () => {
    const project = {
      projectRoot: '/repo',
      callCount: 3,
      responseChars: 77,
      calls: [{ ...rawCall(3), query: 'auth', sourceChars: 5, responseChars: 9 }],
    };
    expect(readSessionView(wrap({ version: 1, projects: [project] }))).toEqual({
      version: 1,
      projects: [
        {
          projectRoot: '/repo',
          callCount: 3,
          responseChars: 77,
          calls: [
            {
              index: 3,
              projectRoot: '/repo',
              query: 'auth',
              files: [],
              sourceChars: 5,
              responseChars: 9,
            },
          ],
        },
      ],
    });
  });
});

describe('the carriers', () => {
  it('withSessionView reads args that are not an object as {}', () => {
    const fn = Object.assign(() => 0, { q: 'auth' });
    expect(withSessionView(fn as never, null)).toEqual({});
    expect(withSessionView('args' as never, null)).toEqual({});
  });

  it('withSessionView sets no key for an undefined view', () => {
    const out = withSessionView({ q: 1, [VIEW_KEY]: 'forged' }, undefined as never);
    expect(Reflect.ownKeys(out)).toEqual(['q']);
  });

  it('attachEmission returns a result it cannot copy as it is', () => {
    const result = Object.defineProperty({ a: 1 }, 'bad', {
      enumerable: true,
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(attachEmission(result, emission())).toBe(result);
  });

  it('attachEmission and takeEmission leave a revoked proxy as it is', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(attachEmission(proxy, emission())).toBe(proxy);
    const taken = takeEmission(proxy);
    expect(taken.result).toBe(proxy);
    expect(taken.emission).toBeNull();
  });

  it('attachEmission bounds the copy by the limits given', () => {
    const carried = attachEmission({}, emission({ files: numberedFiles(3) }), {
      maxFilesPerCall: 1,
    }) as Record<string, Emission>;
    expect(carried[EMISSION_KEY]!.files.map((f) => f.path)).toEqual(['f2']);
  });

  it('takeEmission answers a fresh copy and the sanitized emission, bounded by its limits', () => {
    const result = { a: 1, [EMISSION_KEY]: emission({ files: numberedFiles(3) }) };
    const taken = takeEmission(result, { maxFilesPerCall: 2 });
    expect(taken.result).not.toBe(result);
    expect(taken.result).toEqual({ a: 1 });
    expect(taken.emission!.files.map((f) => f.path)).toEqual(['f1', 'f2']);
    expect(Object.hasOwn(result, EMISSION_KEY)).toBe(true);
  });

  it('takeEmission on a result with a key check that throws answers the same result', () => {
    const result = new Proxy(
      { [EMISSION_KEY]: emission() },
      {
        getOwnPropertyDescriptor(): never {
          throw new Error('hostile');
        },
      },
    );
    const taken = takeEmission(result);
    expect(taken).toEqual({ result, emission: null });
    expect(taken.result).toBe(result);
  });

  it('recordSafely records only an emission that was carried, under the session and limits given', () => {
    const seen: unknown[][] = [];
    const sink = { record: (...args: unknown[]) => seen.push(args) };
    expect(recordSafely(sink, { a: 1 })).toEqual({ a: 1 });
    expect(recordSafely(sink, { a: 1, [EMISSION_KEY]: { projectRoot: '' } })).toEqual({ a: 1 });
    expect(seen).toEqual([]);
    const raw = { a: 1, [EMISSION_KEY]: emission({ files: numberedFiles(3) }) };
    expect(recordSafely(sink, raw, 'conn', { maxFilesPerCall: 1 })).toEqual({ a: 1 });
    expect(seen).toHaveLength(1);
    expect(seen[0]![1]).toBe('conn');
    expect((seen[0]![0] as Emission).files.map((f) => f.path)).toEqual(['f2']);
  });
});

describe('sha256OfUtf8 backends', () => {
  /** SHA-256 of 'abc' (FIPS 180-2 example). */
  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

  afterEach(() => {
    vi.resetModules();
  });

  /** The session-id module loaded fresh while `process.getBuiltinModule` is `value`. */
  async function loadWith(value: unknown) {
    vi.resetModules();
    const saved = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
    Object.defineProperty(process, 'getBuiltinModule', {
      configurable: true,
      writable: true,
      value,
    });
    try {
      return await import('../src/ledger/session-id.js');
    } finally {
      if (saved) Object.defineProperty(process, 'getBuiltinModule', saved);
      else delete (process as unknown as Record<string, unknown>).getBuiltinModule;
    }
  }

  it('the native backend asks the runtime hash; the portable one never does', async () => {
    const crypto = process.getBuiltinModule('crypto');
    const asked: string[] = [];
    const fresh = await loadWith(() => ({
      createHash: (algorithm: string) => {
        asked.push(algorithm);
        return crypto.createHash(algorithm);
      },
    }));
    expect(fresh.sha256OfUtf8('abc', 'portable')).toBe(ABC);
    expect(asked).toEqual([]);
    expect(fresh.sha256OfUtf8('abc')).toBe(ABC);
    expect(fresh.sha256OfUtf8('abc', 'native')).toBe(ABC);
    expect(asked).toEqual(['sha256', 'sha256']);
  });

  it('without a runtime hash, asking for the native backend hashes portably', async () => {
    const fresh = await loadWith(undefined);
    expect(fresh.sha256OfUtf8('abc', 'native')).toBe(ABC);
    expect(fresh.normalizeSessionId(` ${'a'.repeat(129)}`)).toBe(
      'c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae',
    );
  });
});

describe('the selectors on views no ledger built', () => {
  const served = {
    path: 'a.ts',
    fingerprint: 'fp',
    ranges: [{ start: 3, end: 4 }],
  };
  const project = (calls: unknown) =>
    ({ projectRoot: '/r', callCount: 1, responseChars: 0, calls }) as never;
  const empty = (projectRoot: unknown) => ({
    projectRoot,
    callCount: 0,
    responseChars: 0,
    calls: [],
  });

  it('projectFromView: a view that is not an object is untracked', () => {
    expect(projectFromView(undefined as never, '/r')).toBeNull();
    expect(projectFromView('view' as never, '/r')).toBeNull();
  });

  it('projectFromView: a view whose projects are not a list is untracked, as readSessionView reads it', () => {
    const view = { version: 1, projects: { 0: { projectRoot: '/r', callCount: 5 } } } as never;
    expect(projectFromView(view, '/r')).toBeNull();
  });

  it('projectFromView: skips members that are not objects or have no string root', () => {
    const fn = Object.assign(() => 0, { projectRoot: '/r', callCount: 8 });
    const good = { projectRoot: '/r/', callCount: 2, responseChars: 0, calls: [] };
    const view = {
      version: 1,
      projects: [null, fn, { projectRoot: 7, callCount: 9 }, good],
    } as never;
    expect(projectFromView(view, '/r')).toEqual(good);
    expect(projectFromView({ version: 1, projects: [fn] } as never, '/r')).toEqual(empty('/r'));
  });

  it('projectFromView: a root that is not a string finds nothing and does not throw', () => {
    const view = { version: 1, projects: [{ projectRoot: '/r', callCount: 1 }] } as never;
    expect(projectFromView(view, 5 as never)).toEqual(empty(5));
  });

  it('servedRangesForFile: no fingerprint, or an empty one, holds nothing', () => {
    const unproven = project([{ files: [{ path: 'a.ts', ranges: [{ start: 1, end: 9 }] }] }]);
    expect(servedRangesForFile(unproven, 'a.ts', undefined as never)).toEqual([]);
    const blank = project([{ files: [{ ...served, fingerprint: '' }] }]);
    expect(servedRangesForFile(blank, 'a.ts', '')).toEqual([]);
    expect(servedRangesForFile(project([{ files: [served] }]), 'a.ts', 'fp')).toEqual([
      { start: 3, end: 4 },
    ]);
  });

  it('servedRangesForFile: a project that is not an object holds nothing', () => {
    const fn = Object.assign(() => 0, { calls: [{ files: [served] }] });
    expect(servedRangesForFile(fn as never, 'a.ts', 'fp')).toEqual([]);
    expect(servedRangesForFile('p' as never, 'a.ts', 'fp')).toEqual([]);
  });

  it('servedRangesForFile: reads only arrays, skipping members that are not objects', () => {
    const fnCall = Object.assign(() => 0, { files: [served] });
    const fnFile = Object.assign(() => 0, { ...served, ranges: [{ start: 20, end: 30 }] });
    expect(servedRangesForFile(project(new Set([{ files: [served] }])), 'a.ts', 'fp')).toEqual([]);
    expect(
      servedRangesForFile(
        project([
          null,
          fnCall,
          { files: new Set([served]) },
          { files: [null, fnFile, { ...served, ranges: new Set([{ start: 40, end: 41 }]) }] },
          { files: [served] },
        ]),
        'a.ts',
        'fp',
      ),
    ).toEqual([{ start: 3, end: 4 }]);
  });

  it('servedRangesForFile: matches path and fingerprint both, merging what several calls served', () => {
    const calls = [
      { files: [{ ...served, ranges: [{ start: 5, end: 6 }] }] },
      { files: [{ ...served, path: 'b.ts', ranges: [{ start: 50, end: 60 }] }] },
      { files: [{ ...served, fingerprint: 'other', ranges: [{ start: 70, end: 80 }] }] },
      { files: [served] },
    ];
    expect(servedRangesForFile(project(calls), 'a.ts', 'fp')).toEqual([{ start: 3, end: 6 }]);
  });

  it('servedRangesForFile: a call whose getter throws holds nothing at all', () => {
    const hostile = Object.defineProperty({}, 'files', {
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(servedRangesForFile(project([{ files: [served] }, hostile]), 'a.ts', 'fp')).toEqual([]);
  });
});

describe('kept counters of evicted entries', () => {
  const counters = (
    key: string,
    callCount: number,
    responseChars = 0,
    session: unknown = null,
  ) => ({
    session,
    key,
    callCount,
    responseChars,
  });
  /** A ledger holding exactly these kept counters and no entries. */
  const withEvicted = (evicted: unknown, limits = {}) =>
    ({ ...createLedger(limits), evicted }) as unknown as Ledger;

  it('resumes a returning entry from its counters, wherever they sit in the list', () => {
    const ledger = withEvicted([counters('/a', 3, 30), counters('/b', 5, 50), counters('/c', 1)]);
    const back = record(ledger, emission({ projectRoot: '/b', responseChars: 7 }));
    expect(back.entries[0]!.project).toMatchObject({ callCount: 6, responseChars: 57 });
    expect(back.entries[0]!.project.calls.map((c) => c.index)).toEqual([6]);
    expect(back.evicted.map((c) => c.key)).toEqual(['/a', '/c']);
    const first = record(ledger, emission({ projectRoot: '/a' }));
    expect(first.entries[0]!.project.callCount).toBe(4);
    expect(first.evicted.map((c) => c.key)).toEqual(['/b', '/c']);
  });

  it('resumes only the same session’s counters', () => {
    const ledger = withEvicted([counters('/a', 3, 0, 's1')]);
    const other = record(ledger, emission({ projectRoot: '/a' }), 's2');
    expect(other.entries[0]!.project.callCount).toBe(1);
    expect(other.evicted).toEqual([counters('/a', 3, 0, 's1')]);
    const same = record(ledger, emission({ projectRoot: '/a' }), 's1');
    expect(same.entries[0]!.project.callCount).toBe(4);
    expect(same.evicted).toEqual([]);
  });

  it('keeps the counters of everything evicted at once, oldest first', () => {
    let ledger = createLedger({ maxProjects: 3 });
    for (const root of ['/a', '/b', '/c']) ledger = record(ledger, emission({ projectRoot: root }));
    expect(ledger.evicted).toEqual([]);
    const shrunk = record(
      { ...ledger, limits: { ...ledger.limits, maxProjects: 1 } } as Ledger,
      emission({ projectRoot: '/d', responseChars: 1 }),
    );
    expect(shrunk.entries.map((e) => e.key)).toEqual(['/d']);
    expect(shrunk.evicted).toEqual([
      counters('/a', 1, 200),
      counters('/b', 1, 200),
      counters('/c', 1, 200),
    ]);
    expect(shrunk.evicted.every((c) => Object.isFrozen(c))).toBe(true);
    expect(Object.isFrozen(shrunk.evicted)).toBe(true);
  });

  it('shares the kept counters when a call evicts nothing', () => {
    let ledger = createLedger({ maxProjects: 1 });
    ledger = record(ledger, emission({ projectRoot: '/a' }));
    ledger = record(ledger, emission({ projectRoot: '/b' }));
    const again = record(ledger, emission({ projectRoot: '/b' }));
    expect(again.evicted).toBe(ledger.evicted);
    expect(again.evicted).toEqual([counters('/a', 1, 200)]);
  });

  it('counts with maxProjects 0: every call is evicted at once, its counters kept', () => {
    let ledger = createLedger({ maxProjects: 0 });
    ledger = record(ledger, emission({ responseChars: 4 }));
    ledger = record(ledger, emission({ responseChars: 5 }));
    expect(ledger.entries).toEqual([]);
    expect(ledger.evicted).toEqual([counters('/repo', 2, 9)]);
    const cleared = ledgerReducer(ledger, { type: 'cleared' });
    expect(cleared).not.toBe(ledger);
    expect(cleared.evicted).toEqual([]);
    const forgot = ledgerReducer(record(createLedger({ maxProjects: 0 }), emission(), 's'), {
      type: 'forgotten',
      sessionId: 's',
    });
    expect(forgot.evicted).toEqual([]);
  });

  it('a ledger from before kept counters, or with an unreadable list, remembers none', () => {
    for (const evicted of [undefined, 'x', { 0: counters('/repo', 4) }]) {
      const next = record(withEvicted(evicted), emission());
      expect(next.entries[0]!.project.callCount).toBe(1);
      expect(next.evicted).toEqual([]);
    }
  });

  it('drops malformed counters, keeps sound ones', () => {
    const fn = Object.assign(() => 0, counters('/f', 9));
    const sound = [counters('/zero', 0, 0), counters('/s', 2, 1.5, 'conn')];
    const malformed = [
      null,
      7,
      fn,
      { ...counters('/k', 1), key: 7 },
      { ...counters('/u', 1), session: undefined },
      { ...counters('/n', 1), session: 3 },
      counters('/frac', 1.5),
      counters('/neg', -1),
      counters('/nan', 1, Number.NaN),
      counters('/inf', 1, Number.POSITIVE_INFINITY),
      counters('/negchars', 1, -1),
      { ...counters('/str', 1), responseChars: '5' },
      { ...counters('/cstr', 1), callCount: '5' },
    ];
    const next = record(withEvicted([...malformed, ...sound]), emission({ projectRoot: '/x' }));
    expect(next.evicted).toEqual(sound);
    const fnBack = record(withEvicted([fn]), emission({ projectRoot: '/f' }));
    expect(fnBack.entries[0]!.project.callCount).toBe(1);
    const nullBack = record(withEvicted([null, counters('/repo', 4)]), emission());
    expect(nullBack.entries[0]!.project.callCount).toBe(5);
  });
});

describe('lists read only up to their length', () => {
  /** An array whose member at `length` (past its end) reads as `extra`. */
  const pastEnd = <T>(items: T[], extra: unknown): T[] =>
    new Proxy(items, {
      get: (target, key) => (key === String(target.length) ? extra : Reflect.get(target, key)),
    });

  it('files, and a merged entry’s spans', () => {
    const files = pastEnd([{ path: 'a', ranges: [{ start: 1, end: 1 }], chars: 1 }], {
      path: 'ghost',
      ranges: [],
      chars: 9,
    });
    expect(filesOf(emission({ files })).map((f) => f.path)).toEqual(['a']);
    const merged = filesOf(
      emission({
        files: [
          { path: 'a', ranges: [{ start: 1, end: 1 }], chars: 1 },
          { path: 'a', ranges: pastEnd([{ start: 3, end: 3 }], { start: 9, end: 9 }), chars: 1 },
        ],
      }),
    );
    expect(merged[0]!.ranges).toEqual([
      { start: 1, end: 1 },
      { start: 3, end: 3 },
    ]);
  });

  it('a ledger’s entries, a view’s projects and a project’s calls', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ghost = { ...good, project: { ...good.project, projectRoot: '/ghost' } };
    const ledger = { ...createLedger(), entries: pastEnd([good], ghost) } as unknown as Ledger;
    expect(sessionView(ledger).projects.map((p) => p.projectRoot)).toEqual(['/repo']);

    const projects = pastEnd([rawProject('/a')], rawProject('/ghost'));
    const view = readSessionView(wrap({ version: 1, projects }));
    expect(view!.projects.map((p) => p.projectRoot)).toEqual(['/a']);

    const calls = pastEnd([rawCall(1)], rawCall(9));
    const read = readSessionView(wrap({ version: 1, projects: [rawProject('/a', calls)] }));
    expect(read!.projects[0]!.calls.map((c) => c.index)).toEqual([1]);
  });
});

describe('malformed ledgers, views and results', () => {
  it('cleared of a ledger whose entries are not a list returns it as it is', () => {
    const junk = { ...createLedger(), entries: 'abc' } as unknown as Ledger;
    expect(ledgerReducer(junk, { type: 'cleared' })).toBe(junk);
    expect(ledgerReducer(junk, { type: 'forgotten', sessionId: 'a' })).toBe(junk);
  });

  it('a blank id forgets nothing, even an entry with no session at all', () => {
    const good = record(createLedger(), emission()).entries[0]!;
    const ledger = {
      ...createLedger(),
      entries: [{ ...good, session: undefined }],
    } as unknown as Ledger;
    expect(ledgerReducer(ledger, { type: 'forgotten', sessionId: '  ' })).toBe(ledger);
  });

  it('projectFromView: a view whose projects cannot be read is untracked', () => {
    const view = Object.defineProperty({ version: 1 }, 'projects', {
      get(): never {
        throw new Error('hostile');
      },
    });
    expect(projectFromView(view as never, '/r')).toBeNull();
  });

  it('projectFromView: matches only its own root, by key or as it is', () => {
    const other = { projectRoot: '/other', callCount: 4, responseChars: 0, calls: [] };
    const mine = { projectRoot: '/r/', callCount: 2, responseChars: 0, calls: [] };
    expect(projectFromView({ version: 1, projects: [other, mine] }, '/r')).toEqual(mine);
    // A project without a string root is dropped at the boundary: nothing matches it.
    const odd = { projectRoot: 5, callCount: 3 };
    const view = { version: 1, projects: [{ projectRoot: 7 }, odd] } as never;
    expect(projectFromView(view, 5 as never)).toEqual({
      projectRoot: 5,
      callCount: 0,
      responseChars: 0,
      calls: [],
    });
  });

  it('the store answers null for a malformed emission after a good one', () => {
    const store = createSessionStore();
    expect(store.record(emission())?.index).toBe(1);
    const before = store.ledger();
    expect(store.record({ projectRoot: '' } as never)).toBeNull();
    expect(store.ledger()).toBe(before);
  });

  it('takeEmission and attachEmission leave arrays and functions carrying the key as they are', () => {
    const list = Object.assign([1, 2], { [EMISSION_KEY]: emission() });
    expect(takeEmission(list)).toEqual({ result: list, emission: null });
    expect(takeEmission(list).result).toBe(list);
    const fn = Object.assign(() => 0, { [EMISSION_KEY]: emission() });
    expect(takeEmission(fn).result).toBe(fn);
    expect(takeEmission(fn).emission).toBeNull();
    expect(attachEmission(fn, emission())).toBe(fn);
  });
});
