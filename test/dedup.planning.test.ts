import { describe, expect, it } from 'vitest';
import {
  type CallPlan,
  createLedger,
  DEDUP_THRESHOLDS,
  dedupEnabledFromEnv,
  type FilePlan,
  fingerprint,
  type Ledger,
  type LineRange,
  ledgerReducer,
  type PlanCallFile,
  type ProjectState,
  planCall,
  planFile,
  projectFromView,
  sessionView,
} from '../src/index.js';
import { emissionOf, plain, span as r } from './_build.js';

const ROOT = '/repo';

/** `n` lines of ~40 chars each, distinct per `tag`. */
function source(n: number, tag = 'a'): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) lines.push(`export const ${tag}${i} = compute(${i}, '${tag}');`);
  return lines.join('\n');
}

/** Chars of lines of `content`, computed from `split('\n')`: each line plus its terminator. */
function charsModel(content: string, spans: readonly LineRange[]): number {
  const lines = content.split('\n');
  let sum = 0;
  for (const s of spans) {
    for (let l = s.start; l <= s.end; l++) sum += lines[l - 1]!.length + (l < lines.length ? 1 : 0);
  }
  return sum;
}

/** A project state with one retained call per entry of `calls`. */
function project(
  calls: { path: string; ranges: LineRange[]; fingerprint?: string }[][],
): ProjectState {
  return {
    projectRoot: ROOT,
    callCount: calls.length,
    responseChars: 1000 * calls.length,
    calls: calls.map((files, i) => ({
      index: i + 1,
      projectRoot: ROOT,
      query: `q${i}`,
      sourceChars: 0,
      responseChars: 1000,
      files: files.map((f) => ({ chars: 100, ...f })),
    })),
  };
}

/** A session driven through the real ledger: plan against its view, then record. */
function session() {
  let ledger: Ledger = createLedger();
  return {
    prior: () => projectFromView(sessionView(ledger), ROOT),
    call(files: PlanCallFile[]): CallPlan {
      const plan = planCall({ files, prior: projectFromView(sessionView(ledger), ROOT) });
      ledger = ledgerReducer(ledger, { type: 'recorded', emission: emissionOf(plan, ROOT, 200) });
      return plan;
    },
  };
}

const reasons = (p: FilePlan) => p.gates.map((g) => `${g.gate}:${g.verdict}:${g.reason}`);

describe('DEDUP_THRESHOLDS', () => {
  it('has the documented defaults', () => {
    expect(DEDUP_THRESHOLDS).toEqual({
      minCoveredLines: 8,
      minDeltaChars: 160,
      maxSpansInPointer: 4,
      maxSymbolsInPointer: 5,
    });
    expect(Object.isFrozen(DEDUP_THRESHOLDS)).toBe(true);
  });
});

describe('dedupEnabledFromEnv', () => {
  it('is on when the variable is unset or empty', () => {
    expect(dedupEnabledFromEnv({})).toBe(true);
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: '' })).toBe(true);
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: undefined })).toBe(true);
  });

  it.each(['0', 'false', 'off', 'no', ' OFF ', 'False', '\tNo\n'])('is off for %j', (v) => {
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: v })).toBe(false);
  });

  it.each(['1', 'true', 'on', 'yes', 'nope', '00'])('is on for %j', (v) => {
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: v })).toBe(true);
  });

  it('reads the variable it is told to', () => {
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: '0', OTHER: '1' }, 'OTHER')).toBe(true);
    expect(dedupEnabledFromEnv({ OTHER: 'off' }, 'OTHER')).toBe(false);
  });

  it('reads process.env by default', () => {
    const saved = process.env.SPAN_LEDGER_DEDUP;
    try {
      process.env.SPAN_LEDGER_DEDUP = 'off';
      expect(dedupEnabledFromEnv()).toBe(false);
      delete process.env.SPAN_LEDGER_DEDUP;
      expect(dedupEnabledFromEnv()).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.SPAN_LEDGER_DEDUP;
      else process.env.SPAN_LEDGER_DEDUP = saved;
    }
  });

  it('never throws on a hostile environment', () => {
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
      },
    );
    expect(dedupEnabledFromEnv(env)).toBe(true);
  });
});

