/**
 * The fixed vectors: hand-written cases for every rule and every kind of
 * invalid input, then a fixed-seed sample of the random cases, each with the
 * reference's answer. `span-ledger conform` runs them in-process;
 * `scripts/conformance.ts` writes the same to `conformance/`, checked in.
 */
import type * as FC from 'fast-check';
import { fingerprint } from '../../hash/fingerprint.js';
import { type Case, caseArb, scenarioContent } from './cases.js';
import {
  answerReference,
  PROTOCOL_VERSION,
  RANDOM_SUITES,
  readScenario,
  SUITES,
  type Suite,
} from './reference.js';
import { judgeScenario } from './safety.js';

/** One vector: the case and what the reference answers. */
export interface Vector {
  readonly id: string;
  readonly description: string;
  readonly input: unknown;
  readonly expected: Expected;
}
export type Expected =
  | { readonly output: unknown; readonly safety?: unknown }
  | { readonly error: string };
/** A suite file of `conformance/`. */
export interface SuiteFile {
  readonly $schema: string;
  readonly suite: Suite;
  readonly protocol: number;
  readonly description: string;
  readonly groups: readonly { readonly op: string; readonly cases: readonly Vector[] }[];
}

/** Sampled cases per suite, and the seed they are drawn with. */
const SAMPLED = 12;
const SEED = 20_261_202;

type Named = Case & { readonly description: string };
const c = (op: string, description: string, input: unknown): Named => ({ op, description, input });

const R = (start: number, end: number) => ({ start, end });

