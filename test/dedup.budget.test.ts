/**
 * planCall's budget, figure by figure, on files whose every line is exactly
 * 10 chars: how a budget object is read, how `maxChars` is shared among the
 * files that render, what happens to the chars line granularity leaves over,
 * the call's totals, and `bank` dropping a pointer that dedup off would not
 * have had room to show.
 */
import { describe, expect, it } from 'vitest';
import { type CallBudget, type PlanCallFile, type ProjectState, planCall } from '../src/index.js';
import { callRecord, projectState } from './_prior.js';

/** `n` lines of exactly 10 chars each (9 + '\n'), distinct per `tag`. */
const tenCharLines = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag}${String(i + 1).padStart(8, '0')}\n`).join('');

const file = (path: string, lines: number, intended = lines): PlanCallFile => ({
  path,
  content: tenCharLines(lines, path[0]!),
  intended: [{ start: 1, end: intended }],
});

const sent = (budget: unknown, files: PlanCallFile[], prior: ProjectState | null = null) => {
  const plan = planCall({ files, prior, budget: budget as CallBudget });
  return {
    plan,
    chars: plan.files.map((f) => f.newChars),
    renders: plan.files.map((f) => f.render),
  };
};

describe('reading the budget', () => {
  const files = [file('a.ts', 5), file('b.ts', 7)];

  it.each([
    ['null', null],
    ['a number', 300],
    ['a string', 'maxChars'],
    ['negative limits', { maxChars: -1, maxFiles: -1 }],
    ['NaN limits', { maxChars: Number.NaN, maxFiles: Number.NaN }],
    ['limits that are strings', { maxChars: '20', maxFiles: '1' }],
    ['an empty object', {}],
    [
      'an object whose getters throw',
      Object.defineProperty({}, 'maxChars', {
        get: () => {
          throw new Error('hostile');
        },
      }),
    ],
  ])('%s is no limit', (_label, budget) => {
    const { chars, renders } = sent(budget, files);
    expect(chars).toEqual([50, 70]);
    expect(renders).toEqual(['full', 'full']);
  });

  it('maxFiles counts whole files, rounded down', () => {
    expect(sent({ maxFiles: 1.9 }, files).renders).toEqual(['full', 'skipped']);
    expect(sent({ maxFiles: 0 }, files).renders).toEqual(['skipped', 'skipped']);
    expect(sent({ maxFiles: 2 }, files).renders).toEqual(['full', 'full']);
  });

  it('maxChars alone cuts at whole lines, and 0 sends nothing', () => {
    expect(sent({ maxChars: 0 }, files).renders).toEqual(['skipped', 'skipped']);
    const { chars, plan } = sent({ maxChars: 95 }, files);
    expect(chars).toEqual([50, 40]);
    expect(plan.newChars).toBe(90);
    expect(plan.files[1]!.emit).toEqual([{ start: 1, end: 4 }]);
  });
});

describe('sharing maxChars', () => {
  it('meets small demands in full and shares the rest evenly, then gives the leftover in rank order', () => {
    // Demands 50, 200, 300 under 300: the level is 125 once the 50 is met;
    // whole lines make that 120 and 120, and the 10 left over go to the first cut file.
    const { chars, plan } = sent({ maxChars: 300 }, [
      file('a.ts', 5),
      file('b.ts', 20),
      file('c.ts', 30),
    ]);
    expect(chars).toEqual([50, 130, 120]);
    expect(plan.newChars).toBe(300);
    expect(plan.files.map((f) => f.render)).toEqual(['full', 'full', 'full']);
    expect(plan.files[2]!.emit).toEqual([{ start: 1, end: 12 }]);
  });

  it('fills every file when the budget covers all demands', () => {
    expect(sent({ maxChars: 1000 }, [file('a.ts', 5), file('b.ts', 20)]).chars).toEqual([50, 200]);
  });

  it('skips a file whose share is under one line', () => {
    const { renders, chars } = sent({ maxChars: 25 }, [
      file('a.ts', 5),
      file('b.ts', 5),
      file('c.ts', 5),
    ]);
    // Shares of 8⅓ chars: no line fits; the 25 then go in rank order, two lines to a.ts.
    expect(chars).toEqual([20, 0, 0]);
    expect(renders).toEqual(['full', 'skipped', 'skipped']);
  });
});

/** A session that was sent lines `1..covered` of each file, from this very content. */
function priorFor(files: readonly PlanCallFile[], covered: number): ProjectState {
  const served = files.map((f) => ({
    path: f.path,
    ranges: [{ start: 1, end: covered }],
    chars: covered * 10,
    fingerprint: planCall({ files: [f], prior: null }).files[0]!.fingerprint,
  }));
  return projectState([callRecord(served)]);
}

describe('the call totals', () => {
  it('foldedChars adds up what each file folded into its pointer', () => {
    // 40 lines held; 41 and 42 are new closing braces, only 20 chars: trivial and
    // under minDeltaChars, so folded. c.ts's new lines are code and are sent.
    const braces = (f: PlanCallFile): PlanCallFile => ({
      ...f,
      content: `${tenCharLines(40, f.path[0]!)}        }\n        }\n`,
    });
    const files = [braces(file('a.ts', 42)), braces(file('b.ts', 42)), file('c.ts', 60)];
    const plan = planCall({ files, prior: priorFor(files, 40) });
    expect(plan.files.map((f) => f.foldedChars)).toEqual([20, 20, 0]);
    expect(plan.foldedChars).toBe(40);
    expect(plan.files.map((f) => f.coveredChars)).toEqual([400, 400, 400]);
    expect(plan.coveredChars).toBe(1200);
    expect(plan.newChars).toBe(200);
  });
});

describe('bank', () => {
  it('drops the pointer of a file dedup off would have had no room for', () => {
    const files = [file('a.ts', 10), file('b.ts', 20)];
    const prior = priorFor([files[1]!], 20);
    // Shares of 7½ chars fit no line; the 15 then give a.ts one line and b.ts none.
    const budget = { maxChars: 15, policy: 'bank' as const };
    const off = planCall({ files, prior, budget, enabled: false });
    expect(off.files.map((f) => f.render)).toEqual(['full', 'skipped']);
    const bank = planCall({ files, prior, budget });
    expect(bank.files.map((f) => f.render)).toEqual(['full', 'skipped']);
    expect(bank.newChars).toBe(10);
    // With room for b.ts, its pointer shows.
    const roomy = planCall({ files, prior, budget: { maxChars: 300, policy: 'bank' } });
    expect(roomy.files.map((f) => f.render)).toEqual(['full', 'backref']);
  });

  it('leaves a file with no intended lines as dedup off does', () => {
    const files = [file('a.ts', 10), { ...file('b.ts', 10), intended: [] }];
    const budget = { maxChars: 50, policy: 'bank' as const };
    const bank = planCall({ files, prior: priorFor([files[0]!], 10), budget });
    const off = planCall({ files, prior: null, budget });
    expect(bank.files[1]!.render).toBe(off.files[1]!.render);
    expect(bank.files[1]!.newChars).toBe(0);
  });
});

describe('what planCall passes on and restores', () => {
  it('plans with the thresholds it is given', () => {
    // 5 lines held: under the default minCoveredLines (8) they are re-sent, at 3 they are not.
    // (c.ts is new, so the hold-back has no reason to restore a.ts.)
    const files = [file('a.ts', 5), file('c.ts', 3)];
    const prior = priorFor([files[0]!], 5);
    expect(planCall({ files, prior }).files[0]!.render).toBe('full');
    expect(planCall({ files, prior, thresholds: { minCoveredLines: 3 } }).files[0]!.render).toBe(
      'backref',
    );
  });

  it('under spend, keeps the pointer when the held-back file does not fit the budget', () => {
    const files = [file('a.ts', 10), file('b.ts', 10)];
    const prior = priorFor(files, 10);
    const roomy = planCall({ files, prior, budget: { maxChars: 1000 } });
    expect(roomy.heldBack).toBe('a.ts');
    expect(roomy.files.map((f) => f.render)).toEqual(['full', 'backref']);
    const tight = planCall({ files, prior, budget: { maxChars: 5 } });
    expect(tight.heldBack).toBeNull();
    expect(tight.files.map((f) => f.render)).toEqual(['backref', 'backref']);
    expect(tight.files[0]!.covered).toEqual([{ start: 1, end: 10 }]);
    expect(tight.newChars).toBe(0);
  });

  it('under bank, a file without a path takes no slot from the files after it', () => {
    const files = [{ ...file('a.ts', 5), path: '' }, file('b.ts', 5)];
    const plan = planCall({ files, prior: null, budget: { maxFiles: 1, policy: 'bank' } });
    expect(plan.files.map((f) => f.render)).toEqual(['skipped', 'full']);
    expect(plan.newChars).toBe(50);
  });

  it('skips a file with nothing intended, under either policy', () => {
    const files = [file('a.ts', 5), { ...file('b.ts', 5), intended: [] }];
    for (const policy of ['spend', 'bank'] as const) {
      const plan = planCall({ files, prior: null, budget: { maxChars: 100, policy } });
      expect(plan.files[1]!.render).toBe('skipped');
      expect(plan.files[1]!.emit).toEqual([]);
    }
  });

  it('gives a file whose spans all lie past its end no file slot', () => {
    // Issue: such a file rendered 'full' with an empty emit and took the only slot.
    const files = [{ ...file('a.ts', 5), intended: [{ start: 9, end: 12 }] }, file('b.ts', 5)];
    for (const policy of ['spend', 'bank'] as const) {
      const plan = planCall({ files, prior: null, budget: { maxFiles: 1, policy } });
      expect(plan.files.map((f) => f.render)).toEqual(['skipped', 'full']);
      expect(plan.newChars).toBe(50);
    }
    const unbudgeted = planCall({ files, prior: null });
    expect(unbudgeted.files.map((f) => f.render)).toEqual(['skipped', 'full']);
  });
});