describe('planFile: lines and chars', () => {
  it('counts every line with its terminator, so all lines add up to the content length', () => {
    // POSIX lines, counted by hand: a final '\n' ends the last line.
    const cases: [string, number][] = [
      ['a', 1],
      ['a\n', 1],
      ['\n', 1],
      ['\n\n', 2],
      ['a\nb\nc\n', 3],
      ['ab\ncd\n\nef', 4],
      ['x\r\ny\r\n', 2],
      ['é😀\nx', 2],
    ];
    for (const [content, n] of cases) {
      const plan = planFile({ path: 'f', content, intended: [r(1, 1000)], prior: null });
      expect(plan.newChars).toBe(content.length);
      expect(plain(plan.emit)).toEqual([r(1, n)]);
    }
  });

  it('gives an empty content no line, so it renders skipped', () => {
    const plan = planFile({ path: 'f', content: '', intended: [r(1, 1)], prior: null });
    expect(plan.render).toBe('skipped');
    expect(plan.emit).toEqual([]);
    expect(plan.newChars).toBe(0);
  });

  it('never pads a window past a final newline with an empty line', () => {
    const plan = planFile({ path: 'f', content: 'a\nb\nc\n', intended: [r(1, 1000)], prior: null });
    expect(plain(plan.emit)).toEqual([r(1, 3)]);
    const past = planFile({ path: 'f', content: 'a\nb\nc\n', intended: [r(4, 4)], prior: null });
    expect(past.render).toBe('skipped');
  });

  it('gives the chars of a middle span from its first char through its last newline', () => {
    const content = 'one\ntwo\nthree\nfour';
    const plan = planFile({ path: 'f', content, intended: [r(2, 3)], prior: null });
    expect(plan.newChars).toBe('two\nthree\n'.length);
  });

  it('clips intended spans past the last line and drops invalid ones', () => {
    const content = source(10);
    const plan = planFile({
      path: 'f',
      content,
      intended: [r(8, 40), r(50, 60), { start: Number.NaN, end: 3 }, { start: 3, end: 1 }, r(2, 2)],
      prior: null,
    });
    expect(plain(plan.emit)).toEqual([r(2, 2), r(8, 10)]);
    expect(plan.newChars).toBe(charsModel(content, [r(2, 2), r(8, 10)]));
  });

  it('computes the fingerprint unless the caller passes one', () => {
    const content = source(5);
    expect(planFile({ path: 'f', content, intended: [], prior: null }).fingerprint).toBe(
      fingerprint(content),
    );
    expect(
      planFile({ path: 'f', content, intended: [], prior: null, fingerprint: '9:abc' }).fingerprint,
    ).toBe('9:abc');
  });
});