const ALGEBRA: Named[] = [
  c('isLineRange', 'a valid range', { range: R(1, 3) }),
  c('isLineRange', 'one line', { range: R(7, 7) }),
  c('isLineRange', 'invalid: start after end', { range: R(5, 2) }),
  c('isLineRange', 'invalid: line 0', { range: R(0, 3) }),
  c('isLineRange', 'invalid: a fraction', { range: R(1.5, 3) }),
  c('isLineRange', 'invalid: 2^53 is not a safe integer', { range: R(1, 2 ** 53) }),
  c('isLineRange', 'invalid: numbers as strings', { range: { start: '1', end: '3' } }),
  c('isLineRange', 'invalid: a tuple', { range: [1, 3] }),
  c('isLineRange', 'invalid: null', { range: null }),
  c('isLineRange', 'invalid: a missing end', { range: { start: 1 } }),
  c('merge', 'empty', { ranges: [] }),
  c('merge', 'overlapping', { ranges: [R(1, 5), R(3, 9)] }),
  c('merge', 'adjacent lines join', { ranges: [R(5, 9), R(10, 12)] }),
  c('merge', 'a gap of one line stays', { ranges: [R(1, 2), R(4, 5)] }),
  c('merge', 'unsorted, nested, duplicated', { ranges: [R(20, 30), R(1, 3), R(22, 25), R(1, 3)] }),
  c('merge', 'invalid members are dropped', {
    ranges: [R(1, 3), R(9, 4), null, 'L5-6', R(0, 2), { start: 2.5, end: 3 }, R(10, 10)],
  }),
  c('merge', 'invalid: not an array', { ranges: { start: 1, end: 3 } }),
  c('merge', 'invalid: null', { ranges: null }),
  c('merge', 'invalid: missing', {}),
  c('intersect', 'overlap', { a: [R(1, 10)], b: [R(5, 20)] }),
  c('intersect', 'touching ends share one line', { a: [R(1, 5)], b: [R(5, 9)] }),
  c('intersect', 'adjacent share nothing', { a: [R(1, 4)], b: [R(5, 9)] }),
  c('intersect', 'many against many', { a: [R(1, 3), R(8, 20)], b: [R(2, 9), R(15, 30)] }),
  c('intersect', 'invalid members are dropped', { a: [R(1, 10), R(0, 4)], b: [null, R(3, 4)] }),
  c('intersect', 'invalid: not arrays', { a: 'L1-3', b: [R(1, 3)] }),
  c('intersectRange', 'a range against a set', { range: R(5, 15), set: [R(1, 6), R(10, 12)] }),
  c('intersectRange', 'invalid: the range', { range: R(15, 5), set: [R(1, 20)] }),
  c('subtract', 'a hole in the middle', { a: [R(1, 10)], b: [R(4, 6)] }),
  c('subtract', 'both ends', { a: [R(1, 10)], b: [R(1, 1), R(10, 10)] }),
  c('subtract', 'everything', { a: [R(3, 5)], b: [R(1, 9)] }),
  c('subtract', 'nothing', { a: [R(3, 5)], b: [R(6, 9)] }),
  c('subtract', 'unsorted and overlapping on both sides', {
    a: [R(10, 20), R(1, 5), R(4, 8)],
    b: [R(6, 12), R(2, 2)],
  }),
  c('subtract', 'invalid members are dropped', { a: [R(1, 5), R(7, 3)], b: [R(2, 2), 'x'] }),
  c('subtract', 'invalid: not arrays', { a: null, b: [R(1, 3)] }),
  c('subtractRange', 'a range minus a set', { range: R(1, 20), set: [R(5, 9), R(15, 30)] }),
  c('subtractRange', 'invalid: the range', { range: null, set: [R(1, 3)] }),
  c('dedupe', 'a held run of 10 lines is covered', {
    range: R(1, 20),
    served: [R(1, 10)],
    minCovered: 8,
  }),
  c('dedupe', 'a held run under minCovered is sent', {
    range: R(1, 20),
    served: [R(1, 5)],
    minCovered: 8,
  }),
  c('dedupe', 'minCovered defaults to 8', { range: R(1, 20), served: [R(3, 10), R(12, 14)] }),
  c('dedupe', 'minCovered below 1 acts as 1', { range: R(1, 4), served: [R(2, 2)], minCovered: 0 }),
  c('dedupe', 'invalid: minCovered not a number covers nothing', {
    range: R(1, 20),
    served: [R(1, 20)],
    minCovered: '8',
  }),
  c('dedupe', 'invalid: the range', { range: R(0, 20), served: [R(1, 20)], minCovered: 1 }),
  c('coalesce', 'under the bound', { ranges: [R(1, 2), R(5, 6)], max: 4 }),
  c('coalesce', 'over the bound keeps the largest, in line order', {
    ranges: [R(1, 1), R(3, 9), R(20, 22), R(30, 40)],
    max: 2,
  }),
  c('coalesce', 'a tie keeps the earlier start', { ranges: [R(1, 2), R(5, 6), R(9, 10)], max: 2 }),
  c('coalesce', 'max 0 keeps nothing', { ranges: [R(1, 2)], max: 0 }),
  c('coalesce', 'max defaults to 24', { ranges: [R(1, 2), R(4, 5)] }),
  c('coalesce', 'invalid: max negative', { ranges: [R(1, 2)], max: -1 }),
  c('coalesce', 'invalid: max a fraction', { ranges: [R(1, 2), R(4, 5)], max: 1.5 }),
  c('cover', 'a covered line', { ranges: [R(3, 4)], line: 4 }),
  c('cover', 'an uncovered line', { ranges: [R(3, 4)], line: 5 }),
  c('cover', 'invalid: line 0', { ranges: [R(1, 4)], line: 0 }),
  c('cover', 'invalid: a fractional line', { ranges: [R(1, 4)], line: 1.5 }),
  c('cover', 'invalid: a line as a string', { ranges: [R(1, 4)], line: '2' }),
  c('count', 'overlaps count once', { ranges: [R(1, 10), R(5, 12)] }),
  c('count', 'invalid members count nothing', { ranges: [R(1, 10), R(4, 1), null] }),
  c('count', 'invalid: not an array', { ranges: 7 }),
  c('formatSpans', 'one line, a span', { ranges: [R(7, 7), R(10, 12)] }),
  c('formatSpans', 'normalized first', { ranges: [R(10, 12), R(1, 4), R(5, 5)] }),
  c('formatSpans', 'more than max', {
    ranges: [R(1, 1), R(3, 3), R(5, 5), R(7, 7), R(9, 9), R(11, 11)],
  }),
  c('formatSpans', 'one more', { ranges: [R(1, 1), R(3, 3), R(5, 5)], max: 2 }),
  c('formatSpans', 'empty', { ranges: [] }),
  c('formatSpans', 'invalid: max negative falls back to 4', {
    ranges: [R(1, 1), R(3, 3), R(5, 5), R(7, 7), R(9, 9)],
    max: -1,
  }),
];

const TEXTS: [string, string][] = [
  ['empty: no lines', ''],
  ['one line without a terminator', 'abc'],
  ['a final newline ends the last line', 'a\nb\n'],
  ['an empty line in the middle', 'a\n\nb'],
  ['only a newline: one empty line', '\n'],
  ['CRLF: the CR stays in the line', 'a\r\nb\r\n'],
  ['a lone CR is not a line break', 'a\rb'],
  ['astral characters count 2 UTF-16 units', '😀x\n😀😀\n'],
  ['a lone surrogate is one unit', '\ud800a\n\udc00\n'],
];

