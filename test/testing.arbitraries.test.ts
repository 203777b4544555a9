/**
 * The arbitraries of span-ledger/testing deliver what their documentation
 * promises: the valid ones stay valid and within their options, and the hostile
 * ones really produce every kind of bad input they list. A property suite
 * that draws from an arbitrary which silently stopped producing, say, NaN or a
 * throwing getter would go on passing while testing less; these tests sample
 * each arbitrary with a fixed seed and look for every promised kind.
 */
import { types } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLineRange, type LineRange } from '../src/index.js';
import {
  disguisedRangeArb,
  emissionArb,
  fileEmissionArb,
  hostileEmissionArb,
  hostileLedgerEventArb,
  hostileRangeArb,
  hostileRangeSetArb,
  invalidRangeArb,
  ledgerEventArb,
  lineRangeArb,
  notASetArb,
  rangeSetArb,
  sessionArb,
  withJunkArb,
} from '../src/testing/index.js';

const SEED = 20240601;

function sample<T>(arb: fc.Arbitrary<T>, numRuns = 2000): T[] {
  return fc.sample(arb, { numRuns, seed: SEED });
}

/**
 * Samples at fast-check's largest size: at the default size arrays stop at 10
 * members and strings at 10 chars whatever bound is given, so only here do the
 * arbitraries' own bounds show.
 */
function sampleLarge<T>(make: () => fc.Arbitrary<T>, numRuns = 2000): T[] {
  const before = fc.readConfigureGlobal();
  fc.configureGlobal({ ...before, baseSize: 'xlarge' });
  try {
    // Built here: an arbitrary settles its size when it is built.
    return sample(make(), numRuns);
  } finally {
    fc.resetConfigureGlobal();
    fc.configureGlobal(before);
  }
}

/** Reads `key` of `value`, or the string 'throws' when reading throws. */
function peek(value: unknown, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return 'throws';
  }
}

/** A range of two safe-integer lines in the wrong order, its end at line 1 or later. */
function isReversed(r: { start: unknown; end: unknown }): boolean {
  return (
    Number.isSafeInteger(peek(r, 'start')) &&
    Number.isSafeInteger(peek(r, 'end')) &&
    (r.start as number) > (r.end as number) &&
    (r.end as number) >= 1
  );
}

/** A stable label for a value, telling apart what `===` and JSON would confuse. */
function label(value: unknown): string {
  if (Object.is(value, -0)) return '-0';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'symbol') return 'symbol';
  if (typeof value === 'function') return `function ${value.name}`;
  if (types.isProxy(value)) return 'proxy';
  if (Array.isArray(value)) return `[${value.map(label).join(',')}]`;
  if (value !== null && typeof value === 'object') return 'object';
  return String(value);
}

/** The numbers (and non-numbers) invalidRangeArb promises in either end of a range. */
const BAD_NUMBERS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  String(2 ** 53),
  String(2 ** 53 + 2),
  String(-(2 ** 53)),
  '1.5',
  String(Number.EPSILON),
  String(Number.MAX_VALUE),
  String(Number.MIN_VALUE),
  '"1"',
  '"7"',
  '""',
  'null',
  'undefined',
  'true',
  '10n',
  '[3]',
  'object',
];

describe('lineRangeArb', () => {
  it('gives valid ranges within maxLine, reaching both ends of it', () => {
    const small = sample(lineRangeArb({ maxLine: 5 }));
    expect(small.every((r) => isLineRange(r) && r.end <= 5)).toBe(true);
    expect(small.some((r) => r.start === 1)).toBe(true);
    expect(small.some((r) => r.end === 5)).toBe(true);
    expect(small.some((r) => r.start === r.end)).toBe(true);
    expect(small.some((r) => r.start < r.end)).toBe(true);
  });

  it('defaults maxLine to 200', () => {
    const ends = sample(lineRangeArb()).map((r) => r.end);
    expect(Math.max(...ends)).toBe(200);
  });
});

