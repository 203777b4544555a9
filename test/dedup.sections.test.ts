/**
 * The planner's rules about sections (DESIGN rev 3): a whole held section
 * points when its compact pointer is at most half its chars, a short held run
 * beside new lines is sent, the hold-back restores a capped head of the file,
 * a path given twice is one section, the plan carries its thresholds, and a
 * cut says where it is.
 */
import { describe, expect, it } from 'vitest';
import {
  DEDUP_THRESHOLDS,
  fingerprint,
  formatPointer,
  type LineRange,
  type PlanCallFile,
  planCall,
  planFile,
  planRead,
} from '../src/index.js';
import { callRecord, plain, projectState, span as r } from './_build.js';

/** `n` lines of exactly `width` chars each (newline included), distinct per line. */
const lines = (n: number, width: number) =>
  Array.from({ length: n }, (_, i) => `${`v${i + 1} = 1;`.padEnd(width - 1, '/')}\n`).join('');

/** A prior whose response #1 served `ranges` of `path` from `content`. */
const heldIn = (path: string, content: string, ranges: LineRange[]) =>
  projectState([callRecord([{ path, ranges, chars: 1, fingerprint: fingerprint(content) }])]);

describe('the size gate: a whole held section', () => {
  // 200 lines of 40 chars: a 5-line section is 200 chars.
  const content = lines(200, 40);
  const prior = heldIn('a.ts', content, [r(1, 200)]);

  it('points at a whole held section shorter than minCoveredLines when its compact pointer is at most half its chars', () => {
    const plan = planFile({ path: 'a.ts', content, intended: [r(10, 14), r(50, 60)], prior });
    expect(plain(plan.covered)).toEqual([r(10, 14), r(50, 60)]);
    expect(plan.render).toBe('pointer');
    const compact = formatPointer({
      path: 'a.ts',
      covered: [r(10, 14)],
      calls: [1],
      compact: true,
    });
    expect(compact).toBe('`a.ts` L10-14: unchanged, sent in #1.');
    expect(2 * compact.length).toBeLessThanOrEqual(200);
  });

  it('re-sends a whole held section whose compact pointer would be more than half its chars', () => {
    // Two 40-char lines: 80 chars, and the pointer is 31.
    const two = planFile({ path: 'a.ts', content, intended: [r(10, 11)], prior });
    expect(two.render).toBe('pointer');
    const one = planFile({ path: 'a.ts', content, intended: [r(10, 10)], prior });
    expect(one.render).toBe('full');
    expect(one.gates[3]?.reason).toBe('below-min-covered');
    // A long path makes the pointer too long for the two lines as well.
    const path = `src/${'deep/'.repeat(8)}module.ts`;
    const far = planFile({
      path,
      content,
      intended: [r(10, 11)],
      prior: heldIn(path, content, [r(1, 200)]),
    });
    expect(far.render).toBe('full');
  });

  it('measures whole held sections of one file together, by the one compact pointer that names them all', () => {
    // Three one-line sections of 40 chars: alone each pointer is over half its line,
    // together the pointer the renderer writes is under half of their 120 chars.
    const intended = [r(10, 10), r(20, 20), r(30, 30)];
    const alone = formatPointer({ path: 'a.ts', covered: [r(10, 10)], calls: [1], compact: true });
    const together = formatPointer({ path: 'a.ts', covered: intended, calls: [1], compact: true });
    expect(2 * alone.length).toBeGreaterThan(40);
    expect(2 * together.length).toBeLessThanOrEqual(120);
    const plan = planFile({ path: 'a.ts', content, intended, prior });
    expect(plan.render).toBe('pointer');
    expect(plain(plan.covered)).toEqual(intended);
    // Measured by what it writes: with a longer path the shared pointer no longer pays.
    const path = `src/${'deep/'.repeat(8)}module.ts`;
    const far = planFile({ path, content, intended, prior: heldIn(path, content, [r(1, 200)]) });
    expect(far.render).toBe('full');
    expect(far.covered).toEqual([]);
  });

  it('sends a short held run next to new lines, at either edge or inside', () => {
    const partly = heldIn('a.ts', content, [r(10, 14), r(30, 33), r(47, 50)]);
    const plan = planFile({
      path: 'a.ts',
      content,
      intended: [r(8, 14), r(28, 40), r(47, 52)],
      prior: partly,
    });
    expect(plan.render).toBe('full');
    expect(plan.covered).toEqual([]);
  });

  it('a section the budget cuts keeps its long pointer whole and shows the rest', () => {
    const long = heldIn('a.ts', content, [r(1, 20)]);
    const plan = planCall({
      files: [{ path: 'a.ts', content, intended: [r(1, 100)] }],
      prior: long,
      budget: { maxChars: 400 },
    }).files[0]!;
    expect(plain(plan.covered)).toEqual([r(1, 20)]);
    expect(plain(plan.emit)).toEqual([r(21, 30)]);
    expect(plan.cutAt).toBe(31);
  });
});