const LINES: Named[] = [
  ...TEXTS.map(([d, content]) => c('lines', d, { content })),
  ...TEXTS.map(([d, content]) => c('chars', `${d}: all lines`, { content, ranges: [R(1, 1_000)] })),
  c('chars', 'lines 2-3 of four, with their newlines', {
    content: 'ab\ncd\nef\ngh\n',
    ranges: [R(2, 3)],
  }),
  c('chars', 'the last line without a terminator', { content: 'ab\ncd', ranges: [R(2, 2)] }),
  c('chars', 'CRLF counts the CR', { content: 'ab\r\ncd\r\n', ranges: [R(1, 1)] }),
  c('chars', 'astral: UTF-16 units, not code points or bytes', {
    content: '😀\né\n',
    ranges: [R(1, 2)],
  }),
  c('chars', 'spans past the end are clipped', { content: 'a\nb\n', ranges: [R(2, 9), R(5, 9)] }),
  c('chars', 'overlapping spans count once', { content: 'a\nb\nc\n', ranges: [R(1, 2), R(2, 3)] }),
  c('chars', 'invalid members are dropped', {
    content: 'a\nb\n',
    ranges: [R(0, 1), R(2, 2), null],
  }),
  c('lines', 'invalid: content null', { content: null }),
  c('lines', 'invalid: content a number', { content: 42 }),
  c('chars', 'invalid: content an array', { content: ['a'], ranges: [R(1, 1)] }),
];

const FINGERPRINT: Named[] = [
  c('fingerprint', 'empty', { content: '' }),
  c('fingerprint', 'ASCII', { content: 'abc' }),
  c('fingerprint', 'ASCII with a final newline', { content: 'let x = 1;\n' }),
  c('fingerprint', 'CRLF differs from LF', { content: 'let x = 1;\r\n' }),
  c('fingerprint', 'two-byte UTF-8', { content: 'é' }),
  c('fingerprint', 'astral: length 2 (UTF-16 units), 4 UTF-8 bytes', { content: '😀' }),
  c('fingerprint', 'a lone high surrogate hashes as U+FFFD', { content: '\ud800' }),
  c('fingerprint', 'a lone low surrogate hashes as U+FFFD', { content: 'a\udc00b' }),
  c('fingerprint', 'U+FFFD itself: same hash as a lone surrogate, same length', {
    content: '\ufffd',
  }),
  c('fingerprint', 'a NUL', { content: 'a\u0000b' }),
  c('fingerprint', 'a longer file', { content: 'export const x = 1;\n'.repeat(50) }),
  c('fingerprint', 'invalid: null', { content: null }),
  c('fingerprint', 'invalid: a number', { content: 123 }),
  c('fingerprint', 'invalid: an array of strings', { content: ['a'] }),
  c('fingerprint', 'invalid: missing', {}),
];

const CODE = 'const x = 1;\n'.repeat(40);
const FP = fingerprint(CODE);
const served = (...records: { ranges: unknown[]; fingerprint?: string; path?: string }[]) =>
  records.map((r, i) => ({
    index: i + 1,
    files: [
      {
        path: r.path ?? 'a.ts',
        ranges: r.ranges,
        ...(r.fingerprint === undefined ? {} : { fingerprint: r.fingerprint }),
      },
    ],
  }));
const plan = (description: string, input: Record<string, unknown>) =>
  c('planFile', description, { path: 'a.ts', content: CODE, intended: [R(1, 40)], ...input });
const FOLDABLE = `${'const x = 1;\n'.repeat(20)}}\n\n`;

