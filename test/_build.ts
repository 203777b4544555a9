/**
 * The shared builders of the test suites: line ranges, the files and
 * emissions a renderer records, a recorder that throws, a project's history
 * by hand, the two ledger steps most suites take, and a CLI run with its
 * output caught. One home each; a suite states only what its case is about
 * and takes the rest from here.
 *
 * Builders pass what they are given on as it is, so a case can slip junk in
 * beside good values (`fileEmission(7)`, `[span(1, 2), proxy]`); `ranges()`
 * reads its text strictly, so a typo fails the test rather than building
 * another set.
 */
import type { EmissionRecorder } from '../src/adapter/index.js';
import {
  type CallPlan,
  createLedger,
  type Emission,
  type FileEmission,
  type Ledger,
  type LineRange,
  ledgerReducer,
  type ProjectState,
  sessionView,
} from '../src/index.js';

/** One range: `span(7)` is L7, `span(1, 10)` L1-10 (passed on as given, even reversed). */
export function span(start: number, end = start): LineRange {
  return { start, end };
}

/** Copies of `ranges` as plain `{ start, end }` objects (to compare a frozen result with a literal). */
export function plain(list: readonly LineRange[]): LineRange[] {
  return list.map(({ start, end }) => span(start, end));
}

/**
 * Ranges from text: `ranges('1-40, 60-80, 90')` is L1-40, L60-80 and L90, in
 * that order, unmerged (`'9-3'` builds a reversed range); `ranges('')` is none.
 */
export function ranges(spec: string): LineRange[] {
  if (spec.trim() === '') return [];
  return spec.split(',').map((part) => {
    const match = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!match) throw new Error(`ranges(${JSON.stringify(spec)}): cannot read ${part.trim()}`);
    return span(Number(match[1]), Number(match[2] ?? match[1]));
  });
}

/** A file as a renderer records it (mutable, so it also stands for a `PriorFile`). */
export interface BuiltFile {
  path: string;
  ranges: LineRange[];
  chars: number;
  fingerprint?: string;
}

/**
 * A file of an emission: `fileEmission('a.ts', '1-10', 100, 'fp')` sent L1-10
 * of `a.ts`, 100 source chars, from content `fp`. `spans` is text for
 * {@link ranges}, or anything else, passed on as the file's ranges; no
 * `fingerprint`, no key. Each part is passed on
 * as given, so `fileEmission(7)` is a file whose path is junk.
 */
export function fileEmission(
  path: unknown,
  spans: unknown = '',
  chars: unknown = 1,
  fingerprint?: unknown,
): BuiltFile {
  const list = typeof spans === 'string' ? ranges(spans) : spans;
  return {
    path,
    ranges: list,
    chars,
    ...(fingerprint === undefined ? {} : { fingerprint }),
  } as BuiltFile;
}

/** One call under `/repo` that sent L1-10 of `a.ts` (100 chars) from content `fp`, with `over` applied. */
export function emission(over: Partial<Emission> = {}): Emission {
  return {
    projectRoot: '/repo',
    query: 'q',
    files: [fileEmission('a.ts', '1-10', 100, 'fp')],
    sourceChars: 100,
    responseChars: 200,
    ...over,
  };
}

/** What a renderer records after rendering `plan` for `projectRoot` (`framing`: the non-source chars). */
export function emissionOf(plan: CallPlan, projectRoot: string, framing = 0): Emission {
  const files = plan.files
    .filter((f) => f.render !== 'skipped')
    .map((f) =>
      fileEmission(
        f.path,
        [...f.emit, ...(f.render === 'full' ? [] : f.covered)],
        f.newChars,
        f.fingerprint,
      ),
    );
  return emission({
    projectRoot,
    files,
    sourceChars: plan.newChars,
    responseChars: plan.newChars + framing,
  });
}

/**
 * A recorder that throws `recorder down` from every method but `dropped`
 * (which lists nothing): what a render must survive without failing.
 */
export function throwingRecorder(): EmissionRecorder {
  const boom = (): never => {
    throw new Error('recorder down');
  };
  return {
    source: boom,
    pointer: boom,
    drop: boom,
    numbered: boom,
    dropped: () => [],
    finish: boom,
  };
}

/**
 * One retained call under `/repo` that served `files` (`index` 1 unless
 * `extra` says otherwise). Members are passed on as given.
 */
export function callRecord<F>(files: F, extra: Record<string, unknown> = {}) {
  return {
    index: 1,
    projectRoot: '/repo',
    query: 'q',
    sourceChars: 0,
    responseChars: 0,
    files,
    ...extra,
  };
}

/** The state of `/repo` after `calls`; `callCount` is their number unless `extra` says otherwise. */
export function projectState(calls: unknown, extra: Record<string, unknown> = {}): ProjectState {
  const callCount = Array.isArray(calls) ? calls.length : 0;
  return { projectRoot: '/repo', callCount, responseChars: 0, calls, ...extra } as ProjectState;
}

/** `ledger` with `e` recorded (raw: junk passes through to the reducer as it is). */
export function record(ledger: Ledger, e: unknown = emission(), sessionId?: unknown): Ledger {
  return ledgerReducer(ledger, {
    type: 'recorded',
    emission: e as Emission,
    sessionId: sessionId as string,
  });
}

/** The files of the single call recorded from `e` under `limits`. */
export function filesOf(
  e: unknown,
  limits: Parameters<typeof createLedger>[0] = {},
): FileEmission[] {
  const view = sessionView(record(createLedger(limits), e));
  return [...(view.projects[0]?.calls[0]?.files ?? [])];
}
