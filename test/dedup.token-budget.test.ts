/**
 * Budgets in tokens (DESIGN rev 3, "Token budgets"): `budget.maxTokens`
 * beside `maxChars`, both bounds holding; the host's `countTokens`, and the
 * estimate when it fails; `newTokens` whenever tokens were counted; the same
 * for `planRead`. The property runs with o200k as the host's exact counter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CallPlan,
  estimateTokens,
  fingerprint,
  type LineRange,
  type PlanCallFile,
  planCall,
  planRead,
} from '../src/index.js';
import { callRecord, projectState, span as r } from './_build.js';
import { o200kCount } from './_token-corpus.js';

/** The text of `spans` of `content` (whole lines, each with its newline). */
function textOf(content: string, spans: readonly LineRange[]): string {
  const lines = content.split(/(?<=\n)/);
  return spans.map((s) => lines.slice(s.start - 1, s.end).join('')).join('');
}

/** What each file of `plan` sends, counted by `count` one file at a time. */
const sentTokens = (plan: CallPlan, files: readonly PlanCallFile[], count: (t: string) => number) =>
  plan.files.map((f, i) => (f.emit.length === 0 ? 0 : count(textOf(files[i]!.content, f.emit))));

// English code: about 0.3 tokens a char. Chinese: about 0.5.
const code = Array.from(
  { length: 200 },
  (_, i) => `  const total${i} = items[${i}].price * rate;\n`,
).join('');
const chinese = Array.from(
  { length: 200 },
  (_, i) => `第${i}行：预算按词元计算，而不是按字符。\n`,
).join('');
const files: PlanCallFile[] = [
  { path: 'code.ts', content: code, intended: [r(1, 200)] },
  { path: 'notes.md', content: chinese, intended: [r(1, 200)] },
];