const PLAN: Named[] = [
  plan('switch: disabled renders in full', {
    enabled: false,
    served: served({ ranges: [R(1, 40)], fingerprint: FP }),
  }),
  plan('session: untracked (no ledger)', { served: null }),
  plan('session: first call (tracked, nothing retained)', { served: [] }),
  plan('content: never served', {
    served: served({ ranges: [R(1, 40)], fingerprint: FP, path: 'b.ts' }),
  }),
  plan('content: fingerprint changed (an outside edit)', {
    served: served({ ranges: [R(1, 40)], fingerprint: fingerprint(`${CODE}x`) }),
  }),
  plan('content: served without a fingerprint is unprovable', {
    served: served({ ranges: [R(1, 40)] }),
  }),
  plan('size: held lines outside the intended spans', {
    intended: [R(1, 10)],
    served: served({ ranges: [R(20, 40)], fingerprint: FP }),
  }),
  plan('size: held runs shorter than minCoveredLines', {
    intended: [R(1, 20)],
    served: served({ ranges: [R(1, 3)], fingerprint: FP }),
  }),
  plan('size: a whole short section earns a compact pointer', {
    content: `${'export function handleTheRequestAndReturnAResponse(value) {\n'.repeat(3)}`,
    intended: [R(1, 3)],
    served: served({
      ranges: [R(1, 3)],
      fingerprint: fingerprint(
        'export function handleTheRequestAndReturnAResponse(value) {\n'.repeat(3),
      ),
    }),
  }),
  plan('delta: all covered, a pointer only', {
    served: served({ ranges: [R(1, 40)], fingerprint: FP }),
  }),
  plan('delta: partial, the new lines kept', {
    served: served({ ranges: [R(1, 30)], fingerprint: FP }),
  }),
  plan('delta: a trivial remainder is folded', {
    content: FOLDABLE,
    intended: [R(1, 22)],
    served: served({ ranges: [R(1, 20)], fingerprint: fingerprint(FOLDABLE) }),
  }),
  plan('delta: cites every response that served a covered line, most recent first', {
    served: served(
      { ranges: [R(1, 20)], fingerprint: FP },
      { ranges: [R(30, 40)], fingerprint: FP },
      { ranges: [R(21, 29)], fingerprint: FP },
    ),
  }),
  plan('a record of another content does not count', {
    served: served(
      { ranges: [R(1, 20)], fingerprint: FP },
      { ranges: [R(21, 40)], fingerprint: '1:0000000000000000' },
    ),
  }),
  plan('thresholds: minCoveredLines 1', {
    intended: [R(1, 20)],
    served: served({ ranges: [R(1, 3)], fingerprint: FP }),
    thresholds: { minCoveredLines: 1 },
  }),
  plan('intended past the end is clipped', {
    intended: [R(35, 90)],
    served: served({ ranges: [R(30, 40)], fingerprint: FP }),
  }),
  plan('intended wholly past the end: skipped', { intended: [R(50, 90)], served: null }),
  plan('a file with no lines: skipped', { content: '', intended: [R(1, 5)], served: [] }),
  plan('invalid: content not a string is skipped', {
    content: null,
    served: served({ ranges: [R(1, 40)], fingerprint: FP }),
  }),
  plan('invalid: an empty path is skipped', {
    path: '',
    served: served({ ranges: [R(1, 40)], fingerprint: FP }),
  }),
  plan('invalid: a .. segment renders in full', {
    path: '../a.ts',
    served: served({ ranges: [R(1, 40)], fingerprint: FP, path: '../a.ts' }),
  }),
  plan('invalid: a NUL in the path renders in full', {
    path: 'a\u0000.ts',
    served: served({ ranges: [R(1, 40)], fingerprint: FP, path: 'a\u0000.ts' }),
  }),
  plan('invalid: intended members are dropped', {
    intended: [R(0, 5), null, R(9, 2), R(1, 10)],
    served: served({ ranges: [R(1, 10)], fingerprint: FP }),
  }),
  plan('invalid: intended not an array sends nothing', { intended: 'L1-40', served: null }),
  plan('invalid: thresholds junk keeps the defaults', {
    intended: [R(1, 20)],
    served: served({ ranges: [R(1, 5)], fingerprint: FP }),
    thresholds: { minCoveredLines: 'one', minDeltaChars: null },
  }),
];

const emission = (files: unknown[], extra: Record<string, unknown> = {}) => ({
  projectRoot: '/repo',
  query: 'q',
  files,
  sourceChars: 10,
  responseChars: 20,
  ...extra,
});
const served1 = { path: 'a.ts', ranges: [R(1, 10)], chars: 10, fingerprint: '10:aaaaaaaaaaaaaaaa' };
const recorded = (sessionId?: string, files: unknown[] = [served1], extra = {}) => ({
  type: 'recorded',
  ...(sessionId === undefined ? {} : { sessionId }),
  emission: emission(files, extra),
});
const ledgerCase = (description: string, events: unknown, session?: string) =>
  c('run', description, session === undefined ? { events } : { events, session });

const LEDGER: Named[] = [
  ledgerCase('nothing recorded', []),
  ledgerCase('one call, the default bucket', [recorded()]),
  ledgerCase('two calls number 1 and 2', [recorded(), recorded()]),
  ledgerCase('a session sees only its own calls', [recorded('s1'), recorded('s2')], 's1'),
  ledgerCase('session ids are trimmed', [recorded(' s1 ')], 's1'),
  ledgerCase('ranges are normalized', [
    recorded(undefined, [{ ...served1, ranges: [R(5, 9), R(1, 4)] }]),
  ]),
  ledgerCase(
    'pruned drops the named records, keeps the count',
    [recorded('s1'), recorded('s1'), { type: 'pruned', sessionId: 's1', calls: [1] }],
    's1',
  ),
  ledgerCase(
    'pruned without calls drops every record',
    [recorded('s1'), { type: 'pruned', sessionId: 's1' }],
    's1',
  ),
  ledgerCase(
    'forgotten drops the session',
    [recorded('s1'), { type: 'forgotten', sessionId: 's1' }],
    's1',
  ),
  ledgerCase('cleared drops everything', [recorded(), { type: 'cleared' }]),
  ledgerCase('reserved takes a number; recorded under it', [
    { type: 'reserved', projectRoot: '/repo' },
    { type: 'reserved', projectRoot: '/repo' },
    recorded(undefined, [served1], { index: 2 }),
    recorded(undefined, [served1], { index: 1 }),
  ]),
  ledgerCase('a number never reserved is not recorded', [
    recorded(undefined, [served1], { index: 7 }),
  ]),
  ledgerCase('two spellings of one root share an entry', [
    recorded(),
    { type: 'recorded', emission: emission([served1], { projectRoot: '/repo/' }) },
  ]),
  ledgerCase('the view holds the last 4 calls', [
    recorded(),
    recorded(),
    recorded(),
    recorded(),
    recorded(),
  ]),
  ledgerCase('invalid: events not an array', { type: 'cleared' }),
  ledgerCase('invalid: junk events change nothing', [
    null,
    7,
    { type: 'bogus' },
    { type: 'recorded' },
    recorded(),
  ]),
  ledgerCase('invalid: a file without a path is dropped', [
    recorded(undefined, [{ ...served1, path: '' }, served1]),
  ]),
  ledgerCase('invalid: pruned with junk calls prunes nothing', [
    recorded(),
    { type: 'pruned', calls: ['1'] },
  ]),
  ledgerCase('invalid: a session id that is not a string is the default bucket', [
    recorded(7 as never),
  ]),
];

