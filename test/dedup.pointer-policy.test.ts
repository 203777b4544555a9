/**
 * The pointer policy (DESIGN rev 4, "One pointer policy"): one function
 * decides pointer or lines, the compact form and the symbols, and measures
 * the pointer by writing it; the planner's size gate and the renderers agree
 * with it.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmissionRecorder, pointerOrLines, renderRead } from '../src/adapter/index.js';
import { fingerprint, formatPointer, type LineRange, planFile } from '../src/index.js';
import { callRecord, projectState, span as r } from './_build.js';

/** `n` lines of exactly `width` chars each (newline included), distinct per line. */
const lines = (n: number, width: number) =>
  Array.from({ length: n }, (_, i) => `${`v${i + 1} = 1;`.padEnd(width - 1, '/')}\n`).join('');

/** The compact pointer for `covered` of `path`, citing response #1, as the default wording writes it. */
const compactOf = (path: string, covered: LineRange[], symbols: string[] = []) =>
  formatPointer({ path, covered, symbols, calls: [1], compact: true });

describe('pointerOrLines', () => {
  it('gives a run of minCoveredLines lines the full pointer, whatever the lines cost', () => {
    const text = pointerOrLines({ path: 'a.ts', covered: [r(1, 8)], chars: 8, calls: [1] });
    expect(text).toBe(formatPointer({ path: 'a.ts', covered: [r(1, 8)], calls: [1] }));
    const seven = pointerOrLines({ path: 'a.ts', covered: [r(1, 7)], chars: 8, calls: [1] });
    expect(seven).toBeNull();
    const t = { minCoveredLines: 3 };
    expect(
      pointerOrLines({ path: 'a.ts', covered: [r(1, 3)], chars: 1, thresholds: t }),
    ).not.toBeNull();
  });

  it('replaces a whole short section by the compact pointer only while it costs at most half the chars', () => {
    const pointer = compactOf('a.ts', [r(5, 9)]);
    const at = (chars: number) =>
      pointerOrLines({ path: 'a.ts', covered: [r(5, 9)], chars, calls: [1] });
    expect(at(2 * pointer.length)).toBe(pointer);
    expect(at(2 * pointer.length - 1)).toBeNull();
  });

  it('names symbols only while the compact pointer stays at most half the chars', () => {
    const named = compactOf('a.ts', [r(5, 9)], ['parse']);
    const bare = compactOf('a.ts', [r(5, 9)]);
    const at = (chars: number) =>
      pointerOrLines({ path: 'a.ts', covered: [r(5, 9)], chars, calls: [1], symbols: ['parse'] });
    expect(at(2 * named.length)).toBe(named);
    expect(at(2 * named.length - 1)).toBe(bare);
    expect(at(2 * bare.length - 1)).toBeNull();
  });

  it('sends a short run that sits amid other lines of its section', () => {
    expect(
      pointerOrLines({ path: 'a.ts', covered: [r(5, 9)], chars: 10_000, whole: false }),
    ).toBeNull();
    expect(
      pointerOrLines({ path: 'a.ts', covered: [r(5, 12)], chars: 10_000, whole: false }),
    ).not.toBeNull();
  });

  it('writes the pointer a plan chose, naming symbols only while they fit', () => {
    const choice = {
      path: 'a.ts',
      covered: [r(5, 9)],
      calls: [1],
      symbols: ['parse'],
      planned: true,
    };
    expect(pointerOrLines({ ...choice, chars: 0 })).toBe(compactOf('a.ts', [r(5, 9)]));
    expect(pointerOrLines({ ...choice, chars: 10_000 })).toBe(
      compactOf('a.ts', [r(5, 9)], ['parse']),
    );
  });

  it('measures the pointer in the host wording: longer words send the lines', () => {
    const choice = { path: 'a.ts', covered: [r(5, 9)], calls: [1], chars: 100 };
    expect(pointerOrLines(choice)).not.toBeNull();
    const wordy = {
      compact: '{what}: this section was already sent to you, unchanged, in {numbers}.',
    };
    expect(pointerOrLines(choice, wordy)).toBeNull();
    expect(pointerOrLines(choice, () => 'a.ts again')).toBe('a.ts again');
  });

  it('never throws, and reads what it cannot read as no saving (seed 30001)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (raw, words) => {
        const out = pointerOrLines(raw as never, words as never);
        expect(out === null || typeof out === 'string').toBe(true);
      }),
      { seed: 30001, numRuns: 300 },
    );
    const junk = { path: 'a.ts', covered: [r(5, 9)], chars: 'lots', calls: [1] };
    expect(pointerOrLines(junk as never)).toBeNull();
    expect(
      pointerOrLines({ path: 'a.ts', covered: [{ start: 0, end: 3 }], chars: 1e9 }),
    ).toBeNull();
  });
});

describe('the size gate and the renderer ask the policy', () => {
  // 200 lines of 40 chars: a section of n lines is 40·n chars.
  const content = lines(200, 40);
  const prior = projectState([
    callRecord([
      { path: 'a.ts', ranges: [r(1, 200)], chars: 1, fingerprint: fingerprint(content) },
    ]),
  ]);

  it('points at a whole short section exactly when the pointer the renderer writes is at most half its chars', () => {
    for (let n = 1; n <= 4; n++) {
      const plan = planFile({ path: 'a.ts', content, intended: [r(10, 9 + n)], prior });
      const pays = 2 * compactOf('a.ts', [r(10, 9 + n)]).length <= 40 * n;
      expect(plan.render).toBe(pays ? 'pointer' : 'full');
      if (!pays) continue;
      const recorder = createEmissionRecorder({ projectRoot: '/repo', query: 'a.ts' });
      const { text } = renderRead({ plan, content, recorder });
      expect(text).toBe(`Response #2\n${compactOf('a.ts', [r(10, 9 + n)])}\n`);
    }
  });
});
