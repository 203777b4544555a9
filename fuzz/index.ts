/**
 * `npx tsx fuzz/index.ts`: a long fast-check run over the range algebra, the ledger
 * reducer and the planner, from one fixed seed, with hostile input throughout.
 * Zero throws and zero broken invariants, or a non-zero exit with the shrunk
 * counterexample. Not part of `npm test`: it runs for minutes, not seconds.
 *
 * Usage: `npx tsx fuzz/index.ts [--scale 0.1] [--seed 123]`.
 */
import fc from 'fast-check';
import {
  coalesceRanges,
  countLines,
  createLedger,
  dedupeRange,
  fingerprint,
  intersectRange,
  intersectRanges,
  type Ledger,
  type LineRange,
  ledgerReducer,
  mergeRanges,
  planCall,
  projectFromView,
  projectKey,
  rangesCover,
  servedRangesForFile,
  sessionView,
  subtractRange,
  subtractRanges,
} from '../src/index.js';
import {
  checkRangeAlgebra,
  coalesceModel,
  countLinesModel,
  coversLineModel,
  dedupeLines,
  hostileLedgerEventArb,
  hostileRangeArb,
  hostileRangeSetArb,
  intersectLines,
  linesOf,
  linesOfRange,
  mergeModel,
  runsOf,
  sessionArb,
  subtractLines,
} from '../src/testing/index.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : Number.NaN;
  return Number.isFinite(v) ? v : fallback;
};
const SEED = flag('seed', 20_240_601);
const SCALE = flag('scale', 1);

const json = (x: unknown): string => JSON.stringify(x);
const plain = (rs: readonly LineRange[]) => rs.map(({ start, end }) => ({ start, end }));
function same(a: unknown, b: unknown, what: string): void {
  if (json(a) !== json(b)) throw new Error(`${what}: ${json(a)} ≠ model ${json(b)}`);
}

/** Every algebra function against the line-set model on one hostile input. */
const SMALL = { maxLine: 80, maxLength: 8 };
const algebra = fc.property(
  hostileRangeSetArb(SMALL),
  hostileRangeSetArb(SMALL),
  hostileRangeArb(SMALL),
  fc.integer({ min: -2, max: 20 }),
  fc.integer({ min: -1, max: 90 }),
  (a, b, range, k, line) => {
    const A = a as LineRange[];
    const B = b as LineRange[];
    const R = range as LineRange;
    const la = linesOf(a);
    const lb = linesOf(b);
    const lr = linesOfRange(range);
    same(plain(mergeRanges(A)), mergeModel(a), 'mergeRanges');
    same(plain(intersectRange(R, B)), runsOf(intersectLines(lr, lb)), 'intersectRange');
    same(plain(subtractRange(R, B)), runsOf(subtractLines(lr, lb)), 'subtractRange');
    same(plain(intersectRanges(A, B)), runsOf(intersectLines(la, lb)), 'intersectRanges');
    same(plain(subtractRanges(A, B)), runsOf(subtractLines(la, lb)), 'subtractRanges');
    const d = dedupeRange(R, B, k);
    const m = dedupeLines(range, b, k);
    same(plain(d.emit), runsOf(m.emit), 'dedupeRange emit');
    same(plain(d.covered), runsOf(m.covered), 'dedupeRange covered');
    const c = coalesceRanges(A, k);
    const cm = coalesceModel(a, k);
    same([plain(c.ranges), c.truncated], [cm.ranges, cm.truncated], 'coalesceRanges');
    same(rangesCover(A, line), coversLineModel(a, line), 'rangesCover');
    same(rangesCover(mergeRanges(A), line), coversLineModel(a, line), 'rangesCover(merged)');
    same(countLines(A), countLinesModel(a), 'countLines');
  },
);

/** Invariants of a ledger after any sequence of events, hostile ones included. */
function checkLedger(ledger: Ledger, before: Ledger): void {
  const { limits } = ledger;
  if (ledger.entries.length > limits.maxProjects) throw new Error('more entries than maxProjects');
  for (const { project } of ledger.entries) {
    if (project.calls.length > limits.maxCallsRetained)
      throw new Error('calls past maxCallsRetained');
    if (project.callCount < project.calls.length) throw new Error('callCount below retained calls');
    for (const call of project.calls) {
      if (call.files.length > limits.maxFilesPerCall) throw new Error('files past maxFilesPerCall');
      for (const f of call.files) {
        if (typeof f.path !== 'string' || f.path === '') throw new Error('a file without a path');
        if (f.ranges.length > limits.maxRangesPerFile)
          throw new Error('ranges past maxRangesPerFile');
        same(plain(f.ranges), mergeModel(f.ranges), 'recorded ranges not normalized');
      }
    }
  }
  // Counters never go down for an entry that survives.
  for (const old of before.entries) {
    const now = ledger.entries.find((e) => e.session === old.session && e.key === old.key);
    if (now && now.project.callCount < old.project.callCount)
      throw new Error('callCount went down');
  }
}