describe('planFile: the five gates', () => {
  const content = source(100);
  const fp = fingerprint(content);

  it('a later call that wants a wider window gets only the delta', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 80)], prior });
    expect(plan.render).toBe('partial');
    expect(plain(plan.covered)).toEqual([r(1, 40)]);
    expect(plain(plan.emit)).toEqual([r(41, 80)]);
    expect(plan.newChars).toBe(charsModel(content, [r(41, 80)]));
    expect(plan.coveredChars).toBe(charsModel(content, [r(1, 40)]));
    expect(reasons(plan)).toEqual([
      'switch:pass:enabled',
      'session:pass:has-history',
      'content:pass:fingerprint-match',
      'size:pass:covered',
      'delta:pass:delta-kept',
    ]);
  });

  it('a 7-line overlap withholds nothing', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(14, 20)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 40)], prior });
    expect(plan.render).toBe('full');
    expect(plain(plan.emit)).toEqual([r(1, 40)]);
    expect(plan.covered).toEqual([]);
    expect(reasons(plan).slice(3)).toEqual([
      'size:stop:below-min-covered',
      'delta:skip:nothing-covered',
    ]);
  });

  it('an 8-line overlap is replaced by a pointer', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(13, 20)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 40)], prior });
    expect(plan.render).toBe('partial');
    expect(plain(plan.covered)).toEqual([r(13, 20)]);
    expect(plain(plan.emit)).toEqual([r(1, 12), r(21, 40)]);
  });

  it('re-sends in full when the file changed between two calls', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 100)], fingerprint: fp }]]);
    const edited = content.replace('a50 = compute(50', 'a50 = compute(51');
    const plan = planFile({ path: 'a.ts', content: edited, intended: [r(1, 100)], prior });
    expect(plan.render).toBe('full');
    expect(plan.newChars).toBe(edited.length);
    expect(reasons(plan)[2]).toBe('content:stop:fingerprint-changed');
  });

  it('ignores a record without a fingerprint', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 100)] }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 100)], prior });
    expect(plan.render).toBe('full');
    expect(reasons(plan)[2]).toBe('content:stop:no-fingerprint');
  });

  it('says never-served for a path no retained call sent', () => {
    const prior = project([[{ path: 'b.ts', ranges: [r(1, 100)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 100)], prior });
    expect(plan.render).toBe('full');
    expect(reasons(plan)[2]).toBe('content:stop:never-served');
  });

  it('says no-overlap when the held lines lie elsewhere in the file', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(60, 90)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 40)], prior });
    expect(plan.render).toBe('full');
    expect(reasons(plan)[3]).toBe('size:stop:no-overlap');
  });

  it('sends a short new remainder that carries code: an exported one-liner is never folded', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40)], fingerprint: fp }]]);
    const small = planFile({ path: 'a.ts', content, intended: [r(1, 42)], prior });
    expect(charsModel(content, [r(41, 42)])).toBeLessThan(160);
    expect(small.render).toBe('partial');
    expect(plain(small.emit)).toEqual([r(41, 42)]);
    expect(small.newChars).toBe(charsModel(content, [r(41, 42)]));
    expect(small.folded).toEqual([]);
    expect(small.foldedChars).toBe(0);
    expect(reasons(small)[4]).toBe('delta:pass:delta-kept');
  });

  it('folds a short remainder of blanks and closing punctuation into the pointer', () => {
    // Lines 41-44: a blank, a closing brace, whitespace only, and `)];,` — no code.
    const text = `${source(40)}\n\n}\n   \t\n  )];,\nexport const tail = 1;`;
    const tfp = fingerprint(text);
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40)], fingerprint: tfp }]]);
    const plan = planFile({ path: 'a.ts', content: text, intended: [r(1, 44)], prior });
    expect(plan.render).toBe('pointer');
    expect(plan.emit).toEqual([]);
    expect(plain(plan.folded)).toEqual([r(41, 44)]);
    expect(plan.foldedChars).toBe(charsModel(text, [r(41, 44)]));
    expect(reasons(plan)[4]).toBe('delta:fold:folded-small-delta');
    // One line of code among them, and the whole remainder is sent.
    const withCode = planFile({ path: 'a.ts', content: text, intended: [r(1, 45)], prior });
    expect(withCode.render).toBe('partial');
    expect(plain(withCode.emit)).toEqual([r(41, 45)]);
    expect(withCode.foldedChars).toBe(0);
  });

  it('keeps a trivial remainder at or over minDeltaChars as source', () => {
    const text = `${source(40)}\n${'}\n'.repeat(80)}`;
    const tfp = fingerprint(text);
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40)], fingerprint: tfp }]]);
    const plan = planFile({ path: 'a.ts', content: text, intended: [r(1, 120)], prior });
    expect(charsModel(text, [r(41, 120)])).toBe(160);
    expect(plan.render).toBe('partial');
    expect(plan.foldedChars).toBe(0);
  });

  it('sends a short held run at the edge of a section that also sends new lines', () => {
    // L1-40 earn the pointer; L45-47 (3 lines) start a section whose other lines are new.
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40), r(45, 47)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 40), r(45, 60)], prior });
    expect(plain(plan.covered)).toEqual([r(1, 40)]);
    expect(plain(plan.emit)).toEqual([r(45, 60)]);
    expect(plan.render).toBe('partial');
  });

  it('keeps a short held run inside a sent span as source: no hole', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 40), r(50, 52)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 60)], prior });
    expect(plain(plan.covered)).toEqual([r(1, 40)]);
    expect(plain(plan.emit)).toEqual([r(41, 60)]);
  });

  it('adds no pointer for short held runs alone, even at an edge', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 5), r(56, 60)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 60)], prior });
    expect(plan.render).toBe('full');
    expect(plan.covered).toEqual([]);
    expect(reasons(plan)[3]).toBe('size:stop:below-min-covered');
  });

  it('renders a pointer only when every intended line is held', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 100)], fingerprint: fp }]]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(10, 30)], prior });
    expect(plan.render).toBe('pointer');
    expect(plan.foldedChars).toBe(0);
    expect(reasons(plan)[4]).toBe('delta:pass:all-covered');
  });

  it('unions what every retained call with this fingerprint served', () => {
    const prior = project([
      [{ path: 'a.ts', ranges: [r(1, 5)], fingerprint: fp }],
      [{ path: 'a.ts', ranges: [r(6, 12)], fingerprint: fp }],
      [{ path: 'a.ts', ranges: [r(13, 30)], fingerprint: 'other' }],
    ]);
    const plan = planFile({ path: 'a.ts', content, intended: [r(1, 30)], prior });
    expect(plain(plan.covered)).toEqual([r(1, 12)]);
    expect(plain(plan.emit)).toEqual([r(13, 30)]);
  });

  it('honours thresholds passed by the caller', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(14, 20)], fingerprint: fp }]]);
    const plan = planFile({
      path: 'a.ts',
      content,
      intended: [r(1, 40)],
      prior,
      thresholds: { minCoveredLines: 7 },
    });
    expect(plain(plan.covered)).toEqual([r(14, 20)]);
  });

  it.each([
    ['a string', '7'],
    ['NaN', Number.NaN],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])(
    'keeps the default for a threshold that is %s, and Infinity withholds nothing',
    (_name, bad) => {
      // A 7-line held run: withheld at minCoveredLines 7, not at the default 8.
      const prior = project([[{ path: 'a.ts', ranges: [r(14, 20)], fingerprint: fp }]]);
      const at = (minCoveredLines: unknown) =>
        planFile({
          path: 'a.ts',
          content,
          intended: [r(1, 40)],
          prior,
          thresholds: { minCoveredLines } as never,
        });
      expect(plain(at(7).covered)).toEqual([r(14, 20)]);
      expect(at(bad).covered).toEqual([]);
      // Held but for its last line, so no whole held section earns a pointer either.
      const all = project([[{ path: 'a.ts', ranges: [r(1, 40)], fingerprint: fp }]]);
      const never = planFile({
        path: 'a.ts',
        content,
        intended: [r(1, 41)],
        prior: all,
        thresholds: { minCoveredLines: Number.POSITIVE_INFINITY },
      });
      expect(never.render).toBe('full');
      expect(never.covered).toEqual([]);
    },
  );

  it.each(['src/../a.ts', '../a.ts', 'src/..', 'src\\..\\a.ts'])(
    'plans a path with a .. segment (%s) in full, and says why at the content gate',
    (path) => {
      const prior = project([[{ path, ranges: [r(1, 40)], fingerprint: fp }]]);
      const plan = planFile({ path, content, intended: [r(1, 40)], prior });
      expect(plan.render).toBe('full');
      expect(plain(plan.emit)).toEqual([r(1, 40)]);
      expect(reasons(plan).slice(0, 3)).toEqual([
        'switch:pass:enabled',
        'session:pass:has-history',
        'content:stop:unusable-path',
      ]);
    },
  );

  it('a first call, and an untracked call, plan exactly as with dedup off', () => {
    const intended = [r(1, 30), r(50, 70)];
    const off = planFile({ path: 'a.ts', content, intended, prior: project([]), enabled: false });
    const first = planFile({ path: 'a.ts', content, intended, prior: project([]) });
    const untracked = planFile({ path: 'a.ts', content, intended, prior: null });
    for (const p of [first, untracked]) {
      expect({ ...p, gates: [], callIndex: 0 }).toEqual({ ...off, gates: [], callIndex: 0 });
    }
    expect([off.callIndex, first.callIndex, untracked.callIndex]).toEqual([1, 1, null]);
    expect(reasons(first)[1]).toBe('session:stop:first-call');
    expect(reasons(untracked)[1]).toBe('session:stop:untracked');
    expect(reasons(off)).toEqual([
      'switch:stop:disabled',
      'session:skip:not-reached',
      'content:skip:not-reached',
      'size:skip:not-reached',
      'delta:skip:nothing-covered',
    ]);
  });
});

