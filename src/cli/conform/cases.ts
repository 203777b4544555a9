/**
 * Random cases per suite, for the runner's random phase: small enough that a
 * shrunk counterexample reads at a glance, and biased towards what breaks
 * implementations (adjacent and overlapping spans, invalid members, CRLF and
 * astral text, edits between reads, compactions, subagents). fast-check is
 * passed in, never imported: the CLI loads it only when it runs.
 */
import type * as FC from 'fast-check';
import { fingerprint } from '../../hash/fingerprint.js';
import type { Suite } from './reference.js';

/** One request's suite-relative part. */
export interface Case {
  readonly op: string;
  readonly input: unknown;
}

type Fc = typeof FC;

const PATHS = ['a.ts', 'b.ts'] as const;
const CONTEXTS = ['main', 'sub'] as const;

/** A file of `n` lines, version `v`: every line carries code, so a held run earns its pointer. */
export function scenarioContent(path: string, v: number, n = 24): string {
  return Array.from({ length: n }, (_, i) => `export const ${path[0]}${i + 1} = ${v * 100 + i};`)
    .join('\n')
    .concat('\n');
}

function rangeArb(fc: Fc, max: number): FC.Arbitrary<unknown> {
  const valid = fc
    .tuple(fc.integer({ min: 1, max }), fc.integer({ min: 0, max: 6 }))
    .map(([start, len]) => ({ start, end: start + len }));
  const invalid = fc.constantFrom<unknown>(
    { start: 0, end: 3 },
    { start: 5, end: 2 },
    { start: 1.5, end: 4 },
    { start: '1', end: 3 },
    { start: 2 },
    null,
    [1, 3],
    'L1-3',
    { start: 2 ** 53, end: 2 ** 53 },
  );
  return fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: invalid });
}

function setArb(fc: Fc, max = 30): FC.Arbitrary<unknown[]> {
  return fc.array(rangeArb(fc, max), { maxLength: 5 });
}

function algebraArb(fc: Fc): FC.Arbitrary<Case> {
  const set = setArb(fc);
  const range = rangeArb(fc, 30);
  const c = (op: string, input: FC.Arbitrary<unknown>) => input.map((i) => ({ op, input: i }));
  return fc.oneof(
    c('isLineRange', fc.record({ range })),
    c('merge', fc.record({ ranges: set })),
    c('intersect', fc.record({ a: set, b: set })),
    c('intersectRange', fc.record({ range, set })),
    c('subtract', fc.record({ a: set, b: set })),
    c('subtractRange', fc.record({ range, set })),
    c('dedupe', fc.record({ range, served: set, minCovered: fc.integer({ min: 0, max: 6 }) })),
    c('coalesce', fc.record({ ranges: set, max: fc.integer({ min: 0, max: 4 }) })),
    c('cover', fc.record({ ranges: set, line: fc.integer({ min: 0, max: 40 }) })),
    c('count', fc.record({ ranges: set })),
    c('formatSpans', fc.record({ ranges: set, max: fc.integer({ min: 0, max: 5 }) })),
  );
}

/** Text that splits lines differently on every platform: LF, CRLF, CR, astral, lone surrogates. */
function textArb(fc: Fc): FC.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('a', 'é', '😀', '\n', '\r\n', '\r', ' ', '}', '\ud800', '\udc00'), {
      maxLength: 14,
    })
    .map((parts) => parts.join(''));
}

function linesArb(fc: Fc): FC.Arbitrary<Case> {
  return fc.oneof(
    fc.record({ content: textArb(fc) }).map((input) => ({ op: 'lines', input })),
    fc
      .record({ content: textArb(fc), ranges: setArb(fc, 8) })
      .map((input) => ({ op: 'chars', input })),
  );
}

function fingerprintArb(fc: Fc): FC.Arbitrary<Case> {
  return fc.record({ content: textArb(fc) }).map((input) => ({ op: 'fingerprint', input }));
}

/** Lines a plan may fold (trivial) or must send (code). */
function planContentArb(fc: Fc): FC.Arbitrary<string> {
  return fc
    .array(fc.constantFrom('const x = 1;', '}', '', '  );', 'return value;'), {
      minLength: 1,
      maxLength: 24,
    })
    .map((ls) => `${ls.join('\n')}\n`);
}