const A = scenarioContent('a.ts', 0);
const A1 = scenarioContent('a.ts', 1);
const FILES = { 'a.ts': A, 'b.ts': scenarioContent('b.ts', 0) };
const ask = (path: string, start: number, end: number) => ({ path, intended: [R(start, end)] });
const call = (context: string, ...files: unknown[]) => ({ do: 'call', context, files });
const scene = (description: string, ...steps: unknown[]) =>
  c('run', description, { files: FILES, steps });

const SCENARIO: Named[] = [
  scene('read: a first read sends everything', call('main', ask('a.ts', 1, 16))),
  scene(
    're-read: the same lines again are a pointer',
    call('main', ask('a.ts', 1, 16)),
    call('main', ask('a.ts', 1, 16)),
  ),
  scene(
    'a window inside a read is a pointer',
    call('main', ask('a.ts', 1, 20)),
    call('main', ask('a.ts', 5, 16)),
  ),
  scene(
    'a wider window: pointer plus the new lines',
    call('main', ask('a.ts', 1, 12)),
    call('main', ask('a.ts', 1, 24)),
  ),
  scene(
    'a window partly outside the read',
    call('main', ask('a.ts', 1, 12)),
    call('main', ask('a.ts', 9, 24)),
  ),
  scene(
    'an outside edit: the new content is sent again',
    call('main', ask('a.ts', 1, 16)),
    { do: 'edit', path: 'a.ts', content: A1 },
    call('main', ask('a.ts', 1, 16)),
  ),
  scene(
    'an edit undone: the context still holds those bytes',
    call('main', ask('a.ts', 1, 16)),
    { do: 'edit', path: 'a.ts', content: A1 },
    { do: 'edit', path: 'a.ts', content: A },
    call('main', ask('a.ts', 1, 16)),
  ),
  scene(
    "a subagent never gets its parent's pointers",
    call('main', ask('a.ts', 1, 16)),
    call('sub', ask('a.ts', 1, 16)),
  ),
  scene(
    "a subagent's own re-read is a pointer to its own response",
    call('main', ask('a.ts', 1, 16)),
    call('sub', ask('a.ts', 1, 16)),
    call('sub', ask('a.ts', 1, 16)),
  ),
  scene(
    'compaction, the harness told: lines sent again',
    call('main', ask('a.ts', 1, 16)),
    call('main', ask('b.ts', 1, 16)),
    { do: 'compact', context: 'main', told: true },
    call('main', ask('a.ts', 1, 16)),
  ),
  scene(
    'compaction, the harness told: the kept response still earns a pointer',
    call('main', ask('a.ts', 1, 16)),
    call('main', ask('b.ts', 1, 16)),
    { do: 'compact', context: 'main', told: true },
    call('main', ask('b.ts', 1, 16)),
  ),
  scene(
    'compaction, nobody told: a stale pointer, citing a response the agent can refresh',
    call('main', ask('a.ts', 1, 16)),
    call('main', ask('b.ts', 1, 16)),
    { do: 'compact', context: 'main', told: false },
    call('main', ask('a.ts', 1, 16)),
  ),
  scene(
    'refresh: the named response is sent again',
    call('main', ask('a.ts', 1, 16)),
    { do: 'compact', context: 'main', told: false },
    call('main', ask('b.ts', 1, 8)),
    { ...call('main', ask('a.ts', 1, 16)), refresh: [1] },
  ),
  scene(
    'rewind, the harness told: later responses are gone',
    call('main', ask('a.ts', 1, 8)),
    call('main', ask('a.ts', 9, 24)),
    { do: 'rewind', context: 'main', to: 1, told: true },
    call('main', ask('a.ts', 1, 24)),
  ),
  scene(
    'rewind, nobody told: a stale pointer',
    call('main', ask('a.ts', 1, 8)),
    call('main', ask('a.ts', 9, 24)),
    { do: 'rewind', context: 'main', to: 1, told: false },
    call('main', ask('a.ts', 1, 24)),
  ),
  scene(
    'parallel calls: distinct numbers, no pointer to each other',
    { do: 'parallel', context: 'main', calls: [[ask('a.ts', 1, 16)], [ask('a.ts', 1, 16)]] },
    call('main', ask('a.ts', 1, 16)),
  ),
  scene('parallel calls after a read both point at it', call('main', ask('a.ts', 1, 16)), {
    do: 'parallel',
    context: 'main',
    calls: [[ask('a.ts', 1, 16)], [ask('a.ts', 5, 20)]],
  }),
  scene(
    'one call, two files',
    call('main', ask('a.ts', 1, 8), ask('b.ts', 1, 8)),
    call('main', ask('a.ts', 1, 8), ask('b.ts', 1, 16)),
  ),
  c('run', 'invalid: steps not an array', { files: FILES, steps: {} }),
  c('run', 'invalid: an unknown step', { files: FILES, steps: [{ do: 'jump' }] }),
  c('run', 'invalid: a call for a file not in the scenario', {
    files: FILES,
    steps: [call('main', ask('z.ts', 1, 2))],
  }),
  c('run', 'invalid: an empty context', { files: FILES, steps: [call('', ask('a.ts', 1, 2))] }),
  c('run', 'invalid: compact without told', {
    files: FILES,
    steps: [{ do: 'compact', context: 'main' }],
  }),
  c('run', 'invalid: file content not a string', { files: { 'a.ts': 3 }, steps: [] }),
  c('run', 'invalid: refresh not a list of numbers', {
    files: FILES,
    steps: [{ ...call('main', ask('a.ts', 1, 2)), refresh: true }],
  }),
];

