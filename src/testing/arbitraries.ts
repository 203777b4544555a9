/**
 * fast-check arbitraries for line ranges, range sets, emissions, ledger events
 * and whole sessions: the inputs the property tests and the fuzzer draw from.
 *
 * Valid arbitraries keep line numbers small (the reference model expands
 * ranges line by line). Hostile arbitraries produce what a JavaScript caller can
 * really pass: NaN, ±Infinity, -0, 2^53, fractions, strings, getters that throw,
 * throwing proxies, frozen and cyclic objects, sparse arrays. Not a runtime
 * dependency of the library: only `span-ledger/testing` imports fast-check.
 */
import * as fc from 'fast-check';
import type { Emission, FileEmission } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';

/**
 * Sizes for the range arbitraries.
 */
export interface RangeArbitraryOptions {
  /** The largest line a valid range may reach (default 200). */
  readonly maxLine?: number;
  /** The largest number of members in a set (default 12). */
  readonly maxLength?: number;
}

/**
 * A valid range with `1 <= start <= end <= maxLine`.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { isLineRange } from 'span-ledger';
 *
 * fc.assert(fc.property(lineRangeArb({ maxLine: 50 }), (r) => isLineRange(r) && r.end <= 50));
 * ```
 */
export function lineRangeArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<LineRange> {
  const maxLine = options.maxLine ?? 200;
  return fc
    .tuple(fc.integer({ min: 1, max: maxLine }), fc.integer({ min: 1, max: maxLine }))
    .map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) }));
}

/** A number that is never a valid line: each a way a caller gets it wrong. */
const badNumber: fc.Arbitrary<unknown> = /* @__PURE__ */ fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  0,
  -1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1.5,
  Number.EPSILON,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  '1',
  '7',
  '',
  null,
  undefined,
  true,
  10n,
  [3],
  {},
);

/** An object whose `start` (or `end`) getter throws. */
function throwingGetter(which: 'start' | 'end', other: number): object {
  const o: Record<PropertyKey, unknown> = {
    [which === 'start' ? 'end' : 'start']: other,
    [fc.toStringMethod]: () => `throwingGetter(${which})`,
  };
  Object.defineProperty(o, which, {
    enumerable: true,
    get(): never {
      throw new Error(`hostile ${which} getter`);
    },
  });
  return o;
}

/**
 * A proxy that throws on every string-keyed read, `in` check and key listing.
 * Symbol-keyed reads answer `undefined` (fast-check itself probes generated
 * values through symbols, and a value it cannot hold is one it cannot shrink),
 * except fast-check's `toStringMethod`, so a counterexample still prints.
 * (A revoked proxy, which throws even on `Array.isArray`, cannot be generated
 * for the same reason: test it by hand.) With `asArray` the target is an
 * array, so the proxy passes `Array.isArray` and then throws on `length`.
 */
function hostileProxy(asArray: boolean): object {
  const boom = (what: string): never => {
    throw new Error(`hostile proxy: ${what}`);
  };
  const label = (): string => (asArray ? 'hostileArrayProxy' : 'hostileProxy');
  return new Proxy(asArray ? [] : {}, {
    get: (_t, key) =>
      key === fc.toStringMethod ? label : typeof key === 'symbol' ? undefined : boom(`get ${key}`),
    has: (_t, key) =>
      key === fc.toStringMethod ? true : typeof key === 'symbol' ? false : boom(`has ${key}`),
    ownKeys: () => boom('ownKeys'),
  });
}

/**
 * Anything that is not a valid range but that a JavaScript caller can pass where
 * one belongs: bad numbers in either end, `start > end`, line 0, strings, null,
 * tuples, getters that throw, proxies that throw on every read.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { isLineRange } from 'span-ledger';
 *
 * fc.assert(fc.property(invalidRangeArb(), (r) => !isLineRange(r)));
 * ```
 */