describe('budget.maxTokens', () => {
  it('cuts each file at whole lines so that the estimate of what it sends stays within the budget', () => {
    const plan = planCall({ files, prior: null, budget: { maxTokens: 1000 } });
    expect(plan.newTokens).toBeLessThanOrEqual(1000);
    expect(plan.newTokens).toBeGreaterThan(950);
    const estimated = sentTokens(plan, files, estimateTokens);
    expect(estimated.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    // Max-min fair in tokens: both files get about half.
    for (const t of estimated) expect(t).toBeGreaterThan(450);
    expect(plan.files.map((f) => f.newTokens)).toEqual(estimated);
    for (const f of plan.files) expect(f.cutAt).not.toBeNull();
  });

  it('holds both bounds when both are given: the tighter one binds', () => {
    const tokensBind = planCall({
      files,
      prior: null,
      budget: { maxTokens: 500, maxChars: 100_000 },
    });
    const charsBind = planCall({
      files,
      prior: null,
      budget: { maxTokens: 100_000, maxChars: 2000 },
    });
    expect(tokensBind.newTokens).toBeLessThanOrEqual(500);
    expect(charsBind.newChars).toBeLessThanOrEqual(2000);
    expect(charsBind.newChars).toBe(
      planCall({ files, prior: null, budget: { maxChars: 2000 } }).newChars,
    );
    // The same chars cost more tokens in Chinese: a token budget gives it fewer lines.
    const [en, zh] = tokensBind.files;
    expect(zh!.newChars).toBeLessThan(en!.newChars);
  });

  it('counts with the host countTokens when one is given', () => {
    const plan = planCall({
      files,
      prior: null,
      budget: { maxTokens: 1000 },
      countTokens: o200kCount,
    });
    expect(plan.newTokens).toBeLessThanOrEqual(1000);
    expect(sentTokens(plan, files, o200kCount).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(
      1000,
    );
    expect(plan.files.map((f) => f.newTokens)).toEqual(sentTokens(plan, files, o200kCount));
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('tokenizer not loaded');
      },
    ],
    ['returns NaN', () => Number.NaN],
    ['returns a negative', () => -3],
    ['returns a fraction', (t: string) => t.length / 4],
    ['returns a string', () => '12'],
    ['fails only sometimes', (t: string) => (t.includes('7') ? Number.NaN : o200kCount(t))],
  ])('falls back to the estimate for the whole call when countTokens %s', (_label, bad) => {
    const budget = { maxTokens: 1000 };
    const plan = planCall({ files, prior: null, budget, countTokens: bad as never });
    expect(plan).toEqual(planCall({ files, prior: null, budget }));
  });

  it.each([0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000', null])(
    'ignores a maxTokens of %s, as a bad maxChars is: no limit, no count',
    (bad) => {
      const plan = planCall({ files, prior: null, budget: { maxTokens: bad as never } });
      expect(plan.newChars).toBe(code.length + chinese.length);
      expect(plan.newTokens).toBeUndefined();
      expect(plan.files[0]!.newTokens).toBeUndefined();
    },
  );

  it('reports newTokens only when tokens were counted, and 0 for files that send nothing', () => {
    expect(planCall({ files, prior: null, budget: { maxChars: 500 } }).newTokens).toBeUndefined();
    const held = projectState([
      callRecord([
        { path: 'code.ts', ranges: [r(1, 200)], chars: 1, fingerprint: fingerprint(code) },
      ]),
    ]);
    const plan = planCall({ files, prior: held, budget: { maxTokens: 400, maxFiles: 1 } });
    expect(plan.files[0]!.render).toBe('pointer');
    expect(plan.files[0]!.newTokens).toBe(0);
    expect(plan.newTokens).toBe(plan.files[1]!.newTokens);
  });

  it('under bank, counts the dedup-off lines and sends them minus what is held', () => {
    const held = projectState([
      callRecord([
        { path: 'code.ts', ranges: [r(1, 40)], chars: 1, fingerprint: fingerprint(code) },
      ]),
    ]);
    const budget = { maxTokens: 2000, policy: 'bank' as const };
    const on = planCall({ files, prior: held, budget });
    const off = planCall({ files, prior: held, budget, enabled: false });
    expect(on.files[0]!.covered).toEqual([r(1, 40)]);
    expect(on.files[0]!.emit[0]!.start).toBe(41);
    expect(on.files[0]!.emit.at(-1)!.end).toBe(off.files[0]!.emit.at(-1)!.end);
    expect(on.newTokens).toBeLessThan(off.newTokens!);
  });

  it('planRead takes the same budget and counter', () => {
    const plan = planRead({
      path: 'notes.md',
      content: chinese,
      prior: null,
      budget: { maxTokens: 300 },
      countTokens: o200kCount,
    });
    expect(plan.newTokens).toBeLessThanOrEqual(300);
    expect(o200kCount(textOf(chinese, plan.emit))).toBe(plan.newTokens);
    expect(plan.cutAt).toBe(plan.emit.at(-1)!.end + 1);
    expect(planRead({ path: 'notes.md', content: chinese, prior: null }).newTokens).toBeUndefined();
  });
});

const SEED = 2_026_022;

describe('a token budget with the host exact counter', () => {
  const word = fc.constantFrom(
    'const',
    'total',
    '=',
    '{',
    '});',
    '预算',
    '文字',
    'ß',
    '42',
    '  ',
    '\t',
    '→',
    'x'.repeat(30),
  );
  const line = fc.array(word, { maxLength: 12 }).map((ws) => ws.join(' '));
  const fileArb = fc.record({
    lines: fc.array(line, { minLength: 1, maxLength: 40 }),
    spans: fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 20 })), {
      minLength: 1,
      maxLength: 3,
    }),
    trailing: fc.boolean(),
  });

  it(`is never exceeded, by what each file sends counted whole (seed ${SEED})`, () => {
    let bound = 0;
    fc.assert(
      fc.property(
        fc.array(fileArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 600 }),
        fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
        fc.constantFrom<'spend' | 'bank'>('spend', 'bank'),
        (raw, maxTokens, maxChars, policy) => {
          const given: PlanCallFile[] = raw.map((f, i) => ({
            path: `f${i}.ts`,
            content: f.lines.join('\n') + (f.trailing ? '\n' : ''),
            intended: f.spans.map(([start, len]) => r(start, start + len)),
          }));
          const budget = { maxTokens, maxChars, policy };
          const plan = planCall({ files: given, prior: null, budget, countTokens: o200kCount });
          const sent = sentTokens(plan, given, o200kCount);
          expect(sent.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxTokens);
          expect(plan.newTokens).toBeLessThanOrEqual(maxTokens);
          if (maxChars !== undefined) expect(plan.newChars).toBeLessThanOrEqual(maxChars);
          const wanted = planCall({ files: given, prior: null }).newChars;
          if (plan.newChars < wanted && (maxChars === undefined || plan.newChars < maxChars - 200))
            bound++;
        },
      ),
      {
        seed: SEED,
        numRuns: 150,
        examples: [
          [
            [
              { lines: ['预算 '.repeat(40)], spans: [[1, 0]], trailing: true },
              { lines: Array(20).fill('const total = 42;'), spans: [[1, 19]], trailing: false },
            ],
            30,
            undefined,
            'spend',
          ],
        ],
      },
    );
    // Not vacuous on any seed: the example alone is cut by its token budget.
    expect(bound).toBeGreaterThan(0);
  });
});