const SERVED_TWICE = served(
  { ranges: [R(1, 20)], fingerprint: FP },
  { ranges: [R(10, 40)], fingerprint: FP, path: 'b.ts' },
);
const SYMBOLS = [
  { name: 'parse', kind: 'function', start: 1, end: 12 },
  { name: 'Lexer', kind: 'class', startLine: 14, endLine: 30 },
  { name: 'next', kind: 'method', start: 16, end: 20 },
];

const CONTRACT: Named[] = [
  c('planCall', 'two files, one held: a pointer and a full section', {
    files: [
      { path: 'a.ts', content: CODE, intended: [R(1, 20)] },
      { path: 'b.ts', content: CODE, intended: [R(1, 10)] },
    ],
    served: served({ ranges: [R(1, 20)], fingerprint: FP }),
  }),
  c('planCall', 'a budget cuts the second file', {
    files: [
      { path: 'a.ts', content: CODE, intended: [R(1, 20)] },
      { path: 'b.ts', content: CODE, intended: [R(1, 20)] },
    ],
    served: [],
    budget: { maxChars: 300 },
  }),
  c('planCall', 'hold-back re-sends the first held file when nothing else is new', {
    files: [{ path: 'a.ts', content: CODE, intended: [R(1, 20)] }],
    served: served({ ranges: [R(1, 20)], fingerprint: FP }),
  }),
  c('planCall', 'invalid: files not an array plans nothing', { files: 'a.ts', served: null }),
  c('planRead', 'a re-read of the same window is a pointer', {
    path: 'a.ts',
    content: CODE,
    range: R(1, 40),
    served: served({ ranges: [R(1, 40)], fingerprint: FP }),
  }),
  c('planRead', 'an overlapping window: the pointer and the new lines', {
    path: 'a.ts',
    content: CODE,
    range: R(10, 40),
    served: served({ ranges: [R(1, 25)], fingerprint: FP }),
  }),
  c('planRead', 'a budget in chars', {
    path: 'a.ts',
    content: CODE,
    range: null,
    served: null,
    budget: { maxChars: 100 },
  }),
  c('planRead', 'invalid: content not a string', {
    path: 'a.ts',
    content: 3,
    range: R(1, 2),
    served: [],
  }),
  c('formatPointer', 'one span, one response', { path: 'a.ts', covered: [R(1, 40)], calls: [3] }),
  c('formatPointer', 'partial, with symbols, several responses', {
    path: 'src/lexer.ts',
    covered: [R(1, 12), R(14, 30)],
    symbols: ['parse', 'Lexer'],
    partial: true,
    calls: [5, 3, 1],
  }),
  c('formatPointer', 'compact, with a numbering tag and the refresh offer', {
    path: 'a.ts',
    covered: [R(3, 9)],
    calls: [4],
    generation: 'kqfz',
    compact: true,
    refresh: true,
  }),
  c('formatPointer', 'more spans and calls than it names', {
    path: 'a.ts',
    covered: [R(1, 1), R(3, 3), R(5, 5), R(7, 7), R(9, 9), R(11, 11)],
    calls: [9, 8, 7, 6, 5, 4],
  }),
  c('formatPointer', 'invalid: no path, junk spans and calls', {
    path: 7,
    covered: [R(0, 3), R(4, 5)],
    calls: ['3', 2],
  }),
  c('symbolsInSpans', 'the symbols a set of spans overlaps', {
    symbols: SYMBOLS,
    ranges: [R(10, 15)],
  }),
  c('symbolsInSpans', 'no spans, no names', { symbols: SYMBOLS, ranges: [] }),
  c('symbolsInSpans', 'invalid: junk nodes are dropped', {
    symbols: [null, { name: 'x', kind: 'function', start: 5, end: 2 }, ...SYMBOLS],
    ranges: [R(1, 40)],
  }),
  c('estimateTokens', 'empty', { text: '' }),
  c('estimateTokens', 'code', { text: CODE }),
  c('estimateTokens', 'prose', { text: 'The quick brown fox jumps over the lazy dog. '.repeat(4) }),
  c('estimateTokens', 'CJK', { text: '日本語のテキストを数える。'.repeat(3) }),
  c('estimateTokens', 'invalid: not a string', { text: null }),
  c('normalizeSessionId', 'trimmed', { id: '  conv-1 ' }),
  c('normalizeSessionId', 'blank is the default bucket', { id: '   ' }),
  c('normalizeSessionId', 'invalid: a number is the default bucket', { id: 7 }),
  c('projectKey', 'a trailing slash is dropped', { root: '/repo/', platform: 'linux' }),
  c('projectKey', 'Windows: drive letter and separators', {
    root: 'C:\\Work\\Repo\\',
    platform: 'win32',
  }),
  c('projectKey', 'dot segments resolved', { root: '/repo/./src/..', platform: 'linux' }),
  c('projectKey', 'invalid: not a string', { root: null }),
  c('servedRangesForFile', 'the spans served from this content', {
    served: SERVED_TWICE,
    path: 'a.ts',
    fingerprint: FP,
  }),
  c('servedRangesForFile', 'another content holds nothing', {
    served: SERVED_TWICE,
    path: 'a.ts',
    fingerprint: '1:0000000000000000',
  }),
  c('servedRangesForFile', 'invalid: no prior', { served: null, path: 'a.ts', fingerprint: FP }),
  c('describeSession', 'two calls', { served: SERVED_TWICE }),
  c('describeSession', 'untracked', { served: null }),
  c('formatSessionBlock', 'two calls', { served: SERVED_TWICE }),
  c('formatSessionBlock', 'untracked', { served: null }),
  c('readRefresh', 'true: every response', { args: { refresh: true } }),
  c('readRefresh', 'a list of numbers', { args: { refresh: [3, 5] } }),
  c('readRefresh', 'the strings CLI inspectors send', { args: { refresh: '3,5' } }),
  c('readRefresh', 'absent', { args: {} }),
  c('readRefresh', 'invalid: junk', { args: { refresh: [0, 'x'] } }),
  c('readContextToken', 'a token', { args: { context: 'c-abcdefghijkl' } }),
  c('readContextToken', 'invalid: not a token', { args: { context: 'has spaces in it' } }),
  c('contextIdFromMeta', 'VS Code conversation id', {
    meta: { 'vscode.conversationId': 'abc-123' },
  }),
  c('contextIdFromMeta', 'opencode session id', { meta: { sessionID: 'ses_42' } }),
  c('contextIdFromMeta', 'invalid: nothing usable', { meta: { conversationId: 42 } }),
  c('dedupEnabledFromEnv', 'unset: on', { env: {} }),
  c('dedupEnabledFromEnv', 'off', { env: { SPAN_LEDGER_DEDUP: ' OFF ' } }),
  c('dedupEnabledFromEnv', '0', { env: { SPAN_LEDGER_DEDUP: '0' } }),
  c('dedupEnabledFromEnv', 'invalid: a junk environment is on', { env: { SPAN_LEDGER_DEDUP: 0 } }),
];

