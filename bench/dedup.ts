/**
 * The dedup planner against the hashing it depends on: `planCall` over 24
 * files × 24 intended spans against a view of 4 prior calls, next to the time
 * to fingerprint those same 24 files (which every call must do anyway).
 *
 * Each ratio is timed in alternating rounds (see `reportRatio`). Targets:
 * with fingerprints passed in, the planner costs at most 2× the
 * line-break scan of the same files — the floor of any planner that counts
 * chars per line, since every chars figure needs the line offsets up to the
 * file's last intended line — and no more than the hashing (ratio ≤ 1.0);
 * planning and fingerprinting together stay within 2.0× the hashing alone.
 */
import {
  type CallRecord,
  createLedger,
  fingerprint,
  type LineRange,
  ledgerReducer,
  type PlanCallFile,
  type ProjectState,
  planCall,
  projectFromView,
  sessionView,
} from 'span-ledger';
import { prng, reportRatio } from './_harness.js';

const FILES = 24;
const SPANS = 24;
const LINES = 600;

/** A file of `LINES` code-like lines of varying width. */
function makeContent(seed: number): string {
  const rand = prng(seed);
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const indent = ' '.repeat(2 * Math.floor(rand() * 4));
    lines.push(`${indent}const v${seed}_${i} = compute(${'x'.repeat(Math.floor(rand() * 60))});`);
  }
  return lines.join('\n');
}

/** `SPANS` spans of 4–30 lines spread over the file. */
function makeSpans(seed: number): LineRange[] {
  const rand = prng(seed);
  const out: LineRange[] = [];
  const stride = Math.floor(LINES / SPANS);
  for (let i = 0; i < SPANS; i++) {
    const start = 1 + i * stride + Math.floor(rand() * 4);
    out.push({ start, end: Math.min(LINES, start + 4 + Math.floor(rand() * 26)) });
  }
  return out;
}

/** The least any planner that counts chars per line must do: find every line break once. */
function scanLines(contents: readonly string[]): number {
  let n = 0;
  for (const c of contents) {
    for (let i = c.indexOf('\n'); i !== -1; i = c.indexOf('\n', i + 1)) n++;
  }
  return n;
}

/**
 * The 24 × 24 call: its files (with and without their fingerprints), the
 * prior of four recorded calls, and the budget in chars.
 */
export function plannerCall() {
  const contents = Array.from({ length: FILES }, (_, i) => makeContent(i + 1));
  const fps = contents.map((c) => fingerprint(c));
  const files: PlanCallFile[] = contents.map((content, i) => ({
    path: `src/module${i}.ts`,
    content,
    intended: makeSpans(100 + i),
  }));
  const withFingerprints = files.map((f, i) => ({ ...f, fingerprint: fps[i]! }));

  // Four prior calls, each served every file; one file in four has changed since.
  const calls: CallRecord[] = [0, 1, 2, 3].map((k) => ({
    index: k + 1,
    projectRoot: '/repo',
    query: `query ${k}`,
    sourceChars: 0,
    responseChars: 0,
    files: files.map((f, i) => ({
      path: f.path,
      ranges: makeSpans(1000 * (k + 1) + i),
      chars: 1000,
      fingerprint: i % 4 === 0 ? `1:stale${k}` : fps[i]!,
    })),
  }));
  // As a host gets it: recorded through the ledger, read back through its view.
  let ledger = createLedger();
  for (const { index: _index, ...emission } of calls) {
    ledger = ledgerReducer(ledger, { type: 'recorded', emission });
  }
  const prior: ProjectState | null = projectFromView(sessionView(ledger), '/repo');
  const budget = { maxChars: 60_000, maxFiles: 16 };
  return { contents, files, withFingerprints, prior, budget };
}

export function dedupBench(): boolean {
  const { contents, files, withFingerprints, prior, budget } = plannerCall();
  const plan = planCall({ files: withFingerprints, prior, budget });
  const renders = plan.files.reduce<Record<string, number>>((acc, f) => {
    acc[f.render] = (acc[f.render] ?? 0) + 1;
    return acc;
  }, {});
  console.log(
    `  plan: ${JSON.stringify(renders)}, newChars ${plan.newChars}, coveredChars ${plan.coveredChars} (pre-clip), ${contents.reduce((s, c) => s + c.length, 0)} chars of content`,
  );

  const planner = {
    name: 'planCall, fingerprints passed in',
    run: () => planCall({ files: withFingerprints, prior, budget }),
  };
  const hashing = {
    name: `fingerprint of the ${FILES} files`,
    run: () => contents.map((c) => fingerprint(c)),
  };
  console.log(`\n## planCall: ${FILES} files × ${SPANS} spans against a view of 4 prior calls`);
  // Each ratio in its own alternating rounds: on a shared machine a burst of
  // load then lands on both sides of a round, not on one peer's samples.
  const floor = reportRatio(
    'planner / line-break scan',
    planner,
    { name: `line-break scan of the ${FILES} files (floor)`, run: () => scanLines(contents) },
    2.0,
  );
  const underHashing = reportRatio('planner / hashing', planner, hashing, 1.0);
  const withHashing = reportRatio(
    'planner with hashing / hashing',
    { name: 'planCall, fingerprinting itself', run: () => planCall({ files, prior, budget }) },
    hashing,
    2.0,
  );
  return floor && underHashing && withHashing;
}