describe('planCall: scenarios', () => {
  const a = source(120, 'a');
  const b = source(90, 'b');

  it('the fourth identical query still returns real source', () => {
    const s = session();
    const files = [
      { path: 'a.ts', content: a, intended: [r(1, 60)] },
      { path: 'b.ts', content: b, intended: [r(10, 50)] },
    ];
    const plans = [s.call(files), s.call(files), s.call(files), s.call(files)];
    expect(plans[0]!.heldBack).toBeNull();
    for (const plan of plans) expect(plan.newChars).toBeGreaterThan(0);
    for (const plan of plans.slice(1)) {
      expect(plan.heldBack).toBe('a.ts');
      // A screen of orientation from the top, the rest of the section a pointer.
      expect(plan.files[0]!.render).toBe('partial');
      expect(plan.files[0]!.emit[0]!.start).toBe(1);
      expect(plan.files[1]!.render).toBe('pointer');
    }
    const last = plans[3]!.files[0]!;
    expect(plans[3]!.newChars).toBeLessThanOrEqual(1200);
    expect(plans[3]!.newChars).toBe(charsModel(a, last.emit));
    expect(plain([...last.emit, ...last.covered])).toEqual([
      r(1, last.emit[0]!.end),
      r(last.emit[0]!.end + 1, 60),
    ]);
  });

  it('re-sends in full when the file changed between two calls (through a real ledger)', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(1, 120)] }]);
    const edited = `${a}\n// a new last line`;
    const plan = s.call([{ path: 'a.ts', content: edited, intended: [r(1, 121)] }]);
    expect(plan.files[0]!.render).toBe('full');
    expect(plan.newChars).toBe(edited.length);
  });

  it('a wider window through a real ledger gets only the delta', () => {
    const s = session();
    s.call([{ path: 'a.ts', content: a, intended: [r(20, 60)] }]);
    const plan = s.call([{ path: 'a.ts', content: a, intended: [r(1, 100)] }]);
    expect(plan.files[0]!.render).toBe('partial');
    expect(plain(plan.files[0]!.covered)).toEqual([r(20, 60)]);
    expect(plain(plan.files[0]!.emit)).toEqual([r(1, 19), r(61, 100)]);
  });

  it('dedup switched off renders exactly like a session with no history', () => {
    const s = session();
    const files = [
      { path: 'a.ts', content: a, intended: [r(1, 60)] },
      { path: 'b.ts', content: b, intended: [r(10, 50)] },
    ];
    s.call(files);
    const prior = s.prior();
    const budget = { maxChars: 2000, maxFiles: 1 };
    const off = planCall({ files, prior, enabled: false, budget });
    const fresh = planCall({ files, prior: null, budget });
    // The same plan but for the gates' reasons, and the call number the tracked call has.
    const strip = (p: CallPlan) => ({
      ...p,
      callIndex: 0,
      files: p.files.map((f) => ({ ...f, gates: [], callIndex: 0 })),
    });
    expect(strip(off)).toEqual(strip(fresh));
    expect(off.callIndex).toBe(2);
    expect(fresh.callIndex).toBeNull();
    expect(off.coveredChars).toBe(0);
    expect(off.heldBack).toBeNull();
  });

  it('hold-back restores exactly one file, the first one that is all pointer', () => {
    const fa = fingerprint(a);
    const fb = fingerprint(b);
    const prior = project([
      [
        { path: 'a.ts', ranges: [r(1, 120)], fingerprint: fa },
        { path: 'b.ts', ranges: [r(1, 90)], fingerprint: fb },
      ],
    ]);
    const plan = planCall({
      files: [
        { path: 'a.ts', content: a, intended: [r(1, 10), r(30, 50)] },
        { path: 'b.ts', content: b, intended: [r(1, 40)] },
      ],
      prior,
    });
    expect(plan.heldBack).toBe('a.ts');
    expect(plan.files.map((f) => f.render)).toEqual(['full', 'pointer']);
    expect(plain(plan.files[0]!.emit)).toEqual([r(1, 10), r(30, 50)]);
    expect(plan.newChars).toBe(charsModel(a, [r(1, 10), r(30, 50)]));
    // Only the restored file's pointer is gone: the other one still counts.
    expect(plan.coveredChars).toBe(charsModel(b, [r(1, 40)]));
  });

  it('does not hold back when some file carries new source', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 120)], fingerprint: fingerprint(a) }]]);
    const plan = planCall({
      files: [
        { path: 'a.ts', content: a, intended: [r(1, 60)] },
        { path: 'b.ts', content: b, intended: [r(1, 5)] },
      ],
      prior,
    });
    expect(plan.heldBack).toBeNull();
    expect(plan.files.map((f) => f.render)).toEqual(['pointer', 'full']);
  });

  it('a file that is all pointer takes no file slot', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 120)], fingerprint: fingerprint(a) }]]);
    const plan = planCall({
      files: [
        { path: 'a.ts', content: a, intended: [r(1, 60)] },
        { path: 'b.ts', content: b, intended: [r(1, 20)] },
        { path: 'c.ts', content: source(30, 'c'), intended: [r(1, 20)] },
      ],
      prior,
      budget: { maxFiles: 1 },
    });
    expect(plan.files.map((f) => f.render)).toEqual(['pointer', 'full', 'skipped']);
    expect(plan.files[2]!.emit).toEqual([]);
  });

  it('shares maxChars max-min fairly: a small file leaves its unused share to the others', () => {
    const c = source(100, 'c');
    const files = [
      { path: 'a.ts', content: a, intended: [r(1, 100)] },
      { path: 'b.ts', content: b, intended: [r(1, 2)] },
      { path: 'c.ts', content: c, intended: [r(1, 100)] },
    ];
    const small = charsModel(b, [r(1, 2)]);
    const plan = planCall({ files, prior: null, budget: { maxChars: 3000 } });
    const [pa, pb, pc] = plan.files;
    expect(pb!.newChars).toBe(small);
    // Each big file got about half of what the small one left, cut at whole lines.
    const half = (3000 - small) / 2;
    const lineChars = charsModel(a, [r(1, 1)]) + 2;
    for (const p of [pa!, pc!]) {
      expect(p.newChars).toBeLessThanOrEqual(half + lineChars);
      expect(p.newChars).toBeGreaterThan(half - lineChars);
      expect(p.emit[0]!.start).toBe(1);
    }
    expect(plan.newChars).toBeLessThanOrEqual(3000);
    expect(3000 - plan.newChars).toBeLessThan(lineChars);
  });

  it('under bank a deduped file keeps its dedup-off allowance and sends less', () => {
    const prior = project([[{ path: 'a.ts', ranges: [r(1, 50)], fingerprint: fingerprint(a) }]]);
    const files = [
      { path: 'a.ts', content: a, intended: [r(1, 100)] },
      { path: 'b.ts', content: b, intended: [r(1, 90)] },
    ];
    const budget = { maxChars: 4000, policy: 'bank' as const };
    const bank = planCall({ files, prior, budget });
    const off = planCall({ files, prior, budget, enabled: false });
    const spend = planCall({ files, prior, budget: { maxChars: 4000 } });
    expect(bank.newChars).toBeLessThan(off.newChars);
    expect(bank.files[1]!.newChars).toBe(off.files[1]!.newChars);
    expect(spend.newChars).toBeGreaterThan(bank.newChars);
    expect(spend.files[1]!.newChars).toBeGreaterThan(off.files[1]!.newChars);
  });
});