const HANDWRITTEN: Record<Suite, Named[]> = {
  algebra: ALGEBRA,
  lines: LINES,
  fingerprint: FINGERPRINT,
  plan: PLAN,
  ledger: LEDGER,
  scenario: SCENARIO,
  contract: CONTRACT,
};

const DESCRIPTIONS: Record<Suite, string> = {
  contract:
    'The rest of the core\'s exported functions, vectors only: planCall (hold-back, budget), planRead, formatPointer, symbolsInSpans, estimateTokens, normalizeSessionId, projectKey, servedRangesForFile, describeSession, formatSessionBlock, readRefresh, readContextToken, contextIdFromMeta, dedupEnabledFromEnv. "served" reads as in the plan suite.',
  algebra:
    'The range algebra over 1-based inclusive line spans: every operation normalizes (sorted, merged where lines overlap or touch) and drops invalid members (not an object with safe integer start >= 1 and end >= start).',
  lines:
    'POSIX lines (a final "\\n" ends the last line, "" has none; "\\r" is part of a line) and the chars of spans, in UTF-16 code units, each line with its "\\n".',
  fingerprint:
    'The content fingerprint: length in UTF-16 code units, ":", the first 16 hex digits of SHA-1 over the UTF-8 bytes (a lone surrogate encodes as U+FFFD).',
  plan: 'planFile: the five gates (switch, session, content, size, delta) with their verdicts and reason codes, and what to send, what to point at, and which responses a pointer cites. "served" lists what earlier responses recorded, oldest first; null means nobody tracks the call.',
  ledger:
    'Ledger event sequences (recorded, reserved, pruned, forgotten, cleared) and the session view they leave, default limits.',
  scenario:
    "Context truth: calls from a context (a session bucket of its own), outside edits, compactions and rewinds (told to the ledger or not), refreshes and parallel calls, with each response's decisions and the safety property judged from them.",
};

