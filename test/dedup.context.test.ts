/**
 * Context truth in the planner: every call has a number (`callIndex`), every
 * covered line names the responses that delivered it (`coveredBy`), so a
 * pointer can cite them and the agent can ask for exactly those back.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  fingerprint,
  type Ledger,
  type LineRange,
  ledgerReducer,
  type PlanCallFile,
  planCall,
  planFile,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { callRecord, emissionOf, fileEmission, span as r } from './_build.js';

const ROOT = '/repo';
/** `n` numbered code lines. */
const source = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `export const ${tag}${i + 1} = ${i};\n`).join('');

const a = source(200, 'a');
const b = source(50, 'b');

/** A session through the real ledger: each call plans against the view, then records. */
function session() {
  let ledger: Ledger = createLedger();
  return {
    prior: () => projectFromView(sessionView(ledger), ROOT),
    call(files: PlanCallFile[]) {
      const plan = planCall({ files, prior: projectFromView(sessionView(ledger), ROOT) });
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: emissionOf(plan, ROOT) });
      return plan;
    },
  };
}

describe('callIndex', () => {
  it('is null when untracked, and the tracked call number otherwise', () => {
    const file = { path: 'a.ts', content: a, intended: [r(1, 10)] };
    expect(planCall({ files: [file], prior: null }).callIndex).toBeNull();
    const s = session();
    expect(s.call([file]).callIndex).toBe(1);
    expect(s.call([file]).callIndex).toBe(2);
    expect(s.call([{ ...file, path: 'b.ts', content: b }]).callIndex).toBe(3);
    // It is the index the ledger gave the record.
    expect(s.prior()?.calls.map((c) => c.index)).toEqual([1, 2, 3]);
  });

  it('counts past the records the view still holds', () => {
    const prior = { projectRoot: ROOT, callCount: 41, responseChars: 0, calls: [] };
    expect(planCall({ files: [], prior }).callIndex).toBe(42);
  });
});

describe('coveredBy', () => {
  it('names the response that served the covered lines', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]);
    const plan = s.call([
      { path: 'a.ts', content: a, intended: [r(1, 60)] },
      { path: 'b.ts', content: b, intended: [r(1, 10)] },
    ]);
    expect(plan.files[0]!.covered).toEqual([r(1, 40)]);
    expect(plan.files[0]!.coveredBy).toEqual([1]);
    expect(plan.files[1]!.coveredBy).toEqual([]);
  });

  it('lists every response that served some covered line, most recent first, each once', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 20)] }]); // #1
    s.call([{ path: 'b.ts', content: b, intended: [r(1, 20)] }]); // #2: another file
    s.call([{ path: 'a.ts', content: a, intended: [r(50, 80)] }]); // #3
    s.call([{ path: 'a.ts', content: a, intended: [r(10, 30)] }]); // #4: L21-30 new, L10-20 again
    const plan = s.call([
      { path: 'a.ts', content: a, intended: [r(1, 80)] },
      { path: 'b.ts', content: b, intended: [r(30, 40)] },
    ]);
    const f = plan.files[0]!;
    expect(f.covered).toEqual([r(1, 30), r(50, 80)]);
    expect(f.coveredBy).toEqual([4, 3, 1]);
  });

  it('leaves out a response that served only lines outside the covered runs', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]); // #1
    s.call([{ path: 'a.ts', content: a, intended: [r(100, 103)] }]); // #2: 4 lines
    const plan = s.call([
      { path: 'a.ts', content: a, intended: [r(1, 40)] },
      { path: 'b.ts', content: b, intended: [r(1, 5)] },
    ]);
    expect(plan.files[0]!.covered).toEqual([r(1, 40)]);
    expect(plan.files[0]!.coveredBy).toEqual([1]);
  });

  it('never cites a record served from other content', () => {
    const fp = fingerprint(a);
    const prior = {
      projectRoot: ROOT,
      callCount: 2,
      responseChars: 0,
      calls: [
        callRecord([fileEmission('a.ts', [r(1, 40)], 9, 'old')], { projectRoot: ROOT, query: '' }),
        callRecord([fileEmission('a.ts', [r(20, 60)], 9, fp)], {
          index: 2,
          projectRoot: ROOT,
          query: '',
        }),
      ],
    };
    const plan = planFile({ path: 'a.ts', content: a, intended: [r(1, 60)], prior });
    expect(plan.covered).toEqual([r(20, 60)]);
    expect(plan.coveredBy).toEqual([2]);
  });

  it('is empty when nothing is covered, and when the hold-back restored the file', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]);
    const plan = s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]);
    expect(plan.heldBack).toBe('a.ts');
    expect(plan.files[0]!.coveredBy).toEqual([]);
  });
});

describe('plans are frozen', () => {
  it('so no caller can make a plan claim more later', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]);
    const plan = s.call([
      { path: 'a.ts', content: a, intended: [r(1, 60)] },
      { path: 'b.ts', content: b, intended: [r(1, 10)] },
    ]);
    const f = plan.files[0]!;
    for (const x of [
      plan,
      plan.files,
      f,
      f.emit,
      f.covered,
      f.coveredBy,
      f.folded,
      f.gates,
      f.covered[0],
      f.gates[0],
    ]) {
      expect(Object.isFrozen(x)).toBe(true);
    }
    expect(() => {
      (f.covered as LineRange[]).push(r(41, 200));
    }).toThrow(TypeError);
  });

  it('freezing a plan leaves the input as it was: its spans and files neither frozen nor changed', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 40)] }]);
    const intended = [r(1, 60), r(100, 120)];
    const file = { path: 'a.ts', content: a, intended };
    const plan = s.call([file]);
    expect(plan.files[0]!.render).toBe('partial');
    expect(Object.isFrozen(file)).toBe(false);
    expect(Object.isFrozen(intended)).toBe(false);
    for (const span of intended) expect(Object.isFrozen(span)).toBe(false);
    expect(intended).toEqual([r(1, 60), r(100, 120)]);
    for (const span of [...plan.files[0]!.emit, ...plan.files[0]!.covered]) {
      expect(intended.includes(span)).toBe(false);
    }
  });
});
