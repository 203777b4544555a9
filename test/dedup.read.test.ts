/**
 * Read tools: `planRead` for one window of one file, and `planCall` with the
 * hold-back off. An unchanged re-read answers with the pointer; a window that
 * reaches new lines gets the pointer and only those; an edited file comes back
 * whole; a junk or past-the-end window is skipped, never widened, and no
 * pointer ever stands for lines the reader was not sent.
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  type FilePlan,
  type Ledger,
  ledgerReducer,
  planCall,
  planRead,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { callRecord, fileEmission, span as r } from './_build.js';

const ROOT = '/repo';
/** `n` lines of exactly 10 chars each (9 + '\n'). */
const tenCharLines = (n: number, tag = 'a') =>
  Array.from({ length: n }, (_, i) => `${tag}${String(i + 1).padStart(8, '0')}\n`).join('');
const content = tenCharLines(300);

/** A read session through the real ledger, recording each plan as a read tool would. */
function reads() {
  // Room for every read of a session (the read-tool preset lands with the ledger's range bounds).
  let ledger: Ledger = createLedger({ maxCallsRetained: 256, maxViewCalls: 256 });
  return {
    read(input: Omit<Parameters<typeof planRead>[0], 'prior'>): FilePlan {
      const plan = planRead({ ...input, prior: projectFromView(sessionView(ledger), ROOT) });
      if (plan.render !== 'skipped') {
        const ranges = [...plan.emit, ...(plan.render === 'full' ? [] : plan.covered)];
        const files = [fileEmission(plan.path, ranges, plan.newChars, plan.fingerprint)];
        const emission = {
          projectRoot: ROOT,
          query: 'read',
          files,
          sourceChars: plan.newChars,
          responseChars: plan.newChars,
        };
        ledger = ledgerReducer(ledger, { type: 'recorded', emission });
      }
      return plan;
    },
  };
}

