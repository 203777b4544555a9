/**
 * planCall's budget, figure by figure, on files whose every line is exactly
 * 10 chars: how a budget object is read, how `maxChars` is shared among the
 * files that render, what happens to the chars line granularity leaves over,
 * the call's totals, and `bank` dropping a pointer that dedup off would not
 * have had room to show.
 */
import { describe, expect, it } from 'vitest';
import {
  type CallBudget,
  createLedger,
  type LineRange,
  ledgerReducer,
  type PlanCallFile,
  type ProjectState,
  planCall,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { callRecord, emissionOf, fileEmission, projectState, ranges } from './_build.js';

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
    expect(plan.files[1]!.emit).toEqual(ranges('1-4'));
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
    expect(plan.files[2]!.emit).toEqual(ranges('1-12'));
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
  const served = files.map((f) =>
    fileEmission(
      f.path,
      [{ start: 1, end: covered }],
      covered * 10,
      planCall({ files: [f], prior: null }).files[0]!.fingerprint,
    ),
  );
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

/** The lines of a set, one number each. */
const linesIn = (spans: readonly LineRange[]) =>
  spans.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, (_, k) => r.start + k));

describe('bank: the dedup-off response with duplicates replaced by pointers', () => {
  /** Plans `intended` of a 200-line file through a real ledger, call after call. */
  function twoCalls(first: LineRange, second: LineRange, extra: PlanCallFile[] = []) {
    const budget = { maxChars: 1000, policy: 'bank' as const };
    const a = file('a.ts', 200);
    let ledger = createLedger();
    const call = (intended: LineRange) => {
      const files = [{ ...a, intended: [intended] }, ...extra];
      const prior = projectFromView(sessionView(ledger), '/repo');
      const plan = planCall({ files, prior, budget });
      const off = planCall({ files, prior, budget, enabled: false });
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: emissionOf(plan, '/repo') });
      return { plan, off };
    };
    return [call(first), call(second)] as const;
  }

  it('asked twice for a 200-line file, never sends a line dedup off would not have sent', () => {
    // Issue: the second call sent L64-122 plus a pointer, more than dedup off's L1-63.
    const [, { plan, off }] = twoCalls({ start: 1, end: 200 }, { start: 1, end: 200 });
    expect(off.files[0]!.emit).toEqual(ranges('1-100'));
    // The only file is held in full: the hold-back restores it, exactly as dedup off sends it.
    expect(plan.heldBack).toBe('a.ts');
    expect(plan.files[0]!.emit).toEqual(ranges('1-100'));
    expect(plan.files[0]!.covered).toEqual([]);
    expect(plan.files[0]!.folded).toEqual([]);
    expect(plan.newChars).toBe(off.newChars);
  });

  it('with another file to show, answers the held file with its pointer alone', () => {
    const [, { plan, off }] = twoCalls({ start: 1, end: 200 }, { start: 1, end: 200 }, [
      file('b.ts', 5),
    ]);
    expect(off.files.map((f) => f.newChars)).toEqual([950, 50]);
    expect(plan.files[0]!.render).toBe('pointer');
    expect(plan.files[0]!.covered).toEqual(ranges('1-95'));
    expect(plan.files[1]!.emit).toEqual(ranges('1-5'));
    expect(plan.newChars).toBe(50);
  });

  it('sends the dedup-off lines it does not hold, and points at the ones it does', () => {
    const [, { plan, off }] = twoCalls({ start: 1, end: 30 }, { start: 1, end: 200 });
    expect(off.files[0]!.emit).toEqual(ranges('1-100'));
    const f = plan.files[0]!;
    expect(f.render).toBe('partial');
    expect(f.covered).toEqual(ranges('1-30'));
    expect(f.emit).toEqual(ranges('31-100'));
    expect(f.newChars).toBe(700);
    // Every line sent is one dedup off sends: the source only shrinks.
    const offLines = new Set(linesIn(off.files[0]!.emit));
    for (const l of linesIn(f.emit)) expect(offLines.has(l)).toBe(true);
  });

  it('names no pointer for held lines dedup off would have cut', () => {
    // L150-200 are held, but dedup off sends L101-200's first 100 lines only... of L101-200.
    const [, { plan, off }] = twoCalls({ start: 150, end: 200 }, { start: 1, end: 200 });
    expect(off.files[0]!.emit).toEqual(ranges('1-100'));
    expect(plan.files[0]!.render).toBe('full');
    expect(plan.files[0]!.covered).toEqual([]);
    expect(plan.files[0]!.emit).toEqual(ranges('1-100'));
  });

  it('writes no pointer when dedup off cuts away every held run, and keeps one that reaches into its lines', () => {
    // L4 (one line, a section of its own, too short for a pointer to pay) and
    // L6-L6+n are held. Dedup off has room for L4 alone, or for L4 and the
    // first line of the long run.
    const a = file('a.ts', 30);
    let ledger = createLedger();
    // No hold-back: the file alone is held in full, and would be restored.
    const plan = (intended: LineRange[], budget?: CallBudget) =>
      planCall({
        files: [{ ...a, intended }],
        prior: projectFromView(sessionView(ledger), '/repo'),
        budget,
        holdBack: false,
      });
    const first = plan(ranges('1-20'));
    ledger = ledgerReducer(ledger, { type: 'recorded', emission: emissionOf(first, '/repo') });
    const layout = (long: number) => [
      { start: 4, end: 4 },
      { start: 6, end: 5 + long },
    ];
    const free = plan(layout(10)).files[0]!;
    expect(free.covered).toEqual([{ start: 6, end: 15 }]);
    expect(free.emit).toEqual([{ start: 4, end: 4 }]);
    const lone = plan(layout(10), { maxChars: 10, policy: 'bank' }).files[0]!;
    expect(lone.render).toBe('full');
    expect(lone.covered).toEqual([]);
    expect(lone.folded).toEqual([]);
    expect(lone.emit).toEqual(ranges('4'));
    expect(lone.newChars).toBe(10);
    // A run of exactly minCoveredLines (8) reaching into the dedup-off lines keeps the pointer.
    const both = plan(layout(8), { maxChars: 20, policy: 'bank' }).files[0]!;
    expect(both.render).toBe('partial');
    expect(both.covered).toEqual([{ start: 6, end: 13 }]);
    expect(both.emit).toEqual([{ start: 4, end: 4 }]);
  });

  it('keeps a held run whole in the pointer when dedup off cuts through it', () => {
    const [, { plan }] = twoCalls({ start: 90, end: 120 }, { start: 1, end: 200 });
    const f = plan.files[0]!;
    expect(f.covered).toEqual(ranges('90-120'));
    expect(f.emit).toEqual(ranges('1-89'));
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
    expect(roomy.files.map((f) => f.render)).toEqual(['full', 'pointer']);
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
      'pointer',
    );
  });

  it('under spend, keeps the pointer when the held-back file does not fit the budget', () => {
    const files = [file('a.ts', 10), file('b.ts', 10)];
    const prior = priorFor(files, 10);
    const roomy = planCall({ files, prior, budget: { maxChars: 1000 } });
    expect(roomy.heldBack).toBe('a.ts');
    expect(roomy.files.map((f) => f.render)).toEqual(['full', 'pointer']);
    const tight = planCall({ files, prior, budget: { maxChars: 5 } });
    expect(tight.heldBack).toBeNull();
    expect(tight.files.map((f) => f.render)).toEqual(['pointer', 'pointer']);
    expect(tight.files[0]!.covered).toEqual(ranges('1-10'));
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
    const files = [{ ...file('a.ts', 5), intended: ranges('9-12') }, file('b.ts', 5)];
    for (const policy of ['spend', 'bank'] as const) {
      const plan = planCall({ files, prior: null, budget: { maxFiles: 1, policy } });
      expect(plan.files.map((f) => f.render)).toEqual(['skipped', 'full']);
      expect(plan.newChars).toBe(50);
    }
    const unbudgeted = planCall({ files, prior: null });
    expect(unbudgeted.files.map((f) => f.render)).toEqual(['skipped', 'full']);
  });
});
