import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPointer, type LineRange, type SymbolNode, symbolsInSpans } from '../src/index.js';
import { span as r } from './_build.js';

/** Words a pointer must never use: they make a pointer read as a gap. */
const GAP_WORDS = /omitted|unavailable|missing|could not|not found/i;
/** Any sentence that sends the reader to the file. */
const SENDS_TO_FILE = /\b(read|reads|reading|open|opening|fetch|fetching)\b/i;

describe('formatPointer', () => {
  it('names the path, the spans and the symbols', () => {
    const text = formatPointer({
      path: 'src/auth/session.ts',
      covered: [r(10, 80), r(95, 120)],
      symbols: ['Session', 'login'],
      partial: false,
    });
    expect(text).toContain('`src/auth/session.ts`');
    expect(text).toContain('L10-80, L95-120');
    expect(text).toContain('Session, login');
    expect(text).toMatch(/earlier in this conversation/);
    expect(text).toMatch(/unchanged/);
  });

  it('past four spans says +N more spans', () => {
    const covered = [1, 20, 40, 60, 80, 100].map((s) => r(s, s + 9));
    const text = formatPointer({ path: 'a.ts', covered, symbols: [], partial: false });
    expect(text).toContain('L1-10, L20-29, L40-49, L60-69, +2 more spans');
    expect(text).not.toContain('L80');
  });

  it('past five symbols says +N more', () => {
    const symbols = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
    const text = formatPointer({ path: 'a.ts', covered: [r(1, 9)], symbols, partial: false });
    expect(text).toContain('(a1, a2, a3, a4, a5, +3 more)');
    expect(text).not.toContain('a6');
  });

  it('lists each symbol once and ignores blanks', () => {
    const text = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      symbols: ['x', ' ', 'x', 'y'],
      partial: false,
    });
    expect(text).toContain('(x, y)');
  });

  it('says only the new lines follow when partial, and not otherwise', () => {
    const partial = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      symbols: [],
      partial: true,
    });
    const whole = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      symbols: [],
      partial: false,
    });
    expect(partial).toMatch(/only the lines not sent before follow/i);
    expect(whole).not.toMatch(/follow/i);
  });

  it('never reads as a gap and never sends the reader to the file, whatever it is given (seed 7)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }).filter((s) => !GAP_WORDS.test(s) && !SENDS_TO_FILE.test(s)),
        fc.array(
          fc.record({
            start: fc.integer({ min: 1, max: 500 }),
            end: fc.integer({ min: 1, max: 500 }),
          }),
          { maxLength: 10 },
        ),
        fc.array(fc.constantFrom('Session', 'login', 'parse', 'Cache', 'x'), { maxLength: 9 }),
        fc.boolean(),
        fc.array(fc.integer({ min: -2, max: 300 }), { maxLength: 8 }),
        fc.boolean(),
        (path, covered, symbols, partial, calls, refresh) => {
          const text = formatPointer({ path, covered, symbols, partial, calls, refresh });
          expect(text).not.toMatch(GAP_WORDS);
          expect(text).not.toMatch(SENDS_TO_FILE);
          expect(text).toMatch(/of this conversation|earlier in this conversation/);
          expect(text).not.toMatch(/#-|#0\b/);
          expect(text.includes('refresh')).toBe(refresh);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('cites the response that delivered the lines', () => {
    const text = formatPointer({ path: 'a.ts', covered: [r(1, 40)], calls: [3] });
    expect(text.startsWith('Sent in response #3 of this conversation: `a.ts` L1-40.')).toBe(true);
    expect(text).not.toMatch(/refresh/);
  });

  it('cites several responses most recent first, as given, each once', () => {
    expect(formatPointer({ path: 'a.ts', covered: [r(1, 9)], calls: [5, 3] })).toMatch(
      /^Sent in responses #5 and #3 of this conversation: /,
    );
    expect(
      formatPointer({ path: 'a.ts', covered: [r(1, 9)], calls: [9, 5, 9, 3, 0, 1.5, -2] }),
    ).toMatch(/^Sent in responses #9, #5 and #3 of this conversation: /);
    expect(formatPointer({ path: 'a.ts', covered: [r(1, 9)], calls: [9, 8, 7, 6, 5, 4] })).toMatch(
      /^Sent in responses #9, #8, #7, #6 and 2 earlier ones of this conversation: /,
    );
  });

  it('with refresh, ends with one sentence naming the responses to pass back', () => {
    const one = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      partial: true,
      calls: [3],
      refresh: true,
    });
    expect(one).toBe(
      'Sent in response #3 of this conversation: `a.ts` L1-9. The file is unchanged since; only the lines not sent before follow. If response #3 is no longer in your context, call this tool again with `refresh: [3]`.',
    );
    const two = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      calls: [5, 3],
      refresh: true,
    });
    expect(
      two.endsWith(
        'If responses #5 and #3 are no longer in your context, call this tool again with `refresh: [5, 3]`.',
      ),
    ).toBe(true);
    const many = formatPointer({
      path: 'a.ts',
      covered: [r(1, 9)],
      calls: [9, 8, 7, 6, 5],
      refresh: true,
    });
    expect(many.endsWith('call this tool again with `refresh: true`.')).toBe(true);
    const uncited = formatPointer({ path: 'a.ts', covered: [r(1, 9)], refresh: true });
    expect(
      uncited.endsWith(
        'If that copy is no longer in your context, call this tool again with `refresh: true`.',
      ),
    ).toBe(true);
  });

  it('says nothing of refresh unless refresh is exactly true', () => {
    for (const refresh of [false, undefined, 'true', 1]) {
      const text = formatPointer({
        path: 'a.ts',
        covered: [r(1, 9)],
        calls: [2],
        refresh: refresh as never,
      });
      expect(text).not.toMatch(/refresh/);
    }
  });

  it('never throws on junk input', () => {
    for (const input of [null, undefined, 1, {}, { path: 3, covered: 'x', symbols: 7 }]) {
      const text = formatPointer(input as never);
      expect(typeof text).toBe('string');
      expect(text).not.toMatch(GAP_WORDS);
    }
  });
});