describe('planCall: edge cases found by the properties', () => {
  it('under bank with no room, a held-back file the budget cannot fit is left out, as with dedup off', () => {
    const content = '\n'.repeat(7); // eight empty lines, 7 chars
    const prior = project([
      [{ path: 'e.ts', ranges: [r(1, 8)], fingerprint: fingerprint(content) }],
    ]);
    const files = [{ path: 'e.ts', content, intended: [r(1, 8)] }];
    const budget = { maxChars: 0, policy: 'bank' as const };
    const bank = planCall({ files, prior, budget });
    const off = planCall({ files, prior, budget, enabled: false });
    expect(off.files[0]!.render).toBe('skipped');
    expect(bank.files[0]!.render).toBe('skipped');
    expect(bank.heldBack).toBeNull();
  });
});

describe('bad input never throws', () => {
  const content = source(20);
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('boom');
      },
    },
  );

  it('planFile plans junk as empty or in full', () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'x',
      {},
      { path: 3, content, intended: [r(1, 5)], prior: null },
      { path: 'a', content: 5, intended: [r(1, 5)], prior: null },
      { path: 'a', content, intended: 'nope', prior: null },
      { path: 'a', content, intended: [null, { start: '1', end: 2 }, r(0, 3)], prior: null },
      { path: 'a', content, intended: [r(1, 5)], prior: 'junk' },
      { path: 'a', content, intended: [r(1, 5)], prior: { calls: 'x' } },
      { path: 'a', content, intended: [r(1, 5)], prior: { calls: [null, { files: [null, 1] }] } },
      { path: 'a', content, intended: [r(1, 5)], prior: null, thresholds: hostile },
      hostile,
    ];
    for (const input of junk) {
      const plan = planFile(input as never);
      expect(plan.gates).toHaveLength(5);
      expect(['full', 'skipped']).toContain(plan.render);
    }
    const noContent = planFile({
      path: 'a',
      content: 5 as never,
      intended: [r(1, 5)],
      prior: null,
    });
    expect(noContent.emit).toEqual([]);
    expect(noContent.fingerprint).toBe('');
  });

  it('planCall skips junk files and keeps planning the rest', () => {
    const plan = planCall({
      files: [
        null,
        42,
        { path: '', content, intended: [r(1, 5)] },
        { path: 'a', content: null, intended: [r(1, 5)] },
        hostile,
        { path: 'ok.ts', content, intended: [r(1, 5)] },
      ] as never,
      prior: { calls: [hostile] } as never,
      budget: hostile as never,
      thresholds: hostile as never,
    });
    expect(plan.files.map((f) => f.render)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'full',
    ]);
    expect(plan.newChars).toBe(charsModel(content, [r(1, 5)]));
  });

  it('planCall with no input at all gives an empty plan', () => {
    for (const input of [undefined, null, {}, { files: 'x' }, hostile]) {
      const plan = planCall(input as never);
      expect(plan).toEqual({
        files: [],
        heldBack: null,
        callIndex: null,
        generation: null,
        newChars: 0,
        coveredChars: 0,
        foldedChars: 0,
      });
    }
  });
});
