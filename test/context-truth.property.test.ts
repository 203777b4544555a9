/**
 * Context truth over random sessions: a parent and a subagent on one
 * connection, compactions, edits between calls, and the host's signals on or
 * off, all through the real planner, renderer, recorder and ledger.
 *
 * - With host signals (a bucket per context, `pruned` on compaction), no
 *   pointer ever stands for a line the asking context does not hold.
 * - Without them, every response a pointer cites is one the ledger really
 *   recorded with that file and content, and after a `refresh` for those
 *   numbers no line is cited to them again: the lines come back in full,
 *   unless an older response the view had no room for (one the agent did not
 *   name) served them too, and then the new pointer cites that one.
 *
 * The agent's context is a list of whole responses: it holds a line only while
 * the response that delivered it is there, and a compaction keeps only the
 * last one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmissionRecorder, renderMarkdown } from '../src/adapter/index.js';
import {
  type CallPlan,
  createLedger,
  fingerprint,
  type Ledger,
  type LineRange,
  ledgerReducer,
  planCall,
  projectFromView,
  sessionView,
} from '../src/index.js';

const SEED = 20_261_201;
const ROOT = '/repo';
const PATHS = ['a.ts', 'b.ts', 'c.ts'] as const;
const LINES = 60;

type Context = 'parent' | 'subagent';
type Step =
  | { readonly kind: 'call'; readonly context: Context; readonly asks: readonly Ask[] }
  | { readonly kind: 'compact'; readonly context: Context }
  | { readonly kind: 'edit'; readonly file: number };
interface Ask {
  readonly file: number;
  readonly start: number;
  readonly length: number;
}

/** What one response delivered: per path, the content fingerprint and the lines. */
type Delivered = Map<string, { readonly fingerprint: string; readonly lines: Set<number> }>;

const askArb = fc.record({
  file: fc.integer({ min: 0, max: PATHS.length - 1 }),
  start: fc.integer({ min: 1, max: LINES }),
  length: fc.integer({ min: 1, max: 40 }),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      context: fc.constantFrom<Context>('parent', 'subagent'),
      asks: fc.array(askArb, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      context: fc.constantFrom<Context>('parent', 'subagent'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      file: fc.integer({ min: 0, max: PATHS.length - 1 }),
    }),
  },
);
/** Every session opens by asking again for what it was just sent (and more), so each run writes a pointer. */
const OPENING: readonly Step[] = [
  { kind: 'call', context: 'parent', asks: [{ file: 0, start: 1, length: 30 }] },
  {
    kind: 'call',
    context: 'parent',
    asks: [
      { file: 0, start: 1, length: 30 },
      { file: 1, start: 1, length: 10 },
    ],
  },
];
const sessionArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 14 }).map((s) => [...OPENING, ...s]),
  signals: fc.boolean(),
});

function contentOf(file: number, version: number): string {
  return Array.from(
    { length: LINES },
    (_, i) => `export const v${file}_${i + 1} = ${version * 1000 + i}; // ${PATHS[file]}`,
  ).join('\n');
}

function linesOf(ranges: readonly LineRange[]): number[] {
  return ranges.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, (_, i) => r.start + i));
}

interface Run {
  pointers: number;
  checkedLines: number;
}