export function invalidRangeArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const maxLine = options.maxLine ?? 200;
  const line = fc.integer({ min: 1, max: maxLine });
  return fc.oneof(
    fc.tuple(badNumber, line).map(([start, end]) => ({ start, end })),
    fc.tuple(line, badNumber).map(([start, end]) => ({ start, end })),
    fc
      .tuple(line, line)
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => ({ start: Math.max(a, b), end: Math.min(a, b) })),
    fc.tuple(line, line).map(([a, b]) => ({ start: String(a), end: String(b) })),
    fc.tuple(line, line).map(([a, b]) => [a, b]),
    fc.tuple(line, line).map(([a, b]) => Object.freeze({ start: a + 0.5, end: b + 1 })),
    fc.constantFrom<unknown>(null, undefined, 0, 1, 'L1-3', true, Symbol('range'), Number),
    fc
      .tuple(fc.constantFrom<'start' | 'end'>('start', 'end'), line)
      .map(([w, o]) => throwingGetter(w, o)),
    fc.boolean().map((asArray) => hostileProxy(asArray)),
    fc.constant(Object.create(null) as unknown),
  );
}

/**
 * A valid range dressed up the way hostile callers send them: frozen, behind a
 * transparent proxy, with a cycle, with an inherited `start`, or plain. Still
 * valid, so it must count exactly like the plain range.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { isLineRange } from 'span-ledger';
 *
 * fc.assert(fc.property(disguisedRangeArb(), (r) => isLineRange(r)));
 * ```
 */
export function disguisedRangeArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<LineRange> {
  return fc
    .tuple(lineRangeArb(options), fc.integer({ min: 0, max: 4 }))
    .map(([r, how]): LineRange => {
      switch (how) {
        case 0:
          return Object.freeze({ ...r });
        case 1:
          return new Proxy({ ...r }, {});
        case 2: {
          const o: { start: number; end: number; self?: unknown } = { ...r };
          o.self = o;
          return o;
        }
        case 3:
          return Object.assign(Object.create({ start: r.start }), { end: r.end }) as LineRange;
        default:
          return { ...r };
      }
    });
}

/**
 * A member of a hostile set: mostly valid ranges (some disguised), otherwise
 * anything {@link invalidRangeArb} produces.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { mergeRanges } from 'span-ledger';
 *
 * fc.assert(fc.property(hostileRangeArb(), (r) => mergeRanges([r as LineRange]).length <= 1));
 * ```
 */
export function hostileRangeArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: lineRangeArb(options), weight: 3 },
    { arbitrary: disguisedRangeArb(options), weight: 1 },
    { arbitrary: invalidRangeArb(options), weight: 2 },
  );
}

/**
 * An array of valid ranges, unsorted, overlapping and adjacent.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { countLines, mergeRanges } from 'span-ledger';
 *
 * fc.assert(fc.property(rangeSetArb(), (set) => countLines(set) === countLines(mergeRanges(set))));
 * ```
 */
export function rangeSetArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<LineRange[]> {
  return fc.array(lineRangeArb(options), { maxLength: options.maxLength ?? 12 });
}

/**
 * An array mixing valid, disguised and invalid members, sometimes sparse (holes
 * read as `undefined`).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { isLineRange, mergeRanges } from 'span-ledger';
 *
 * fc.assert(fc.property(hostileRangeSetArb(), (set) => mergeRanges(set as LineRange[]).every(isLineRange)));
 * ```
 */
export function hostileRangeSetArb(options: RangeArbitraryOptions = {}): fc.Arbitrary<unknown[]> {
  const maxLength = options.maxLength ?? 12;
  return fc.oneof(
    fc.array(hostileRangeArb(options), { maxLength }),
    fc.sparseArray(hostileRangeArb(options), { maxLength: maxLength * 2 }),
  );
}