/** The reference's expectation for one case: its answer, and for a scenario the safety property judged from it. */
export function expectedOf(suite: Suite, x: Case): Expected {
  const answer = answerReference(suite, x.op, x.input);
  if (suite !== 'scenario' || !('output' in answer)) return answer;
  return { ...answer, safety: judgeScenario(readScenario(x.input)!, answer.output) };
}

/** Every suite's file, as the script writes it. */
export function buildSuites(fc: typeof FC): Record<Suite, SuiteFile> {
  const out = {} as Record<Suite, SuiteFile>;
  for (const suite of SUITES) {
    const sampled = (
      RANDOM_SUITES.includes(suite)
        ? fc.sample(caseArb(fc, suite), { seed: SEED, numRuns: SAMPLED })
        : []
    ).map((x, i) => ({ ...x, description: `random case ${i + 1} (seed ${SEED})` }));
    const groups = new Map<string, Vector[]>();
    for (const x of [...HANDWRITTEN[suite], ...sampled]) {
      const cases = groups.get(x.op) ?? [];
      groups.set(x.op, cases);
      cases.push({
        id: `${suite}.${x.op}.${cases.length + 1}`,
        description: x.description,
        input: JSON.parse(JSON.stringify(x.input)),
        expected: expectedOf(suite, x),
      });
    }
    out[suite] = {
      $schema: './schema.json',
      suite,
      protocol: PROTOCOL_VERSION,
      description: DESCRIPTIONS[suite],
      groups: [...groups].map(([op, cases]) => ({ op, cases })),
    };
  }
  return out;
}

/** The JSON Schema of a suite file. */
export const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/span-ledger/span-ledger/conformance/schema.json',
  title: 'span-ledger conformance suite',
  type: 'object',
  required: ['suite', 'protocol', 'description', 'groups'],
  properties: {
    $schema: { type: 'string' },
    suite: { enum: [...SUITES] },
    protocol: { const: PROTOCOL_VERSION },
    description: { type: 'string' },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['op', 'cases'],
        additionalProperties: false,
        properties: {
          op: {
            type: 'string',
            description: 'The operation every case of the group asks: the request\'s "op".',
          },
          cases: { type: 'array', items: { $ref: '#/$defs/case' } },
        },
      },
    },
  },
  additionalProperties: false,
  $defs: {
    case: {
      type: 'object',
      required: ['id', 'description', 'input', 'expected'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', pattern: '^[a-z]+\\.[A-Za-z]+\\.[0-9]+$' },
        description: { type: 'string' },
        input: { description: 'The request\'s "input", any JSON value.' },
        expected: {
          oneOf: [
            {
              type: 'object',
              required: ['output'],
              additionalProperties: false,
              properties: {
                output: { description: 'The answer\'s "output", compared as JSON values.' },
                safety: { $ref: '#/$defs/safety' },
              },
            },
            {
              type: 'object',
              required: ['error'],
              additionalProperties: false,
              properties: { error: { enum: ['invalid-input'] } },
            },
          ],
        },
      },
    },
    safety: {
      type: 'object',
      description: 'Scenario suite only: the safety property judged from the output.',
      required: ['holds', 'cited', 'unheld', 'uncited'],
      additionalProperties: false,
      properties: {
        holds: { type: 'boolean' },
        cited: { type: 'boolean' },
        unheld: { type: 'array', items: { $ref: '#/$defs/violation' } },
        uncited: { type: 'array', items: { $ref: '#/$defs/violation' } },
      },
    },
    violation: {
      type: 'object',
      required: ['response', 'context', 'path', 'lines'],
      additionalProperties: false,
      properties: {
        response: { type: 'integer', minimum: 0 },
        context: { type: 'string' },
        path: { type: 'string' },
        lines: { type: 'string' },
      },
    },
  },
};