const reducer = fc.property(
  fc.array(hostileLedgerEventArb({ longIdLength: 200 }), { maxLength: 8 }),
  (events) => {
    let ledger = createLedger({
      maxProjects: 3,
      maxCallsRetained: 3,
      maxFilesPerCall: 3,
      maxRangesPerFile: 3,
    });
    for (const event of events) {
      const next = ledgerReducer(ledger, event as never);
      checkLedger(next, ledger);
      ledger = next;
    }
    if (json(JSON.parse(json(ledger))) !== json(ledger)) throw new Error('ledger is not JSON-safe');
    for (const id of [undefined, 's1', '__proto__']) {
      const view = sessionView(ledger, id);
      for (const p of view.projects)
        if (p.calls.length > ledger.limits.maxViewCalls) throw new Error('view too long');
    }
  },
);

/** A whole session: calls planned against the ledger, edits in between, every plan checked. */
const planner = fc.property(
  sessionArb({ maxSteps: 5, maxLine: 40 }),
  fc.boolean(),
  (script, bank) => {
    const files = new Map(Object.entries(script.files));
    let ledger = createLedger();
    const root = '/repo';
    for (const step of script.steps) {
      if (step.kind === 'edit') {
        files.set(step.path, step.content);
        continue;
      }
      const content = files.get(step.path) ?? '';
      const prior = projectFromView(sessionView(ledger), projectKey(root));
      const plan = planCall({
        files: [{ path: step.path, content, intended: step.ranges }],
        prior,
        budget: { maxChars: 4000, policy: bank ? 'bank' : 'spend' },
      });
      const fp = fingerprint(content);
      const served = linesOf(servedRangesForFile(prior, step.path, fp));
      const lineCount = content.split('\n').length;
      for (const p of plan.files) {
        for (const l of linesOf(p.covered)) {
          if (!served.has(l))
            throw new Error(`covered line ${l} was never served from this content`);
        }
        for (const l of linesOf(p.emit))
          if (l > lineCount) throw new Error(`emitted line ${l} past the file`);
        const wanted = linesOf(step.ranges);
        for (const l of [...linesOf(p.emit), ...linesOf(p.covered)]) {
          if (!wanted.has(l)) throw new Error(`line ${l} was never intended`);
        }
        if (p.render === 'skipped') continue;
        ledger = ledgerReducer(ledger, {
          type: 'recorded',
          emission: {
            projectRoot: root,
            query: 'fuzz',
            files: [
              { path: p.path, ranges: p.emit, chars: p.newChars, fingerprint: p.fingerprint },
            ],
            sourceChars: p.newChars,
            responseChars: p.newChars + 100,
          },
        });
      }
    }
  },
);

interface Target {
  readonly name: string;
  readonly runs: number;
  readonly run: (numRuns: number) => { failed: boolean; numRuns: number; message: string };
}

const viaCheck =
  (property: fc.IRawProperty<never> | fc.IProperty<never>) =>
  (numRuns: number): { failed: boolean; numRuns: number; message: string } => {
    const details = fc.check(property as fc.IProperty<never>, { seed: SEED, numRuns });
    return {
      failed: details.failed,
      numRuns: details.numRuns,
      message: details.failed ? (fc.defaultReportMessage(details) ?? 'failed') : '',
    };
  };

const TARGETS: readonly Target[] = [
  { name: 'algebra (9 functions vs model)', runs: 600_000, run: viaCheck(algebra as never) },
  {
    name: 'algebra (checkRangeAlgebra laws)',
    runs: 1_500,
    run: (numRuns) => {
      try {
        const report = checkRangeAlgebra(
          {
            mergeRanges,
            intersectRange,
            subtractRange,
            intersectRanges,
            subtractRanges,
            dedupeRange,
            coalesceRanges,
            rangesCover,
            countLines,
          },
          { numRuns, seed: SEED },
        );
        return { failed: false, numRuns: report.runs, message: '' };
      } catch (e) {
        return { failed: true, numRuns, message: e instanceof Error ? e.message : String(e) };
      }
    },
  },
  { name: 'reducer (hostile event sequences)', runs: 250_000, run: viaCheck(reducer as never) },
  { name: 'planner (sessions with edits)', runs: 150_000, run: viaCheck(planner as never) },
];

console.log(`span-ledger fuzz: seed ${SEED}, scale ${SCALE}`);
let total = 0;
let failures = 0;
const started = Date.now();
for (const target of TARGETS) {
  const t0 = Date.now();
  const numRuns = Math.max(1, Math.round(target.runs * SCALE));
  const result = target.run(numRuns);
  total += result.numRuns;
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(
    `${result.failed ? 'FAIL' : 'ok  '} ${target.name}: ${result.numRuns} cases in ${secs}s`,
  );
  if (result.failed) {
    failures++;
    console.log(result.message);
  }
}
console.log(
  `total: ${total} cases, ${failures} failing target(s), ${((Date.now() - started) / 1000).toFixed(1)}s, seed ${SEED}`,
);
process.exitCode = failures === 0 ? 0 : 1;