/**
 * Something passed where a set of ranges belongs that is not an array at all,
 * or an array whose index getters throw.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { mergeRanges } from 'span-ledger';
 *
 * fc.assert(fc.property(notASetArb(), (x) => mergeRanges(x as LineRange[]).length === 0));
 * ```
 */
export function notASetArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, undefined, 0, Number.NaN, 'L1-9', {}, { length: 3 }),
    fc.constant(null).map(() => ({ 0: { start: 1, end: 3 }, length: 1 })),
    fc.boolean().map((asArray) => hostileProxy(asArray)),
  );
}

/**
 * A valid set and invalid members interleaved into it at random positions:
 * `{ valid, mixed }`, where dropping every invalid member of `mixed` leaves
 * exactly `valid`, in order.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { countLines } from 'span-ledger';
 *
 * fc.assert(fc.property(withJunkArb(), ({ valid, mixed }) =>
 *   countLines(valid) === countLines(mixed as LineRange[])));
 * ```
 */
export function withJunkArb(
  options: RangeArbitraryOptions = {},
): fc.Arbitrary<{ valid: LineRange[]; mixed: unknown[] }> {
  return fc
    .tuple(
      rangeSetArb(options),
      fc.array(fc.tuple(invalidRangeArb(options), fc.nat()), { minLength: 1, maxLength: 6 }),
    )
    .map(([valid, junk]) => {
      const mixed: unknown[] = [...valid];
      for (const [bad, at] of junk) mixed.splice(at % (mixed.length + 1), 0, bad);
      return { valid, mixed };
    });
}

/**
 * Options for the emission and session arbitraries.
 */
export interface EmissionArbitraryOptions extends RangeArbitraryOptions {
  /** Paths files are drawn from (default a handful, including `__proto__`). */
  readonly paths?: readonly string[];
  /** Project roots emissions are drawn from. */
  readonly roots?: readonly string[];
  /** Fingerprints files are drawn from (few, so records collide). */
  readonly fingerprints?: readonly string[];
  /** Largest number of files per emission (default 6). */
  readonly maxFiles?: number;
}

const DEFAULT_PATHS = ['src/a.ts', 'src/b.ts', 'lib/c.ts', '__proto__', 'constructor'];
const DEFAULT_ROOTS = ['/repo', '/repo/', '/other', 'C:\\work\\x'];
const DEFAULT_FINGERPRINTS = ['10:aaaaaaaaaaaaaaaa', '10:bbbbbbbbbbbbbbbb', '12:cccccccccccccccc'];

/**
 * One file's report, well formed.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 *
 * fc.assert(fc.property(fileEmissionArb(), (f) => f.path !== '' && f.chars >= 0));
 * ```
 */
export function fileEmissionArb(
  options: EmissionArbitraryOptions = {},
): fc.Arbitrary<FileEmission> {
  return fc
    .record(
      {
        path: fc.constantFrom(...(options.paths ?? DEFAULT_PATHS)),
        ranges: rangeSetArb({ ...options, maxLength: options.maxLength ?? 6 }),
        chars: fc.nat({ max: 20_000 }),
        fingerprint: fc.constantFrom(...(options.fingerprints ?? DEFAULT_FINGERPRINTS)),
      },
      { requiredKeys: ['path', 'ranges', 'chars'] },
    )
    .map((f) => f as FileEmission);
}

/**
 * One call's report, well formed.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 *
 * fc.assert(fc.property(emissionArb(), (e) => e.files.length <= 6));
 * ```
 */
export function emissionArb(options: EmissionArbitraryOptions = {}): fc.Arbitrary<Emission> {
  return fc.record({
    projectRoot: fc.constantFrom(...(options.roots ?? DEFAULT_ROOTS)),
    query: fc.string({ maxLength: 12 }),
    files: fc.array(fileEmissionArb(options), { maxLength: options.maxFiles ?? 6 }),
    sourceChars: fc.nat({ max: 100_000 }),
    responseChars: fc.nat({ max: 200_000 }),
  });
}

