/**
 * What the planner makes of the prior it is handed: priors that cannot be read
 * or serve other paths, served records without a fingerprint, without spans or
 * without an index, the bank policy with an unusable file, threshold and
 * pointer inputs at the edges, and the session block's wording.
 */
import { describe, expect, it } from 'vitest';
import {
  describeSession,
  fingerprint,
  formatPointer,
  formatSessionBlock,
  type ProjectState,
  planCall,
  planFile,
  servedRangesForFile,
  symbolsInSpans,
} from '../src/index.js';
import { fileEmission, ranges } from './_build.js';

const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
const fp = fingerprint(content);

function prior(files: unknown[]): ProjectState {
  return {
    projectRoot: '/r',
    callCount: 1,
    responseChars: 100,
    calls: [
      {
        projectRoot: '/r',
        query: '',
        files: files as never,
        sourceChars: 0,
        responseChars: 100,
        index: 1,
      },
    ],
  };
}

const contentGate = (p: { gates: readonly { gate: string; reason: string }[] }) =>
  p.gates.find((g) => g.gate === 'content')?.reason;

describe('the prior, as the planner reads it', () => {
  it('a prior whose calls cannot be read is a first call: nothing withheld', () => {
    const unreadable = Object.defineProperty({ projectRoot: '/r' }, 'calls', {
      get(): never {
        throw new Error('hostile calls');
      },
    });
    const plan = planFile({
      path: 'a.ts',
      content,
      intended: ranges('1-30'),
      prior: unreadable as never,
    });
    expect(plan.render).toBe('full');
    expect(plan.emit).toEqual(ranges('1-30'));
    expect(contentGate(plan)).toBe('not-reached');
    expect(plan.gates[1]?.reason).toBe('first-call');
  });

  it('a prior that is not an object is untracked', () => {
    for (const junk of [undefined, 7, 'prior']) {
      const plan = planFile({
        path: 'a.ts',
        content,
        intended: ranges('1-3'),
        prior: junk as never,
      });
      expect(plan.gates[1]?.reason).toBe('untracked');
    }
  });

  it('served files without a usable path, and files of other paths, are left out', () => {
    const p = prior([
      fileEmission('', '1-30', 10, fp),
      fileEmission(7, '1-30', 10, fp),
      fileEmission('a.ts', '1-30', 10, fp),
      fileEmission('b.ts', '1-30', 10, fp),
    ]);
    expect(describeSession(p)?.priorFiles.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    expect(servedRangesForFile(p, 'a.ts', fp)).toEqual(ranges('1-30'));
    expect(servedRangesForFile(p, '', fp)).toEqual([]);
    expect(servedRangesForFile(p, 7 as never, fp)).toEqual([]);
    const plan = planFile({ path: 'b.ts', content, intended: ranges('1-30'), prior: p });
    expect(plan.covered).toEqual(ranges('1-30'));
  });

  it('a record without a positive integer index is dropped: nothing could cite it', () => {
    const served = fileEmission('a.ts', '1-30', 10, fp);
    for (const index of [0, -1, 1.5, '1', undefined]) {
      const p = {
        projectRoot: '/r',
        callCount: 1,
        responseChars: 0,
        calls: [{ index, files: [served] }],
      };
      const plan = planFile({
        path: 'a.ts',
        content,
        intended: ranges('1-30'),
        prior: p as never,
      });
      expect(plan.covered).toEqual([]);
      expect(plan.render).toBe('full');
    }
  });

  it('a path served only without a fingerprint: no-fingerprint, nothing withheld', () => {
    const p = prior([fileEmission('a.ts', '1-30', 10)]);
    const plan = planFile({ path: 'a.ts', content, intended: ranges('1-30'), prior: p });
    expect(contentGate(plan)).toBe('no-fingerprint');
    expect(plan.covered).toEqual([]);
  });

  it('a matching fingerprint with no valid spans covers nothing', () => {
    const p = prior([fileEmission('a.ts', [{ start: 5, end: 2 }], 10, fp)]);
    const plan = planFile({ path: 'a.ts', content, intended: ranges('1-30'), prior: p });
    expect(contentGate(plan)).toBe('fingerprint-match');
    expect(plan.gates[3]?.reason).toBe('no-overlap');
    expect(plan.covered).toEqual([]);
  });

  it('a fingerprint passed in that is empty or too long is not trusted: the content is hashed', () => {
    const p = prior([fileEmission('a.ts', '1-30', 10, fp)]);
    for (const given of ['', 'x'.repeat(300)]) {
      const plan = planFile({
        path: 'a.ts',
        content,
        intended: ranges('1-30'),
        prior: p,
        fingerprint: given,
      });
      expect(plan.fingerprint).toBe(fp);
    }
  });
});

describe('budgets', () => {
  const file = { path: 'a.ts', content, intended: ranges('1-3') };

  it('a budget with no usable limit is no budget', () => {
    const none = planCall({ files: [file], prior: null });
    for (const budget of [{}, { maxChars: -1, maxFiles: Number.NaN }, { policy: 'bank' as const }])
      expect(planCall({ files: [file], prior: null, budget })).toEqual(none);
  });

  it.each(['spend', 'bank'] as const)(
    '%s: a file whose first line does not fit in the budget is skipped',
    (policy) => {
      const plan = planCall({ files: [file], prior: null, budget: { maxChars: 1, policy } });
      expect(plan.files[0]?.render).toBe('skipped');
      expect(plan.newChars).toBe(0);
    },
  );
});

describe('the bank budget', () => {
  it('a file answered by a pointer keeps it; the new file gets its source', () => {
    const p = prior([fileEmission('a.ts', '1-30', 200, fp)]);
    const plan = planCall({
      files: [
        { path: 'a.ts', content, intended: ranges('1-30') },
        { path: 'b.ts', content, intended: ranges('1-3') },
      ],
      prior: p,
      budget: { maxChars: 10_000, policy: 'bank' },
    });
    expect(plan.files.map((f) => f.render)).toEqual(['pointer', 'full']);
    expect(plan.files[0]?.covered).toEqual(ranges('1-30'));
    expect(plan.files[1]?.emit).toEqual(ranges('1-3'));
  });

  it('an unusable file is skipped and the others keep their dedup-off slot', () => {
    const plan = planCall({
      files: [null as never, { path: 'a.ts', content, intended: ranges('1-3') }],
      prior: null,
      budget: { maxChars: 10_000, policy: 'bank' },
    });
    expect(plan.files.map((f) => f.render)).toEqual(['skipped', 'full']);
    expect(plan.files[1]?.emit).toEqual(ranges('1-3'));
  });
});

describe('thresholds and the pointer at the edges', () => {
  it('Infinity is kept as a threshold: no held run is long enough for it', () => {
    const p = prior([fileEmission('a.ts', '1-29', 10, fp)]);
    // One line more than was held: no section is held whole either.
    const intended = ranges('1-30');
    const thresholds = { minCoveredLines: Number.POSITIVE_INFINITY };
    const plan = planFile({ path: 'a.ts', content, intended, prior: p, thresholds });
    expect(plan.render).toBe('full');
    expect(plan.gates[3]?.reason).toBe('below-min-covered');
  });

  it('a pointer names only the string symbols of its list', () => {
    const text = formatPointer({
      path: 'a.ts',
      covered: ranges('1-9'),
      symbols: ['Cart', 7 as never, 'total'],
    });
    expect(text).toContain('Cart');
    expect(text).toContain('total');
    expect(text).not.toContain('7');
  });

  it('symbolsInSpans skips a node whose fields cannot be read', () => {
    const hostile = Object.defineProperty({}, 'name', {
      enumerable: true,
      get(): never {
        throw new Error('hostile node');
      },
    });
    const nodes = [hostile, { name: 'f', kind: 'function', start: 1, end: 3 }];
    expect(symbolsInSpans(nodes as never, ranges('1-9'))).toEqual(['f']);
  });

  it('a pointer with symbols that are not a list names none', () => {
    const withList = formatPointer({
      path: 'a.ts',
      covered: ranges('1-9'),
      symbols: ['Cart'],
    });
    const without = formatPointer({
      path: 'a.ts',
      covered: ranges('1-9'),
      symbols: 'Cart' as never,
    });
    expect(withList).toContain('Cart');
    expect(without).not.toContain('Cart');
    expect(without).toContain('L1-9');
  });
});

describe('the session block', () => {
  it('a file recorded without a spans list counts its chars and shows no spans', () => {
    const p = prior([{ ...fileEmission('a.ts', '', 1200), ranges: 'L1-3' }]);
    const d = describeSession(p);
    expect(d?.priorFiles).toEqual([fileEmission('a.ts', '', 1200)]);
    expect(formatSessionBlock(d)).toBe(
      'session: call #2 for this project · 1 earlier call · 100 chars sent so far\n' +
        '  sent before: a.ts · 1,200 chars',
    );
  });

  it('a block whose file has no spans list shows none for it', () => {
    const text = formatSessionBlock({
      callIndex: 3,
      priorCalls: 2,
      priorChars: 5,
      priorFiles: [{ ...fileEmission('x.ts', '', 7), ranges: 'nope' as never }],
    });
    expect(text.split('\n')[1]).toBe('  sent before: x.ts · 7 chars');
  });

  it('says "+1 more file" for exactly one file past the eight shown', () => {
    const priorFiles = Array.from({ length: 9 }, (_, i) => fileEmission(`f${i}.ts`, '1-2', 10));
    const text = formatSessionBlock({ callIndex: 2, priorCalls: 1, priorChars: 90, priorFiles });
    expect(text.split('\n').at(-1)).toBe('  +1 more file');
    expect(text.split('\n')).toHaveLength(1 + 8 + 1);
  });
});

describe('served ranges, the one rule the planner and servedRangesForFile share', () => {
  it('joins what two entries of one path in one record served', () => {
    const p = prior([
      fileEmission('a.ts', '10-20', 10, fp),
      fileEmission('a.ts', '1-12', 10, fp),
      fileEmission('a.ts', '25-28', 10, 'other'),
    ]);
    expect(servedRangesForFile(p, 'a.ts', fp)).toEqual(ranges('1-20'));
    const plan = planFile({ path: 'a.ts', content, intended: ranges('1-30'), prior: p });
    expect(plan.covered).toEqual(ranges('1-20'));
    expect(plan.coveredBy).toEqual([1]);
  });

  it('a hand-written prior: what the planner cannot cite, servedRangesForFile does not hold', () => {
    const served = (ranges: unknown) => fileEmission('a.ts', ranges, 10, fp);
    const hostile = Object.defineProperty({ index: 3 }, 'files', {
      get(): never {
        throw new Error('hostile files');
      },
    });
    const p = {
      projectRoot: '/r',
      callCount: 3,
      responseChars: 0,
      calls: [
        { files: [served(ranges('1-30'))] },
        { index: 2, files: [served(ranges('1-12'))] },
        hostile,
      ],
    } as never;
    expect(servedRangesForFile(p, 'a.ts', fp)).toEqual(ranges('1-12'));
    const plan = planFile({ path: 'a.ts', content, intended: ranges('1-30'), prior: p });
    expect(plan.covered).toEqual(ranges('1-12'));
    expect(plan.coveredBy).toEqual([2]);
  });
});

describe('the session block on junk paths', () => {
  it('prints an empty name for a file whose path is not a string', () => {
    const text = formatSessionBlock({
      callIndex: 2,
      priorCalls: 1,
      priorChars: 0,
      priorFiles: [fileEmission(7 as never, '1-2', 3)],
    });
    expect(text.split('\n')[1]).toBe('  sent before:  · 3 chars · L1-2');
  });
});
