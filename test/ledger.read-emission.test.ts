/**
 * The boundary reading an emission into a record: counts that are zero,
 * negative zero or not numbers, the string caps at their exact lengths, which
 * files a record keeps, entries with one path merged, `rangesTruncated`; and
 * the limits a caller passes, checked or read.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  DEFAULT_LIMITS,
  type FileEmission,
  type Ledger,
  sessionView,
} from '../src/index.js';
import { emission, fileEmission, filesOf, ranges, record, span } from './_build.js';

/** The limits a ledger that went through JSON comes back with, once the reducer has read it. */
const limitsRead = (limits: unknown) =>
  record({ version: 1, limits, entries: [], evicted: [] } as unknown as Ledger).limits;

/** `n` files named f0…f(n-1), each with `chars` = its number + 1. */
function numberedFiles(n: number): FileEmission[] {
  return Array.from({ length: n }, (_, i) => fileEmission(`f${i}`, '', i + 1));
}

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
          files: [fileEmission('a.ts', '', raw as number)],
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
        files: [fileEmission(path), fileEmission(`${path}p`)],
      }),
    );
    expect(files.map((f) => f.path.length)).toEqual([4096]);
  });

  it('keeps a fingerprint of 256 chars and drops one of 257', () => {
    const fp = 'f'.repeat(256);
    const files = filesOf(
      emission({
        files: [fileEmission('a.ts', '', 1, fp), fileEmission('b.ts', '', 1, `${fp}f`)],
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
      fileEmission('mid', '', 50),
      fileEmission('small'),
      fileEmission('big', '', 90),
      fileEmission('tiny', '', 0),
      fileEmission('second', '', 70),
    ];
    expect(filesOf(emission({ files }), { maxFilesPerCall: 3 }).map((f) => f.path)).toEqual([
      'mid',
      'big',
      'second',
    ]);
  });

  it('on a tie in chars keeps the file reported first', () => {
    const files = [
      fileEmission('a', '', 5),
      fileEmission('b', '', 9),
      fileEmission('c', '', 5),
      fileEmission('d', '', 5),
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
      fileEmission('x', '1-2', 4),
      fileEmission('y', '', 6),
      fileEmission('x', '5-6', 4),
      fileEmission('z', '', 7),
    ];
    expect(filesOf(emission({ files }), { maxFilesPerCall: 2 })).toEqual([
      fileEmission('x', '1-2, 5-6', 8),
      fileEmission('z', '', 7),
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
        files: [fileEmission('a', '', 1, 'fp'), fileEmission('a')],
      }),
    );
    expect(none).toEqual([fileEmission('a', '', 2)]);
    const other = filesOf(
      emission({
        files: [
          fileEmission('a', '', 1, 'fp'),
          fileEmission('a', '', 1, 'fp'),
          fileEmission('a', '', 1, 'other'),
        ],
      }),
    );
    expect(other).toEqual([fileEmission('a', '', 3)]);
  });

  it('never gains a fingerprint the first entry lacked', () => {
    const files = filesOf(
      emission({
        files: [fileEmission('a'), fileEmission('a', '', 1, 'fp'), fileEmission('a', '', 1, 'fp')],
      }),
    );
    expect(files).toEqual([fileEmission('a', '', 3)]);
  });

  it('keeps the fingerprint all entries agree on', () => {
    const files = filesOf(
      emission({
        files: [
          fileEmission('a', '3-4', 1, 'fp'),
          fileEmission('a', '1-2', 2, 'fp'),
          fileEmission('a', '9', 3, 'fp'),
        ],
      }),
    );
    expect(files).toEqual([fileEmission('a', '1-4, 9', 6, 'fp')]);
  });

  it('reads a merged entry whose ranges are not a list, or are unreadable, as no spans', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const files = filesOf(
      emission({
        files: [
          fileEmission('a', '1-2'),
          { ...fileEmission('a'), ranges: 'lines 5-9' as never },
          fileEmission('a', proxy),
          fileEmission('a', '7-8'),
        ],
      }),
    );
    expect(files).toEqual([fileEmission('a', '1-2, 7-8', 4)]);
  });

  it('reads past a member whose getter throws in a merged entry', () => {
    const hostile = [span(1), null, span(3)];
    Object.defineProperty(hostile, 1, {
      get(): never {
        throw new Error('hostile member');
      },
    });
    const files = filesOf(
      emission({
        files: [fileEmission('a', '10'), { ...fileEmission('a'), ranges: hostile as never }],
      }),
    );
    expect(files[0]!.ranges).toEqual(ranges('1, 3, 10'));
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
    const [file] = filesOf(emission({ files: [fileEmission('a', spans(n))] }), {
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
          { ...fileEmission('a'), rangesTruncated: true },
          { ...fileEmission('b'), rangesTruncated: 'yes' as never },
          { ...fileEmission('c'), rangesTruncated: false },
        ],
      }),
    );
    expect(files.map((f) => f.rangesTruncated)).toEqual([true, undefined, undefined]);
  });

  it('a merged path is truncated when any of its entries was', () => {
    const later = filesOf(
      emission({
        files: [
          fileEmission('a'),
          { ...fileEmission('a'), rangesTruncated: true },
          fileEmission('a'),
        ],
      }),
    );
    expect(later[0]!.rangesTruncated).toBe(true);
    const first = filesOf(
      emission({
        files: [{ ...fileEmission('a'), rangesTruncated: true }, fileEmission('a')],
      }),
    );
    expect(first[0]!.rangesTruncated).toBe(true);
    const none = filesOf(
      emission({
        files: [fileEmission('a'), { ...fileEmission('a'), rangesTruncated: 'yes' as never }],
      }),
    );
    expect(none[0]).not.toHaveProperty('rangesTruncated');
  });

  it('merged spans that fit are not truncated, even when the entries together had more', () => {
    const [file] = filesOf(
      emission({
        files: [fileEmission('a', '1-5'), fileEmission('a', '6-9')],
      }),
      { maxRangesPerFile: 1 },
    );
    expect(file).toEqual(fileEmission('a', '1-9', 2));
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

  it('the limits of a foreign ledger: each usable field is taken, the rest default', () => {
    expect(
      limitsRead({
        maxProjects: 0,
        maxCallsRetained: -1,
        maxFilesPerCall: 2.5,
        maxRangesPerFile: '3',
        maxViewCalls: 9,
        maxRangesRetained: null,
        maxViewRanges: 7,
      }),
    ).toEqual({ ...DEFAULT_LIMITS, maxProjects: 0, maxViewCalls: 9, maxViewRanges: 7 });
    // The default values themselves are pinned in ledger.range-bounds.test.ts.
    expect(limitsRead(null)).toEqual(DEFAULT_LIMITS);
    expect(limitsRead(undefined)).toEqual(DEFAULT_LIMITS);
    expect(limitsRead(DEFAULT_LIMITS)).toEqual(DEFAULT_LIMITS);
  });

  it('a reducer reading unusable limits falls back to the defaults', () => {
    const junk = { ...createLedger(), limits: { maxCallsRetained: 'x' } } as unknown as Ledger;
    let ledger = junk;
    for (let i = 0; i < 10; i++) ledger = record(ledger);
    expect(ledger.entries[0]!.project.calls.map((c) => c.index)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