/**
 * Junk where an emission (or a part of one) belongs: wrong types, empty or
 * hostile paths and roots, bad counts, hostile ranges, throwing getters.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { createLedger, ledgerReducer } from 'span-ledger';
 *
 * const empty = createLedger();
 * fc.assert(fc.property(hostileEmissionArb(), (e) => {
 *   ledgerReducer(empty, { type: 'recorded', emission: e as never }); // never throws
 * }));
 * ```
 */
export function hostileEmissionArb(options: EmissionArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const badCount = fc.oneof(badNumber, fc.nat({ max: 1000 }));
  const badString = fc.oneof(
    fc.constantFrom<unknown>('', '__proto__', 'constructor', 'hasOwnProperty', 42, null, undefined),
    fc.constantFrom(...(options.paths ?? DEFAULT_PATHS)),
  );
  const hostileFile = fc.oneof(
    fileEmissionArb(options) as fc.Arbitrary<unknown>,
    fc.record({
      path: badString,
      ranges: fc.oneof(hostileRangeSetArb(options) as fc.Arbitrary<unknown>, notASetArb()),
      chars: badCount,
      fingerprint: fc.oneof(
        badString,
        fc.constantFrom(...(options.fingerprints ?? DEFAULT_FINGERPRINTS)),
      ),
    }),
    invalidRangeArb(options),
  );
  return fc.oneof(
    emissionArb(options) as fc.Arbitrary<unknown>,
    fc.record({
      projectRoot: fc.oneof(badString, fc.constantFrom(...(options.roots ?? DEFAULT_ROOTS))),
      query: fc.oneof(fc.string({ maxLength: 4 }) as fc.Arbitrary<unknown>, badNumber),
      files: fc.oneof(
        fc.sparseArray(hostileFile, { maxLength: 8 }) as fc.Arbitrary<unknown>,
        notASetArb(),
      ),
      sourceChars: badCount,
      responseChars: badCount,
    }),
    invalidRangeArb(options),
  );
}

/**
 * A ledger event as the reducer receives it: `recorded`, `forgotten` or `cleared`.
 */
export type LedgerEventShape =
  | { readonly type: 'recorded'; readonly emission: Emission; readonly sessionId?: string }
  | { readonly type: 'forgotten'; readonly sessionId: string }
  | { readonly type: 'cleared' };

/** Session ids a caller may send, including the default bucket's spellings. */
const SESSION_IDS = ['s1', 's2', ' s1 ', '', '   ', '__proto__', 'constructor', 'hasOwnProperty'];

/**
 * A well-formed ledger event over a few sessions (including blank ids and
 * `__proto__`), mostly `recorded`.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { createLedger, ledgerReducer, sessionView } from 'span-ledger';
 *
 * fc.assert(fc.property(fc.array(ledgerEventArb()), (events) => {
 *   const ledger = events.reduce(ledgerReducer, createLedger());
 *   return sessionView(ledger).projects.length <= ledger.limits.maxProjects;
 * }));
 * ```
 */
export function ledgerEventArb(
  options: EmissionArbitraryOptions = {},
): fc.Arbitrary<LedgerEventShape> {
  const sessionId = fc.constantFrom(...SESSION_IDS);
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(emissionArb(options), fc.option(sessionId, { nil: undefined }))
        .map(
          ([emission, id]): LedgerEventShape =>
            id === undefined
              ? { type: 'recorded', emission }
              : { type: 'recorded', emission, sessionId: id },
        ),
    },
    {
      weight: 1,
      arbitrary: sessionId.map((id): LedgerEventShape => ({ type: 'forgotten', sessionId: id })),
    },
    { weight: 1, arbitrary: fc.constant<LedgerEventShape>({ type: 'cleared' }) },
  );
}