describe('the capped hold-back', () => {
  const content = lines(100, 40);
  const prior = heldIn('a.ts', content, [r(1, 100)]);
  const files: PlanCallFile[] = [{ path: 'a.ts', content, intended: [r(1, 100)] }];

  it('restores at most holdBackChars (1,200 by default) from the section start; the rest stays a pointer', () => {
    const plan = planCall({ files, prior });
    const f = plan.files[0]!;
    expect(plan.heldBack).toBe('a.ts');
    expect(f.render).toBe('partial');
    expect(plain(f.emit)).toEqual([r(1, 30)]);
    expect(f.newChars).toBe(1200);
    expect(plain(f.covered)).toEqual([r(31, 100)]);
    expect(f.coveredBy).toEqual([1]);
  });

  it('an exact repeat of a one-file answer re-sends at most 1,200 source chars', () => {
    const big = lines(2000, 60);
    const again = planCall({
      files: [{ path: 'big.ts', content: big, intended: [r(1, 2000)] }],
      prior: heldIn('big.ts', big, [r(1, 2000)]),
    });
    expect(again.newChars).toBeGreaterThan(0);
    expect(again.newChars).toBeLessThanOrEqual(1200);
  });

  it('holdBackChars is a planCall option: Infinity restores the whole section, a bad value the default', () => {
    const whole = planCall({ files, prior, holdBackChars: Number.POSITIVE_INFINITY }).files[0]!;
    expect(whole.render).toBe('full');
    expect(whole.newChars).toBe(4000);
    expect(planCall({ files, prior, holdBackChars: 400 }).newChars).toBe(400);
    for (const bad of [-1, Number.NaN, '400', null]) {
      expect(planCall({ files, prior, holdBackChars: bad as never }).newChars).toBe(1200);
    }
  });

  it('holdBack: false still turns it off', () => {
    const plan = planCall({ files, prior, holdBack: false, holdBackChars: 400 });
    expect(plan.heldBack).toBeNull();
    expect(plan.files[0]!.render).toBe('pointer');
  });

  it('a held run the cap ends inside keeps at least minCoveredLines lines to point at', () => {
    // 33 lines: the cap ends at L30, which would leave 3 held lines beside the shown ones.
    const short = lines(33, 40);
    const plan = planCall({
      files: [{ path: 'a.ts', content: short, intended: [r(1, 33)] }],
      prior: heldIn('a.ts', short, [r(1, 33)]),
    });
    const f = plan.files[0]!;
    expect(plain(f.emit)).toEqual([r(1, 25)]);
    expect(plain(f.covered)).toEqual([r(26, 33)]);
  });

  it('when no whole line fits the cap, the pointer stays', () => {
    const plan = planCall({ files, prior, holdBackChars: 39 });
    expect(plan.heldBack).toBeNull();
    expect(plan.files[0]!.render).toBe('pointer');
  });
});

describe('one section per file per call', () => {
  const content = lines(60, 40);

  it('a path given twice is planned once, at its first rank, with the union of its spans', () => {
    const plan = planCall({
      files: [
        { path: 'a.ts', content, intended: [r(1, 10)] },
        { path: 'b.ts', content, intended: [r(1, 5)] },
        { path: 'a.ts', content, intended: [r(5, 20), r(40, 45)] },
      ],
      prior: null,
    });
    expect(plan.files.map((f) => f.render)).toEqual(['full', 'full', 'skipped']);
    expect(plain(plan.files[0]!.emit)).toEqual([r(1, 20), r(40, 45)]);
    expect(plan.newChars).toBe(26 * 40 + 5 * 40);
  });

  it('the repeat takes no file slot', () => {
    const plan = planCall({
      files: [
        { path: 'a.ts', content, intended: [r(1, 10)] },
        { path: 'a.ts', content, intended: [r(20, 30)] },
        { path: 'b.ts', content, intended: [r(1, 5)] },
      ],
      prior: null,
      budget: { maxFiles: 2 },
    });
    expect(plan.files.map((f) => f.render)).toEqual(['full', 'skipped', 'full']);
    expect(plan.files[1]!.cutAt).toBeNull();
  });
});

describe('what a plan carries to the renderer', () => {
  const content = lines(60, 40);
  const prior = heldIn('a.ts', content, [r(1, 60)]);

  it('the thresholds it was made with, frozen', () => {
    const thresholds = { maxSpansInPointer: 1, maxSymbolsInPointer: 2 };
    const plan = planCall({
      files: [{ path: 'a.ts', content, intended: [r(1, 9)] }],
      prior,
      thresholds,
    });
    const t = plan.files[0]!.thresholds;
    // The defaults themselves are pinned in dedup.planning.test.ts.
    expect(t).toEqual({ ...DEDUP_THRESHOLDS, maxSpansInPointer: 1, maxSymbolsInPointer: 2 });
    expect(Object.isFrozen(t)).toBe(true);
  });

  it('the number of the response it plans, from a read as from a call', () => {
    expect(planRead({ path: 'a.ts', content, prior }).callIndex).toBe(2);
    expect(planRead({ path: 'a.ts', content, prior: null }).callIndex).toBeNull();
    const call = planCall({ files: [{ path: 'a.ts', content, intended: [r(1, 9)] }], prior });
    expect(call.files[0]!.callIndex).toBe(call.callIndex);
  });

  it('where the budget cut a file; a file the budget left out whole is cut at its first line', () => {
    const plan = planCall({
      files: [
        { path: 'a.ts', content, intended: [r(5, 60)] },
        { path: 'b.ts', content, intended: [r(3, 9)] },
      ],
      prior: null,
      budget: { maxChars: 400, maxFiles: 1 },
    });
    expect(plan.files.map((f) => f.cutAt)).toEqual([15, 3]);
    expect(
      planCall({ files: [{ path: 'a.ts', content, intended: [r(5, 9)] }], prior: null }).files[0]!
        .cutAt,
    ).toBeNull();
    const read = planRead({ path: 'a.ts', content, prior: null, budget: { maxChars: 80 } });
    expect(plain(read.emit)).toEqual([r(1, 2)]);
    expect(read.cutAt).toBe(3);
  });
});