function planArb(fc: Fc): FC.Arbitrary<Case> {
  return planContentArb(fc).chain((content) => {
    const current = fingerprint(content);
    const record = fc.record({
      path: fc.constantFrom('a.ts', 'a.ts', 'b.ts'),
      ranges: setArb(fc, 24),
      fingerprint: fc.constantFrom('current', 'other', 'none'),
    });
    const served = fc.array(fc.array(record, { minLength: 1, maxLength: 2 }), { maxLength: 3 });
    return fc
      .record({
        path: fc.constantFrom('a.ts', 'a.ts', 'a.ts', '', '../a.ts'),
        intended: setArb(fc, 26),
        served: fc.option(served, { nil: null, freq: 6 }),
        enabled: fc.constantFrom(true, true, true, false),
        minCoveredLines: fc.constantFrom(undefined, 1, 3, 8),
      })
      .map(({ served: records, minCoveredLines, ...rest }) => ({
        op: 'planFile',
        input: {
          ...rest,
          content,
          served:
            records === null
              ? null
              : records.map((files, i) => ({
                  index: i + 1,
                  files: files.map((f) => ({
                    path: f.path,
                    ranges: f.ranges,
                    ...(f.fingerprint === 'none'
                      ? {}
                      : {
                          fingerprint:
                            f.fingerprint === 'current'
                              ? current
                              : `${content.length}:0000000000000000`,
                        }),
                  })),
                })),
          ...(minCoveredLines === undefined ? {} : { thresholds: { minCoveredLines } }),
        },
      }));
  });
}

function ledgerArb(fc: Fc): FC.Arbitrary<Case> {
  const session = fc.constantFrom('s1', 's2', '', ' s1 ');
  const root = fc.constantFrom('/repo', '/repo/', '/other');
  const file = fc.record({
    path: fc.constantFrom('a.ts', 'b.ts', ''),
    ranges: setArb(fc, 20),
    chars: fc.nat({ max: 50 }),
    fingerprint: fc.constantFrom('1:aaaaaaaaaaaaaaaa', '2:bbbbbbbbbbbbbbbb'),
  });
  const event = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        type: fc.constant('recorded'),
        sessionId: session,
        emission: fc.record({
          projectRoot: root,
          query: fc.constant('q'),
          files: fc.array(file, { maxLength: 2 }),
          sourceChars: fc.nat({ max: 100 }),
          responseChars: fc.nat({ max: 100 }),
        }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constant('pruned'),
        sessionId: session,
        calls: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('forgotten'), sessionId: session }) },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('reserved'),
        sessionId: session,
        projectRoot: root,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>({ type: 'cleared' }, { type: 'bogus' }, null),
    },
  );
  return fc
    .record({ events: fc.array(event, { maxLength: 6 }), session })
    .map((input) => ({ op: 'run', input }));
}

function scenarioArb(fc: Fc): FC.Arbitrary<Case> {
  const context = fc.constantFrom(...CONTEXTS);
  const ask = fc.record({
    path: fc.constantFrom(...PATHS),
    intended: fc
      .tuple(fc.constantFrom(1, 5, 9), fc.constantFrom(8, 12, 16))
      .map(([start, len]) => [{ start, end: start + len - 1 }]),
  });
  const asks = fc.array(ask, { minLength: 1, maxLength: 2 });
  const step = fc.oneof(
    { weight: 6, arbitrary: fc.record({ do: fc.constant('call'), context, files: asks }) },
    {
      weight: 1,
      arbitrary: fc.record({
        do: fc.constant('call'),
        context,
        files: asks,
        refresh: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 2 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        do: fc.constant('parallel'),
        context,
        calls: fc.array(asks, { minLength: 2, maxLength: 2 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ path: fc.constantFrom(...PATHS), v: fc.integer({ min: 0, max: 1 }) })
        .map(({ path, v }) => ({ do: 'edit', path, content: scenarioContent(path, v) })),
    },
    {
      weight: 2,
      arbitrary: fc.record({ do: fc.constant('compact'), context, told: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        do: fc.constant('rewind'),
        context,
        to: fc.integer({ min: 0, max: 3 }),
        told: fc.boolean(),
      }),
    },
  );
  return fc.array(step, { minLength: 1, maxLength: 8 }).map((steps) => ({
    op: 'run',
    input: {
      files: Object.fromEntries(PATHS.map((p) => [p, scenarioContent(p, 0)])),
      steps,
    },
  }));
}

/** The random cases of `suite`: one of `RANDOM_SUITES` (the contract suite has vectors only). */
export function caseArb(fc: Fc, suite: Suite): FC.Arbitrary<Case> {
  switch (suite) {
    case 'algebra':
      return algebraArb(fc);
    case 'lines':
      return linesArb(fc);
    case 'fingerprint':
      return fingerprintArb(fc);
    case 'plan':
      return planArb(fc);
    case 'ledger':
      return ledgerArb(fc);
    case 'scenario':
      return scenarioArb(fc);
    default:
      throw new RangeError(`no random cases for suite ${suite}`);
  }
}