describe('planRead', () => {
  it('reads the whole file when no range is given', () => {
    for (const range of [undefined, null]) {
      const plan = planRead({ path: 'a.ts', content, range, prior: null });
      expect(plan.render).toBe('full');
      expect(plan.emit).toEqual([r(1, 300)]);
      expect(plan.newChars).toBe(3000);
    }
  });

  it('answers an unchanged re-read with the pointer alone: no hold-back', () => {
    const s = reads();
    expect(s.read({ path: 'a.ts', content, range: r(1, 100) }).render).toBe('full');
    const again = s.read({ path: 'a.ts', content, range: r(1, 100) });
    expect(again.render).toBe('pointer');
    expect(again.covered).toEqual([r(1, 100)]);
    expect(again.coveredBy).toEqual([1]);
    expect(again.newChars).toBe(0);
  });

  it('sends only the new lines of an overlapping window, after the pointer', () => {
    const s = reads();
    s.read({ path: 'a.ts', content, range: r(1, 100) });
    const next = s.read({ path: 'a.ts', content, range: r(80, 180) });
    expect(next.render).toBe('partial');
    expect(next.covered).toEqual([r(80, 100)]);
    expect(next.emit).toEqual([r(101, 180)]);
    const tail = s.read({ path: 'a.ts', content, range: r(150, 300) });
    expect(tail.covered).toEqual([r(150, 180)]);
    expect(tail.coveredBy).toEqual([2]);
    expect(tail.emit).toEqual([r(181, 300)]);
  });

  it('never answers a different window with a stub for the first one', () => {
    const s = reads();
    s.read({ path: 'a.ts', content, range: r(1, 100) });
    const other = s.read({ path: 'a.ts', content, range: r(200, 250) });
    expect(other.render).toBe('full');
    expect(other.covered).toEqual([]);
    expect(other.emit).toEqual([r(200, 250)]);
  });

  it('sends an edited file whole', () => {
    const s = reads();
    s.read({ path: 'a.ts', content, range: r(1, 100) });
    const edited = `changed\n${content}`;
    const plan = s.read({ path: 'a.ts', content: edited, range: r(1, 100) });
    expect(plan.render).toBe('full');
    expect(plan.emit).toEqual([r(1, 100)]);
    expect(plan.gates[2]?.reason).toBe('fingerprint-changed');
  });

  it('clips a window past the end, and never pads it with an empty line', () => {
    const text = 'a\nb\nc\n';
    expect(planRead({ path: 'a.ts', content: text, range: r(1, 1000), prior: null }).emit).toEqual([
      r(1, 3),
    ]);
    expect(planRead({ path: 'a.ts', content: text, range: r(2, 9), prior: null }).emit).toEqual([
      r(2, 3),
    ]);
  });

  it.each<[string, unknown]>([
    ['past the end', r(301, 400)],
    ['reversed', { start: 50, end: 10 }],
    ['starting at 0', { start: 0, end: 10 }],
    ['fractional', { start: 1.5, end: 10 }],
    ['a string', 'L1-10'],
    ['a number', 10],
    ['an array', [r(1, 10)]],
    ['missing its end', { start: 5 }],
    [
      'a hostile getter',
      Object.defineProperty({ end: 10 }, 'start', {
        get: () => {
          throw new Error('x');
        },
      }),
    ],
  ])('skips a window %s: no source, no pointer', (_label, range) => {
    const s = reads();
    s.read({ path: 'a.ts', content, range: r(1, 300) });
    const plan = s.read({ path: 'a.ts', content, range: range as never });
    expect(plan.render).toBe('skipped');
    // Nothing asked for, so nothing the earlier read served overlaps it.
    expect(plan.gates[3]?.reason).toBe('no-overlap');
    expect(plan.emit).toEqual([]);
    expect(plan.covered).toEqual([]);
    expect(plan.coveredBy).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['null', null],
    ['an object', { text: 'a' }],
  ])('skips content that is %s', (_label, junk) => {
    const plan = planRead({ path: 'a.ts', content: junk as never, prior: null });
    expect(plan.render).toBe('skipped');
    expect(plan.gates[2]?.reason === 'no-content' || plan.gates[1]?.reason === 'untracked').toBe(
      true,
    );
  });

  it.each<[string, unknown]>([
    ['a number', 7],
    ['empty', ''],
  ])('skips a path that is %s', (_label, path) => {
    const plan = planRead({ path: path as never, content, prior: null });
    expect(plan.render).toBe('skipped');
    expect(plan.path).toBe('');
  });

  it.each([
    ['a .. segment', '../secrets/a.ts'],
    ['a .. segment inside', 'src/../a.ts'],
    ['a NUL', 'a.ts\u0000.png'],
    ['10,000 chars', `${'d/'.repeat(5000)}`],
  ])('sends the window in full for a path with %s, withholding nothing', (_label, path) => {
    const s = reads();
    s.read({ path, content, range: r(1, 100) });
    const plan = s.read({ path, content, range: r(1, 100) });
    expect(plan.render).toBe('full');
    expect(plan.emit).toEqual([r(1, 100)]);
    expect(plan.covered).toEqual([]);
  });

  it('keeps a name with two dots that is not a .. segment', () => {
    const s = reads();
    s.read({ path: 'a..b.ts', content, range: r(1, 100) });
    expect(s.read({ path: 'a..b.ts', content, range: r(1, 100) }).render).toBe('pointer');
  });

  it('never throws on junk input', () => {
    for (const input of [undefined, null, 7, 'read', {}, []]) {
      expect(planRead(input as never).render).toBe('skipped');
    }
  });
});

describe('planCall with holdBack: false', () => {
  it('answers a call of held files with pointers only', () => {
    const files = [{ path: 'a.ts', content, intended: [r(1, 50)] }];
    const fp = planCall({ files, prior: null }).files[0]!.fingerprint;
    const prior = {
      projectRoot: ROOT,
      callCount: 1,
      responseChars: 0,
      calls: [
        callRecord([fileEmission('a.ts', [r(1, 50)], 500, fp)], { projectRoot: ROOT, query: '' }),
      ],
    };
    const on = planCall({ files, prior });
    expect(on.heldBack).toBe('a.ts');
    const off = planCall({ files, prior, holdBack: false });
    expect(off.heldBack).toBeNull();
    expect(off.files[0]!.render).toBe('pointer');
    expect(off.newChars).toBe(0);
    // Anything but false keeps it on.
    expect(planCall({ files, prior, holdBack: 'no' as never }).heldBack).toBe('a.ts');
  });
});