describe('symbolsInSpans', () => {
  const nodes: SymbolNode[] = [
    { name: 'fs', kind: 'import', start: 1, end: 1 },
    { name: 'Session', kind: 'class', start: 10, end: 80 },
    { name: 'login', kind: 'method', start: 20, end: 40 },
    { name: 'logout', kind: 'method', start: 42, end: 60 },
    { name: 'Session', kind: 'export', start: 82, end: 82 },
    { name: 'audit', kind: 'function', start: 90, end: 99 },
    { name: 'Options', kind: 'interface', start: 3, end: 8 },
  ];

  it('names the symbols declared in the spans, in source order, without imports or exports', () => {
    expect(symbolsInSpans(nodes, [r(1, 30)])).toEqual(['Options', 'Session', 'login']);
    expect(symbolsInSpans(nodes, [r(81, 95)])).toEqual(['audit']);
  });

  it('names a symbol by its declaration line: lines inside it or at its end alone name nothing', () => {
    expect(symbolsInSpans(nodes, [r(41, 41)])).toEqual([]);
    expect(symbolsInSpans(nodes, [r(99, 120)])).toEqual([]);
    expect(symbolsInSpans(nodes, [r(85, 90)])).toEqual(['audit']);
    expect(symbolsInSpans(nodes, [r(90, 90)])).toEqual(['audit']);
  });

  it("reads Codegraph's { startLine, endLine } nodes as well", () => {
    const codegraph = [
      { name: 'Session', kind: 'class' as const, startLine: 10, endLine: 80 },
      { name: 'audit', kind: 'function' as const, startLine: 90, endLine: 99 },
      { name: 'fs', kind: 'import' as const, startLine: 1, endLine: 1 },
      { name: 'bad', kind: 'function' as const, startLine: 9, endLine: 2 },
    ];
    expect(symbolsInSpans(codegraph, [r(1, 95)])).toEqual(['Session', 'audit']);
    expect(symbolsInSpans([...codegraph, ...nodes], [r(85, 95)])).toEqual(['audit']);
  });

  it('agrees with a naive declaration-line check (seed 11)', () => {
    const node = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      kind: fc.constantFrom<SymbolNode['kind']>('function', 'class', 'import', 'export', 'type'),
      start: fc.integer({ min: 1, max: 60 }),
      len: fc.integer({ min: 0, max: 15 }),
    });
    const span = fc.record({
      start: fc.integer({ min: 1, max: 70 }),
      len: fc.integer({ min: 0, max: 10 }),
    });
    fc.assert(
      fc.property(fc.array(node, { maxLength: 12 }), fc.array(span, { maxLength: 5 }), (ns, ss) => {
        const list = ns.map((n) => ({
          name: n.name,
          kind: n.kind,
          start: n.start,
          end: n.start + n.len,
        }));
        const spans = ss.map((s) => r(s.start, s.start + s.len));
        const expected = new Set(
          list
            .filter((n) => n.kind !== 'import' && n.kind !== 'export')
            .filter((n) => spans.some((s) => s.start <= n.start && n.start <= s.end))
            .map((n) => n.name),
        );
        const got = symbolsInSpans(list, spans);
        expect(new Set(got)).toEqual(expected);
        expect(got.length).toBe(expected.size);
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it('ignores invalid nodes and spans', () => {
    const junk = [
      null,
      { name: '', kind: 'function', start: 1, end: 5 },
      { name: 'bad', kind: 'function', start: 5, end: 1 },
      { name: 'nan', kind: 'function', start: Number.NaN, end: 3 },
      { name: 'ok', kind: 'function', start: 2, end: 3 },
    ];
    expect(symbolsInSpans(junk as never, [r(1, 10), { start: 0, end: 4 } as LineRange])).toEqual([
      'ok',
    ]);
    expect(symbolsInSpans('x' as never, [r(1, 10)])).toEqual([]);
    expect(symbolsInSpans(nodes, 'x' as never)).toEqual([]);
  });
});