/**
 * Junk where a ledger event belongs: unknown types, missing fields, hostile
 * emissions and session ids (numbers, a 1 MB string, `__proto__`), non-objects.
 * `longIdLength` sizes the long id (default 1 MiB; a fuzzer may prefer 200).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { createLedger, ledgerReducer } from 'span-ledger';
 *
 * const empty = createLedger();
 * fc.assert(fc.property(hostileLedgerEventArb(), (e) => ledgerReducer(empty, e as never) !== undefined));
 * ```
 */
export function hostileLedgerEventArb(
  options: EmissionArbitraryOptions & { readonly longIdLength?: number } = {},
): fc.Arbitrary<unknown> {
  const long = options.longIdLength ?? 1 << 20;
  const hostileId = fc.oneof(
    fc.constantFrom<unknown>(...SESSION_IDS, 7, null, {}, ['s1'], Symbol('id')),
    fc.constant(null).map(() => 'x'.repeat(long)),
  );
  return fc.oneof(
    ledgerEventArb(options) as fc.Arbitrary<unknown>,
    fc.record({
      type: fc.constant('recorded'),
      emission: hostileEmissionArb(options),
      sessionId: hostileId,
    }),
    fc.record({ type: fc.constant('forgotten'), sessionId: hostileId }),
    fc.record({
      type: fc.constantFrom<unknown>('recorded', 'forgotten', 'cleared', 'RECORDED', '', 3, null),
    }),
    fc.constantFrom<unknown>(null, undefined, 'cleared', 0, [], {}),
    fc.boolean().map((asArray) => hostileProxy(asArray)),
  );
}

/**
 * One step of a session: a tool call asking for spans of a file, or an edit of a file.
 */
export type SessionStep =
  | { readonly kind: 'call'; readonly path: string; readonly ranges: LineRange[] }
  | { readonly kind: 'edit'; readonly path: string; readonly content: string };

/**
 * A conversation against a small project: initial file contents, then steps.
 */
export interface SessionScript {
  /** Path → content at the start. */
  readonly files: Readonly<Record<string, string>>;
  readonly steps: readonly SessionStep[];
}

/** File content of `lines` lines, each line's text drawn from a small alphabet. */
function contentArb(maxLines: number): fc.Arbitrary<string> {
  return fc
    .array(
      fc
        .array(fc.constantFrom('a', 'b', ' ', '{', '}', 'é', '😀'), { maxLength: 30 })
        .map((chars) => chars.join('')),
      { minLength: 1, maxLength: maxLines },
    )
    .map((lines) => lines.join('\n'));
}

/**
 * A session with edits between calls: a few files of up to `maxLine` lines,
 * then calls asking for spans (sometimes past the end of the file) and edits
 * that change a file's content (and so its fingerprint).
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 *
 * fc.assert(fc.property(sessionArb(), (script) => script.steps.length >= 1));
 * ```
 */
export function sessionArb(
  options: EmissionArbitraryOptions & { readonly maxSteps?: number } = {},
): fc.Arbitrary<SessionScript> {
  const paths = options.paths ?? ['src/a.ts', 'src/b.ts', 'lib/c.ts'];
  const maxLine = options.maxLine ?? 120;
  const path = fc.constantFrom(...paths);
  const step: fc.Arbitrary<SessionStep> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          path,
          fc.array(lineRangeArb({ maxLine: maxLine + 10 }), { minLength: 1, maxLength: 4 }),
        )
        .map(([p, ranges]): SessionStep => ({ kind: 'call', path: p, ranges })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(path, contentArb(maxLine))
        .map(([p, content]): SessionStep => ({ kind: 'edit', path: p, content })),
    },
  );
  return fc.record({
    files: fc
      .tuple(...paths.map(() => contentArb(maxLine)))
      .map((contents) => Object.fromEntries(paths.map((p, i) => [p, contents[i]!]))),
    steps: fc.array(step, { minLength: 1, maxLength: options.maxSteps ?? 10 }),
  });
}