describe('invalidRangeArb', () => {
  // Drawn inside each test, not when the file loads: a run that maps each test to the code it
  // reaches then finds the test that checks each kind.
  const draw = () => sample(invalidRangeArb({ maxLine: 9 }), 4000);

  it('never gives a valid range', () => {
    const values = draw();
    expect(values.filter((v) => isLineRange(v))).toEqual([]);
  });

  it('puts every bad number in the start and in the end', () => {
    const values = draw();
    const objects = values.filter(
      (v): v is Record<string, unknown> =>
        typeof v === 'object' && v !== null && !Array.isArray(v) && !types.isProxy(v),
    );
    const starts = new Set(objects.map((o) => label(peek(o, 'start'))));
    const ends = new Set(objects.map((o) => label(peek(o, 'end'))));
    for (const bad of BAD_NUMBERS) {
      expect(starts, `start ${bad}`).toContain(bad);
      expect(ends, `end ${bad}`).toContain(bad);
    }
  });

  it('gives reversed ranges, string ends, tuples and frozen fractions', () => {
    const values = draw();
    const plain = values.filter(
      (v): v is { start: unknown; end: unknown } =>
        typeof v === 'object' && v !== null && !types.isProxy(v) && 'start' in v && 'end' in v,
    );
    const reversed = plain.filter(isReversed);
    expect(reversed.length).toBeGreaterThan(0);
    expect(
      plain.some(
        (r) =>
          typeof peek(r, 'start') === 'string' &&
          typeof peek(r, 'end') === 'string' &&
          /^\d+$/.test(r.start as string),
      ),
    ).toBe(true);
    const tuples = values.filter((v) => Array.isArray(v) && !types.isProxy(v)) as unknown[][];
    expect(tuples.some((t) => t.length === 2 && t.every((x) => Number.isSafeInteger(x)))).toBe(
      true,
    );
    const frozen = plain.filter((r) => Object.isFrozen(r) && peek(r, 'start') !== 'throws');
    expect(frozen.length).toBeGreaterThan(0);
    for (const r of frozen) {
      expect(Number.isInteger(r.start)).toBe(false);
      expect(Number.isSafeInteger(r.end)).toBe(true);
    }
  });

  it('gives the bare constants it lists', () => {
    const values = draw();
    const labels = new Set(values.map(label));
    for (const c of [
      'null',
      'undefined',
      '0',
      '1',
      '"L1-3"',
      'true',
      'symbol',
      'function Number',
    ]) {
      expect(labels, c).toContain(c);
    }
  });

  it('gives getters that throw on start and on end, reading the other end fine', () => {
    const values = draw();
    const getters = values.filter(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        !types.isProxy(v) &&
        (peek(v, 'start') === 'throws' || peek(v, 'end') === 'throws'),
    );
    expect(
      getters.some((g) => peek(g, 'start') === 'throws' && Number.isSafeInteger(peek(g, 'end'))),
    ).toBe(true);
    expect(
      getters.some((g) => peek(g, 'end') === 'throws' && Number.isSafeInteger(peek(g, 'start'))),
    ).toBe(true);
    for (const g of getters) {
      const which = peek(g, 'start') === 'throws' ? 'start' : 'end';
      expect(fc.stringify(g)).toBe(`throwingGetter(${which})`);
      expect(() => (g as Record<string, unknown>)[which]).toThrow(`hostile ${which} getter`);
      expect(Object.keys(g as object)).toContain(which);
    }
  });

  it('gives proxies that throw on reads, one of them an array, and a prototype-less object', () => {
    const values = draw();
    const proxies = values.filter((v) => types.isProxy(v)) as object[];
    expect(proxies.some((p) => Array.isArray(p))).toBe(true);
    expect(proxies.some((p) => !Array.isArray(p))).toBe(true);
    for (const p of proxies) {
      expect(() => (p as { start?: unknown }).start).toThrow(/hostile proxy: get start/);
      expect(() => 'start' in p).toThrow(/hostile proxy: has start/);
      expect(() => Object.keys(p)).toThrow(/hostile proxy: ownKeys/);
      expect((p as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
      expect(Symbol.iterator in p).toBe(false);
    }
    expect(fc.stringify(proxies.find((p) => Array.isArray(p)))).toBe('hostileArrayProxy');
    expect(fc.stringify(proxies.find((p) => !Array.isArray(p)))).toBe('hostileProxy');
    expect(
      values.some((v) => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === null),
    ).toBe(true);
  });
});

describe('invalidRangeArb: the lines it does use stay within maxLine', () => {
  const values = sample(invalidRangeArb({ maxLine: 9 }), 4000);
  const plain = values.filter(
    (v): v is { start: unknown; end: unknown } =>
      typeof v === 'object' && v !== null && !types.isProxy(v) && !Array.isArray(v),
  );

  it('reverses two lines of 1..maxLine, reaching maxLine', () => {
    const reversed = plain.filter(isReversed);
    const starts = reversed.map((r) => r.start as number);
    expect(Math.max(...starts)).toBe(9);
    expect(Math.min(...reversed.map((r) => r.end as number))).toBe(1);
  });

  it('defaults maxLine to 200 for its lines', () => {
    const reversedStarts = sample(invalidRangeArb(), 4000)
      .filter(
        (v): v is { start: number; end: number } =>
          typeof v === 'object' &&
          v !== null &&
          !types.isProxy(v) &&
          Number.isSafeInteger(peek(v, 'start')) &&
          Number.isSafeInteger(peek(v, 'end')) &&
          (v as { end: number }).end >= 1,
      )
      .filter((r) => r.start > r.end)
      .map((r) => r.start);
    expect(Math.max(...reversedStarts)).toBe(200);
  });

  it('freezes a fraction a half past a line, with an end one past another', () => {
    const frozen = plain.filter((r) => Object.isFrozen(r) && peek(r, 'start') !== 'throws');
    const starts = frozen.map((r) => r.start as number);
    const ends = frozen.map((r) => r.end as number);
    expect(starts.every((s) => Number.isInteger(s - 0.5) && s >= 1.5 && s <= 9.5)).toBe(true);
    expect(ends.every((e) => Number.isInteger(e) && e >= 2 && e <= 10)).toBe(true);
    expect([Math.min(...starts), Math.max(...starts)]).toEqual([1.5, 9.5]);
    expect([Math.min(...ends), Math.max(...ends)]).toEqual([2, 10]);
  });

  it('puts nothing behind a hostile proxy: a read past its traps finds it empty', () => {
    const proxies = values.filter((v) => types.isProxy(v)) as object[];
    const arrays = proxies.filter((p) => Array.isArray(p));
    expect(arrays.length).toBeGreaterThan(0);
    for (const p of arrays) {
      expect(Object.getOwnPropertyDescriptor(p, 'length')?.value).toBe(0);
      expect(Object.getOwnPropertyDescriptor(p, '0')).toBeUndefined();
    }
  });
});

describe('disguisedRangeArb', () => {
  const values = sample(disguisedRangeArb({ maxLine: 30 }), 1000);

  it('stays valid, within maxLine', () => {
    expect(values.every((r) => isLineRange(r) && r.end <= 30)).toBe(true);
  });

  it('dresses ranges up in every promised way', () => {
    expect(values.some((r) => Object.isFrozen(r))).toBe(true);
    expect(values.some((r) => types.isProxy(r))).toBe(true);
    expect(values.some((r) => (r as { self?: unknown }).self === r)).toBe(true);
    const inherited = values.filter((r) => !Object.hasOwn(r, 'start'));
    expect(inherited.length).toBeGreaterThan(0);
    for (const r of inherited) expect(Object.hasOwn(r, 'end')).toBe(true);
    expect(
      values.some(
        (r) =>
          !Object.isFrozen(r) &&
          !types.isProxy(r) &&
          Object.hasOwn(r, 'start') &&
          Object.keys(r).length === 2,
      ),
    ).toBe(true);
  });
});

describe('hostileRangeArb and the set arbitraries', () => {
  it('hostileRangeArb mixes valid, disguised and invalid members', () => {
    const values = sample(hostileRangeArb({ maxLine: 20 }), 1000);
    const valid = values.filter((v) => isLineRange(v));
    expect(valid.length).toBeGreaterThan(values.length / 3);
    expect(valid.length).toBeLessThan(values.length);
    expect(valid.some((v) => Object.isFrozen(v) || types.isProxy(v))).toBe(true);
    expect((valid as LineRange[]).every((r) => r.end <= 20)).toBe(true);
  });

  it('rangeSetArb keeps to maxLength (default 12) and draws valid members', () => {
    const sets = sampleLarge(() => rangeSetArb({ maxLine: 50 }));
    expect(Math.max(...sets.map((s) => s.length))).toBe(12);
    expect(sets.every((s) => s.every((r) => isLineRange(r) && r.end <= 50))).toBe(true);
    expect(Math.max(...sample(rangeSetArb({ maxLength: 3 })).map((s) => s.length))).toBe(3);
  });

  it('hostileRangeSetArb gives dense sets up to maxLength and sparse ones up to twice that', () => {
    const sets = sample(hostileRangeSetArb({ maxLength: 4 }), 3000);
    const sparse = sets.filter((s) => s.length > Object.keys(s).length);
    expect(sparse.length).toBeGreaterThan(0);
    expect(Math.max(...sets.map((s) => s.length))).toBe(8);
    const dense = sets.filter((s) => s.length === Object.keys(s).length);
    expect(dense.some((s) => s.some((m) => !isLineRange(m)))).toBe(true);
    expect(Math.max(...sample(hostileRangeSetArb(), 3000).map((s) => s.length))).toBe(24);
  });

  it('notASetArb gives non-arrays, an array-like object and throwing proxies', () => {
    const values = sample(notASetArb(), 1000);
    const labels = new Set(values.filter((v) => !types.isProxy(v)).map(label));
    for (const c of ['null', 'undefined', '0', 'NaN', '"L1-9"']) expect(labels, c).toContain(c);
    const objects = values.filter(
      (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !types.isProxy(v),
    );
    expect(objects.some((o) => Object.keys(o).length === 0)).toBe(true);
    expect(objects.some((o) => o.length === 3 && !(0 in o))).toBe(true);
    expect(
      objects.some(
        (o) => o.length === 1 && (o[0] as LineRange).start === 1 && (o[0] as LineRange).end === 3,
      ),
    ).toBe(true);
    const proxies = values.filter((v) => types.isProxy(v));
    expect(proxies.some((p) => Array.isArray(p))).toBe(true);
    expect(proxies.some((p) => !Array.isArray(p))).toBe(true);
  });

  it('withJunkArb interleaves 1 to 6 invalid members into the valid set, in order', () => {
    for (const { valid, mixed } of sample(withJunkArb({ maxLine: 30 }), 500)) {
      const junk = mixed.length - valid.length;
      expect(junk).toBeGreaterThanOrEqual(1);
      expect(junk).toBeLessThanOrEqual(6);
      expect(mixed.filter((m) => valid.includes(m as LineRange))).toEqual(valid);
      expect(mixed.filter((m) => !valid.includes(m as LineRange)).some((m) => isLineRange(m))).toBe(
        false,
      );
    }
    const positions = sample(withJunkArb(), 500).map(({ valid, mixed }) =>
      valid.length === 0 ? -1 : mixed.findIndex((m) => !valid.includes(m as LineRange)),
    );
    expect(positions.some((p) => p === 0)).toBe(true);
    expect(positions.some((p) => p > 0)).toBe(true);
  });

  it('withJunkArb puts junk before, between and after the valid members', () => {
    // For each mixed set of at least two valid members: which of its members are valid.
    const layouts = sample(withJunkArb({ maxLine: 30 }), 500)
      .filter(({ valid }) => valid.length >= 2)
      .map(({ valid, mixed }) => mixed.map((m) => valid.includes(m as LineRange)));
    expect(layouts.some((isValid) => isValid[0] === false)).toBe(true);
    expect(
      layouts.some(
        (isValid) =>
          isValid.indexOf(false) > isValid.indexOf(true) &&
          isValid.indexOf(false) < isValid.lastIndexOf(true),
      ),
    ).toBe(true);
    expect(layouts.some((isValid) => isValid.at(-1) === false)).toBe(true);
  });
});

const DEFAULT_PATHS = ['src/a.ts', 'src/b.ts', 'lib/c.ts', '__proto__', 'constructor'];
const DEFAULT_ROOTS = ['/repo', '/repo/', '/other', 'C:\\work\\x'];
const DEFAULT_FINGERPRINTS = ['10:aaaaaaaaaaaaaaaa', '10:bbbbbbbbbbbbbbbb', '12:cccccccccccccccc'];

describe('emission arbitraries', () => {
  it('fileEmissionArb draws from the default paths and fingerprints, within its bounds', () => {
    const files = sample(fileEmissionArb());
    expect(new Set(files.map((f) => f.path))).toEqual(new Set(DEFAULT_PATHS));
    const fps = new Set(files.map((f) => f.fingerprint));
    expect(fps).toEqual(new Set([...DEFAULT_FINGERPRINTS, undefined]));
    expect(files.some((f) => !('fingerprint' in f))).toBe(true);
    expect(Math.max(...files.map((f) => f.ranges.length))).toBe(6);
    expect(
      files.every((f) => Number.isSafeInteger(f.chars) && f.chars >= 0 && f.chars <= 20_000),
    ).toBe(true);
    expect(Math.max(...files.map((f) => f.chars))).toBeGreaterThan(10_000);
  });

  it('fileEmissionArb and emissionArb take paths, roots, fingerprints and sizes from options', () => {
    const options = {
      paths: ['x.ts'],
      roots: ['/r'],
      fingerprints: ['1:0000000000000000'],
      maxFiles: 2,
      maxLength: 2,
    };
    const emissions = sample(emissionArb(options), 500);
    expect(new Set(emissions.map((e) => e.projectRoot))).toEqual(new Set(['/r']));
    expect(Math.max(...emissions.map((e) => e.files.length))).toBe(2);
    const files = emissions.flatMap((e) => e.files);
    expect(new Set(files.map((f) => f.path))).toEqual(new Set(['x.ts']));
    expect(new Set(files.map((f) => f.fingerprint))).toEqual(
      new Set(['1:0000000000000000', undefined]),
    );
    expect(Math.max(...files.map((f) => f.ranges.length))).toBe(2);
  });

  it('emissionArb gives well-formed calls over the default roots', () => {
    const emissions = sampleLarge(() => emissionArb());
    expect(new Set(emissions.map((e) => e.projectRoot))).toEqual(new Set(DEFAULT_ROOTS));
    expect(Math.max(...emissions.map((e) => e.files.length))).toBe(6);
    expect(Math.max(...emissions.map((e) => e.query.length))).toBe(12);
    for (const e of emissions) {
      expect(e.sourceChars).toBeGreaterThanOrEqual(0);
      expect(e.sourceChars).toBeLessThanOrEqual(100_000);
      expect(e.responseChars).toBeGreaterThanOrEqual(0);
      expect(e.responseChars).toBeLessThanOrEqual(200_000);
    }
    expect(Math.max(...emissions.map((e) => e.responseChars))).toBeGreaterThan(100_000);
  });

  it('hostileEmissionArb mixes good emissions with junk in every field', () => {
    const values = sample(hostileEmissionArb(), 3000);
    const objects = values.filter(
      (v): v is Record<string, unknown> =>
        typeof v === 'object' && v !== null && !types.isProxy(v) && 'files' in v,
    );
    const roots = new Set(objects.map((o) => label(o.projectRoot)));
    for (const r of [
      '""',
      '"__proto__"',
      '"constructor"',
      '"hasOwnProperty"',
      '42',
      'null',
      'undefined',
    ]) {
      expect(roots, r).toContain(r);
    }
    for (const r of DEFAULT_ROOTS) expect(roots).toContain(JSON.stringify(r));
    const queries = new Set(objects.map((o) => typeof o.query));
    expect(queries).toContain('string');
    expect(queries).toContain('number');
    const files = objects.filter((o) => Array.isArray(o.files) && !types.isProxy(o.files));
    expect(
      files.some((o) => (o.files as unknown[]).length > Object.keys(o.files as object).length),
    ).toBe(true);
    expect(objects.some((o) => !Array.isArray(o.files) || types.isProxy(o.files))).toBe(true);
    const members = files.flatMap((o) => Object.values(o.files as unknown[]));
    const memberObjects = members.filter(
      (m): m is Record<string, unknown> =>
        typeof m === 'object' && m !== null && !types.isProxy(m) && 'chars' in m,
    );
    const counts = new Set(memberObjects.map((m) => label(m.chars)));
    expect(counts).toContain('NaN');
    expect(counts).toContain('-1');
    expect(memberObjects.some((m) => !Array.isArray(m.ranges) || types.isProxy(m.ranges))).toBe(
      true,
    );
    expect(memberObjects.some((m) => m.fingerprint === 42)).toBe(true);
    // A proxy throws on `in`: it is not the range-shaped member looked for here.
    expect(
      members.some(
        (m) =>
          typeof m === 'object' &&
          m !== null &&
          !types.isProxy(m) &&
          !('chars' in m) &&
          'start' in m,
      ),
    ).toBe(true);
    expect(objects.some((o) => label(o.sourceChars) === 'Infinity')).toBe(true);
    expect(objects.some((o) => label(o.responseChars) === '"7"')).toBe(true);
    expect(
      values.some(
        (v) =>
          !types.isProxy(v) &&
          isLineRange(v) === false &&
          !(typeof v === 'object' && v !== null && 'files' in v),
      ),
    ).toBe(true);
    expect(objects.some((o) => typeof o.query === 'string' && (o.query as string).length > 4)).toBe(
      true,
    );
  });
});

describe('hostileEmissionArb beyond the well-formed part', () => {
  it('keeps its numeric counts small: junk numbers, or counts up to 1000', () => {
    const values = sampleLarge(() => hostileEmissionArb(), 3000);
    const objects = values.filter(
      (v): v is Record<string, unknown> =>
        typeof v === 'object' && v !== null && !types.isProxy(v) && 'files' in v,
    );
    // A well-formed emission reports up to 100 000 source chars; a junk one up to 1000.
    const junk = objects.filter((o) => typeof o.projectRoot !== 'string');
    expect(junk.length).toBeGreaterThan(20);
    const counts = junk
      .flatMap((o) => [o.sourceChars, o.responseChars])
      .filter((n) => Number.isSafeInteger(n)) as number[];
    expect(Math.max(...counts)).toBeLessThanOrEqual(1000);
    expect(Math.max(...counts)).toBeGreaterThan(500);
  });

  it('sends __proto__ and constructor as root and path, whatever paths it is given', () => {
    const values = sample(hostileEmissionArb({ paths: ['x.ts'], roots: ['/r'] }), 3000);
    const objects = values.filter(
      (v): v is Record<string, unknown> =>
        typeof v === 'object' && v !== null && !types.isProxy(v) && 'files' in v,
    );
    const roots = new Set(objects.map((o) => o.projectRoot));
    const paths = new Set(
      objects
        .filter((o) => Array.isArray(o.files) && !types.isProxy(o.files))
        .flatMap((o) => Object.values(o.files as unknown[]))
        .filter((f) => typeof f === 'object' && f !== null && !types.isProxy(f) && 'path' in f)
        .map((f) => (f as { path: unknown }).path),
    );
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', '']) {
      expect(roots, `root ${name}`).toContain(name);
      expect(paths, `path ${name}`).toContain(name);
    }
    expect(roots).toContain('/r');
    expect(paths).toContain('x.ts');
  });
});

describe('ledger event arbitraries', () => {
  const SESSION_IDS = ['s1', 's2', ' s1 ', '', '   ', '__proto__', 'constructor', 'hasOwnProperty'];

  it('ledgerEventArb gives mostly recorded events, over every session id spelling', () => {
    const events = sample(ledgerEventArb());
    const byType = (t: string) => events.filter((e) => e.type === t).length;
    expect(byType('recorded')).toBeGreaterThan(byType('forgotten') * 3);
    expect(byType('forgotten')).toBeGreaterThan(0);
    expect(byType('cleared')).toBeGreaterThan(0);
    expect(events.every((e) => ['recorded', 'forgotten', 'cleared'].includes(e.type))).toBe(true);
    const recorded = events.filter((e) => e.type === 'recorded');
    expect(recorded.some((e) => !('sessionId' in e))).toBe(true);
    expect(new Set(recorded.map((e) => e.sessionId).filter((id) => id !== undefined))).toEqual(
      new Set(SESSION_IDS),
    );
    expect(new Set(events.filter((e) => e.type === 'forgotten').map((e) => e.sessionId))).toEqual(
      new Set(SESSION_IDS),
    );
  });

  it('hostileLedgerEventArb gives junk ids (a long one of longIdLength), types and events', () => {
    const events = sample(hostileLedgerEventArb({ longIdLength: 300 }), 3000);
    const objects = events.filter(
      (e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !types.isProxy(e),
    );
    const ids = new Set(objects.filter((o) => 'sessionId' in o).map((o) => label(o.sessionId)));
    for (const id of [
      ...SESSION_IDS.map((s) => JSON.stringify(s)),
      '7',
      'null',
      'object',
      '["s1"]',
      'symbol',
    ]) {
      expect(ids, id).toContain(id);
    }
    expect(ids).toContain(JSON.stringify('x'.repeat(300)));
    const typeLabels = new Set(objects.map((o) => label(o.type)));
    for (const t of ['"recorded"', '"forgotten"', '"cleared"', '"RECORDED"', '""', '3', 'null']) {
      expect(typeLabels, t).toContain(t);
    }
    const bare = new Set(events.filter((e) => !types.isProxy(e)).map(label));
    for (const b of ['null', 'undefined', '"cleared"', '0', '[]']) expect(bare, b).toContain(b);
    expect(objects.some((o) => Object.keys(o).length === 0)).toBe(true);
    expect(events.some((e) => types.isProxy(e) && Array.isArray(e))).toBe(true);
    expect(events.some((e) => types.isProxy(e) && !Array.isArray(e))).toBe(true);
    const recorded = objects.filter((o) => o.type === 'recorded' && 'emission' in o);
    expect(recorded.some((o) => typeof o.emission !== 'object' || o.emission === null)).toBe(true);
  });

  it('hostileLedgerEventArb forgets junk ids and sends every type bare, with no other field', () => {
    const events = sample(hostileLedgerEventArb({ longIdLength: 300 }), 3000);
    const objects = events.filter(
      (e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !types.isProxy(e),
    );
    const forgotten = objects.filter((o) => o.type === 'forgotten');
    expect(forgotten.some((o) => 'sessionId' in o && typeof o.sessionId !== 'string')).toBe(true);
    const bare = objects.filter((o) => Object.keys(o).join() === 'type');
    for (const t of ['recorded', 'forgotten', 'cleared', 'RECORDED', '', 3, null]) {
      expect(
        bare.some((o) => o.type === t),
        String(t),
      ).toBe(true);
    }
    // A well-formed `cleared` event is one shared constant; the junk ones are built afresh.
    expect(new Set(bare.filter((o) => o.type === 'cleared')).size).toBeGreaterThan(1);
  });

  it('hostileLedgerEventArb defaults its long id to 1 MiB', () => {
    const ids = sample(hostileLedgerEventArb(), 400)
      .filter((e) => typeof e === 'object' && e !== null && !types.isProxy(e))
      .map((e) => (e as { sessionId?: unknown }).sessionId)
      .filter((id): id is string => typeof id === 'string' && id.length > 1000);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toBe('x'.repeat(1 << 20));
  });
});

describe('sessionArb', () => {
  it('gives files for every path, then calls and edits within its bounds', () => {
    const scripts = sample(sessionArb({ maxLine: 12, maxSteps: 5 }), 1000);
    for (const s of scripts) {
      expect(Object.keys(s.files).sort()).toEqual(['lib/c.ts', 'src/a.ts', 'src/b.ts']);
      expect(s.steps.length).toBeGreaterThanOrEqual(1);
      expect(s.steps.length).toBeLessThanOrEqual(5);
      for (const content of Object.values(s.files)) {
        expect(content.split('\n').length).toBeLessThanOrEqual(12);
      }
    }
    const steps = scripts.flatMap((s) => s.steps);
    const calls = steps.filter((s) => s.kind === 'call');
    const edits = steps.filter((s) => s.kind === 'edit');
    expect(calls.length).toBeGreaterThan(edits.length * 2);
    expect(edits.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(c.ranges.length).toBeGreaterThanOrEqual(1);
      expect(c.ranges.length).toBeLessThanOrEqual(4);
      expect(c.ranges.every((r) => isLineRange(r) && r.end <= 22)).toBe(true);
    }
    // Calls reach past the end of a 12-line file, and by no more than 10 lines.
    expect(Math.max(...calls.flatMap((c) => c.ranges.map((r) => r.end)))).toBe(22);
    expect(Math.max(...scripts.map((s) => s.steps.length))).toBe(5);
    const text = [
      ...scripts.flatMap((s) => Object.values(s.files)),
      ...edits.map((e) => e.content),
    ].join('');
    for (const ch of ['a', 'b', ' ', '{', '}', 'é', '😀', '\n']) expect(text).toContain(ch);
    expect(new Set(text.replace(/\n/g, '')).size).toBe(7);
    expect(new Set(steps.map((s) => s.path))).toEqual(
      new Set(['lib/c.ts', 'src/a.ts', 'src/b.ts']),
    );
  });

  it('takes paths from options and defaults to 10 steps over 120-line files', () => {
    const scripts = sampleLarge(() => sessionArb({ paths: ['only.ts'] }), 500);
    expect(scripts.every((s) => Object.keys(s.files).join() === 'only.ts')).toBe(true);
    expect(Math.max(...scripts.map((s) => s.steps.length))).toBe(10);
    const lines = scripts.map((s) => s.files['only.ts']!.split('\n').length);
    expect(Math.max(...lines)).toBeLessThanOrEqual(120);
    expect(Math.max(...lines)).toBeGreaterThan(12);
    const ends = scripts.flatMap((s) =>
      s.steps.flatMap((st) => (st.kind === 'call' ? st.ranges.map((r) => r.end) : [])),
    );
    expect(Math.max(...ends)).toBeLessThanOrEqual(130);
    expect(Math.max(...ends)).toBeGreaterThan(120);
  });
});

describe('the arbitraries print and compose', () => {
  it('hostile values print for a counterexample, and throw on any other read', () => {
    const seen = new Set<string>();
    for (const value of fc.sample(fc.oneof(invalidRangeArb(), notASetArb(), hostileRangeSetArb()), {
      numRuns: 400,
      seed: 3,
    })) {
      const printed = fc.stringify(value);
      for (const marker of ['throwingGetter(start)', 'throwingGetter(end)', 'hostileProxy'])
        if (printed.includes(marker)) seen.add(marker);
      if (printed === 'hostileProxy' || printed === 'hostileArrayProxy') {
        const proxy = value as object;
        expect(Symbol.iterator in proxy).toBe(false);
        expect((proxy as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
        expect(() => 'start' in proxy).toThrow(/hostile proxy/);
        expect(() => Object.keys(proxy)).toThrow(/hostile proxy/);
        expect(() => (proxy as { start?: unknown }).start).toThrow(/hostile proxy/);
      }
    }
    expect([...seen].sort()).toEqual([
      'hostileProxy',
      'throwingGetter(end)',
      'throwingGetter(start)',
    ]);
  });

  it('sessionArb: calls and edits over the given files, valid ranges, at least one step', () => {
    fc.assert(
      fc.property(sessionArb({ paths: ['x.ts', 'y.ts'], maxLine: 20, maxSteps: 5 }), (script) => {
        expect(Object.keys(script.files).sort()).toEqual(['x.ts', 'y.ts']);
        for (const content of Object.values(script.files)) {
          expect(content.split('\n').length).toBeLessThanOrEqual(20);
        }
        expect(script.steps.length).toBeGreaterThanOrEqual(1);
        expect(script.steps.length).toBeLessThanOrEqual(5);
        for (const step of script.steps) {
          expect(['x.ts', 'y.ts']).toContain(step.path);
          if (step.kind === 'call') {
            expect(step.ranges.length).toBeGreaterThanOrEqual(1);
            for (const r of step.ranges) {
              expect(isLineRange(r)).toBe(true);
              expect(r.end).toBeLessThanOrEqual(30);
            }
          } else {
            expect(typeof step.content).toBe('string');
          }
        }
      }),
      { numRuns: 60, seed: 5 },
    );
  });

  it('sessionArb draws both kinds of step with its defaults', () => {
    const kinds = new Set(
      fc.sample(sessionArb(), { numRuns: 40, seed: 9 }).flatMap((s) => s.steps.map((x) => x.kind)),
    );
    expect([...kinds].sort()).toEqual(['call', 'edit']);
  });
});