function runSession(steps: readonly Step[], signals: boolean): Run {
  const versions = PATHS.map(() => 0);
  const held: Record<Context, { index: number; delivered: Delivered }[]> = {
    parent: [],
    subagent: [],
  };
  let ledger: Ledger = createLedger();
  const run: Run = { pointers: 0, checkedLines: 0 };
  const bucket = (context: Context) => (signals ? context : undefined);

  for (const step of steps) {
    if (step.kind === 'edit') {
      versions[step.file] = (versions[step.file] ?? 0) + 1;
      continue;
    }
    if (step.kind === 'compact') {
      const kept = held[step.context].slice(-1);
      if (signals) {
        // The host names every response the compaction removed, not only those in the view.
        const dropped = held[step.context]
          .map((r) => r.index)
          .filter((index) => !kept.some((r) => r.index === index));
        ledger = ledgerReducer(ledger, {
          type: 'pruned',
          sessionId: step.context,
          projectRoot: ROOT,
          calls: dropped,
        });
      }
      held[step.context] = kept;
      continue;
    }

    const files = step.asks.map((ask) => {
      const content = contentOf(ask.file, versions[ask.file] ?? 0);
      const end = Math.min(LINES, ask.start + ask.length - 1);
      return { path: PATHS[ask.file]!, content, intended: [{ start: ask.start, end }] };
    });
    const prior = projectFromView(sessionView(ledger, bucket(step.context)), ROOT);
    const plan = planCall({ files, prior });

    for (const file of plan.files) {
      if (file.covered.length === 0) continue;
      run.pointers++;
      const covered = linesOf(file.covered);
      if (signals) {
        // No pointer stands for a line the asking context does not hold.
        for (const line of covered) {
          const holds = held[step.context].some((r) => {
            const got = r.delivered.get(file.path);
            return got?.fingerprint === file.fingerprint && got.lines.has(line);
          });
          expect(holds, `${file.path} L${line} is held by the ${step.context}`).toBe(true);
          run.checkedLines++;
        }
      } else {
        // Every cited response is one the ledger recorded with this file and content.
        expect(file.coveredBy.length).toBeGreaterThan(0);
        for (const index of file.coveredBy) {
          const record = prior?.calls.find((c) => c.index === index);
          expect(
            record?.files.some((f) => f.path === file.path && f.fingerprint === file.fingerprint),
            `response #${index} recorded ${file.path}`,
          ).toBe(true);
        }
        // After a refresh for those numbers no line is pointed at them again: each comes back
        // in full, or is pointed at a response the agent did not name (an older one the view
        // had no room for), which the ledger really recorded with this content.
        const refreshed = ledgerReducer(ledger, {
          type: 'pruned',
          projectRoot: ROOT,
          calls: [...file.coveredBy],
        });
        const refreshedPrior = projectFromView(sessionView(refreshed), ROOT);
        const again = planCall({ files, prior: refreshedPrior }).files.filter(
          (f) => f.path === file.path,
        );
        const sent = new Set(again.flatMap((f) => linesOf(f.emit)));
        const recited = again.flatMap((f) => f.coveredBy);
        for (const index of recited) {
          expect(file.coveredBy, `response #${index} was refreshed`).not.toContain(index);
          const record = refreshedPrior?.calls.find((c) => c.index === index);
          expect(
            record?.files.some((f) => f.path === file.path && f.fingerprint === file.fingerprint),
          ).toBe(true);
        }
        for (const line of covered) {
          const back = sent.has(line) || again.some((f) => linesOf(f.covered).includes(line));
          expect(back, `${file.path} L${line} after a refresh`).toBe(true);
          if (recited.length === 0) expect(sent.has(line), `${file.path} L${line} sent`).toBe(true);
          run.checkedLines++;
        }
      }
    }

    ledger = ledgerReducer(ledger, {
      type: 'recorded',
      emission: rendered(plan, files),
      ...(signals ? { sessionId: step.context } : {}),
    });
    held[step.context].push({ index: plan.callIndex ?? 0, delivered: deliveredBy(plan) });
  }
  return run;
}

function rendered(plan: CallPlan, files: readonly { path: string; content: string }[]) {
  const recorder = createEmissionRecorder({ projectRoot: ROOT, query: 'q' });
  const { text } = renderMarkdown({ plan, sources: files, recorder });
  return recorder.finish(text.length);
}

function deliveredBy(plan: CallPlan): Delivered {
  const delivered: Delivered = new Map();
  for (const file of plan.files) {
    const lines = linesOf(file.emit);
    if (lines.length === 0) continue;
    const got = delivered.get(file.path) ?? { fingerprint: file.fingerprint, lines: new Set() };
    for (const line of lines) got.lines.add(line);
    delivered.set(file.path, got);
  }
  return delivered;
}

describe('context truth over random sessions with subagents, compactions and edits', () => {
  it(`pointers stand only for held lines with host signals, and cite real records that refresh brings back without (seed ${SEED})`, () => {
    let pointers = 0;
    fc.assert(
      fc.property(sessionArb, ({ steps, signals }) => {
        pointers += runSession(steps, signals).pointers;
      }),
      { seed: SEED, numRuns: 120 },
    );
    // The opening repeats a question, so every run writes at least one pointer.
    expect(pointers).toBeGreaterThanOrEqual(120);
  });

  it('the opening alone writes a pointer in both modes, and its lines are checked', () => {
    for (const signals of [true, false]) {
      const run = runSession(OPENING, signals);
      expect(run.pointers).toBe(1);
      expect(run.checkedLines).toBe(30);
    }
  });

  it('fingerprints keep an edited file out of what a context holds', () => {
    expect(fingerprint(contentOf(0, 0))).not.toBe(fingerprint(contentOf(0, 1)));
  });
});
