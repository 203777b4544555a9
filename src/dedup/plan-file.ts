/**
 * The five gates for one file: what of the intended spans to send, what to
 * replace with a pointer, and why. Pure; never throws on bad input.
 *
 * Not for call-level rules (hold-back, budget): those are in `plan-call.ts`.
 */

import { frozenEach } from '../boundary/freeze.js';
import { filesOf, type ServedRecord, servedRecords } from '../ledger/selectors.js';
import type { ProjectState } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';
import {
  minus,
  NO_SPANS,
  overlaps,
  piecesOf,
  type Spans,
  spansOf,
  unionAll,
} from '../ranges/spans.js';
import { allTrivial, charsOf, clipToLines, indexLines, type LineIndex } from '../text/lines.js';
import { TOKEN_UNITS } from '../text/tokens.js';
import type { DedupGate, GateDecision, GateReason, GateVerdict } from './gates.js';
import { writePointer } from './pointer.js';
import { choosePointer, pointerForm } from './policy.js';
import { type FileInput, type PlanSettings, readPlanFile } from './read-input.js';
import type { DedupThresholds } from './thresholds.js';

/**
 * How a file appears in the response:
 * - `full` — nothing withheld: its section shows `emit` (the intended spans);
 * - `partial` — a pointer for `covered`, then the new lines in `emit`;
 * - `pointer` — a pointer only, `emit` empty;
 * - `skipped` — left out: nothing of the file to send once its intended spans
 *   are clipped to its lines, or (from `planCall` with a budget) no room for it.
 *   No source, no pointer, no file slot, never recorded, whatever the other
 *   fields say.
 */
export type FileRender = 'full' | 'partial' | 'pointer' | 'skipped';

/**
 * The decision for one file.
 *
 * What to record after rendering it: `emit` as source with `fingerprint`.
 * Neither `covered` (a pointer delivers no source: the response that sent
 * those lines holds them) nor `folded` (the reader has not seen those lines).
 */
export interface FilePlan {
  readonly path: string;
  /** Fingerprint of the content planned (computed unless passed); `''` when there was no content. */
  readonly fingerprint: string;
  readonly render: FileRender;
  /** The lines to send as source, normalized. */
  readonly emit: LineRange[];
  /** The lines a pointer stands for: held by the reader from this very content. */
  readonly covered: LineRange[];
  /**
   * The `index` of every retained record that served some of `covered`, most
   * recent first, each once: the responses a pointer cites (`[]` when nothing is
   * covered).
   */
  readonly coveredBy: number[];
  /**
   * New lines folded into the pointer by the delta gate: fewer than
   * `minDeltaChars` chars, each line empty or only whitespace and `)]};,`. The
   * reader has not seen them, but they carry no code.
   */
  readonly folded: LineRange[];
  /** Chars of `emit`: source this file really sends. */
  readonly newChars: number;
  /**
   * Chars of `covered`. A pre-clip figure: duplicate source the ranking intended
   * to send, not what dedup kept out of the window (a budget would have cut much
   * of it anyway). Never read it as savings.
   */
  readonly coveredChars: number;
  /** Chars of `folded`; when > 0, `render` is `pointer` and `newChars` is 0. */
  readonly foldedChars: number;
  /**
   * Tokens of `emit`, when the budget counted tokens (`budget.maxTokens`): the
   * host's `countTokens`, else `estimateTokens`. Absent otherwise.
   */
  readonly newTokens?: number;
  /**
   * The first intended line the budget left out (no source, no pointer), when
   * it cut this file: its section ends with a line that says so. A file the
   * budget left out whole (`skipped`) is cut at its first line. `null` when
   * nothing was cut.
   */
  readonly cutAt: number | null;
  /**
   * The number of the response being planned (`prior.callIndex` when the
   * prior came from `reserve`, else `prior.callCount + 1`; `null` when
   * untracked): `renderRead` opens with it, later pointers cite it.
   */
  readonly callIndex: number | null;
  /** The numbering tag printed beside the number (`prior.generation`), or `null`. */
  readonly generation: string | null;
  /** The thresholds the plan was made with: the renderer's pointer takes its limits from them. */
  readonly thresholds: DedupThresholds;
  /** Each gate's verdict with a reason code, in order: switch, session, content, size, delta. */
  readonly gates: readonly GateDecision[];
}

/**
 * One file to plan.
 */
export interface PlanFileInput {
  /** Project-relative path, as the ledger records it. */
  readonly path: string;
  /** The file's current content. */
  readonly content: string;
  /** The spans the ranking wants to send, 1-based inclusive; invalid ones are dropped. */
  readonly intended: readonly LineRange[];
  /** What the session was served before: `null` when nobody tracks this call. */
  readonly prior: ProjectState | null;
  /** The fingerprint of `content`, when the caller has it already. */
  readonly fingerprint?: string | undefined;
  /** `false` renders as if the session had no history. Default on. */
  readonly enabled?: boolean | undefined;
  /** Overrides of {@link DEDUP_THRESHOLDS}. */
  readonly thresholds?: Partial<DedupThresholds> | undefined;
}

/**
 * @internal One file's decision before the public plan is built: the input
 * read, its line index, and what the gates (then hold-back and budget) chose.
 * Never changed in place: each call-level step returns a new one.
 */
export interface FileWork {
  readonly file: FileInput;
  readonly fingerprint: string;
  readonly index: LineIndex;
  /** The intended spans clipped to the file. */
  readonly intended: Spans;
  readonly render: FileRender;
  readonly emit: Spans;
  readonly covered: Spans;
  readonly folded: Spans;
  /** What served this file's current content, most recent first. */
  readonly served: readonly ServedRecord[];
  readonly gates: readonly GateDecision[];
  /** The first intended line the budget left out, or `null`. */
  readonly cutAt: number | null;
  /** Token units of `emit` (32 a token), when the budget counted them; else `null`. */
  readonly units: number | null;
}

const GATES = ['switch', 'session', 'content', 'size', 'delta'] as const;
/** What each gate says when it lets withholding go on. */
const PASSED: readonly GateReason[] = ['enabled', 'has-history', 'fingerprint-match', 'covered'];
const GATE_LISTS = /* @__PURE__ */ new Map<string, readonly GateDecision[]>();

/**
 * The five decisions when gate `at` said `verdict` for `reason`: the gates
 * before it passed, the ones after were not reached (`delta`: nothing
 * covered). Made once per outcome and frozen, so plans share them: building
 * them per file cost the 24 × 24 planner bench about 4%.
 */
function gatesAt(at: number, verdict: GateVerdict, reason: GateReason): readonly GateDecision[] {
  // A reason belongs to one gate and one verdict: it names the outcome.
  let list = GATE_LISTS.get(reason);
  if (list === undefined) {
    const decide = (gate: DedupGate, i: number): GateDecision =>
      Object.freeze(
        i < at
          ? { gate, verdict: 'pass', reason: PASSED[i]! }
          : i === at
            ? { gate, verdict, reason }
            : {
                gate,
                verdict: 'skip',
                reason: gate === 'delta' ? 'nothing-covered' : 'not-reached',
              },
      );
    GATE_LISTS.set(reason, (list = Object.freeze(GATES.map(decide))));
  }
  return list;
}

const NONE = NO_SPANS;
const NO_NAMES: readonly string[] = [];
const NO_RECORDS: readonly ServedRecord[] = [];

/** Why the content gate found nothing to point at. */
function unmatched(prior: ProjectState, path: string): GateReason {
  const served = filesOf(prior, path);
  if (served.length === 0) return 'never-served';
  return served.some(({ file }) => file.fingerprint !== undefined)
    ? 'fingerprint-changed'
    : 'no-fingerprint';
}

/**
 * The size gate for held runs one pointer names, as the pointer policy
 * decides it: a long run earns its pointer by its length; short ones only as
 * whole sections, measured by writing the compact pointer the renderer would
 * write for them (citing the records that served them) against the chars of
 * all of them.
 */
function earned(
  runs: readonly LineRange[],
  whole: boolean,
  work: Pick<FileWork, 'file' | 'index'>,
  served: readonly ServedRecord[],
  s: PlanSettings,
): boolean {
  const form = pointerForm(runs, whole, s.thresholds);
  if (form !== 'compact') return form === 'full';
  const pointer = choosePointer(
    {
      path: work.file.path,
      covered: runs,
      chars: charsOf(work.index, runs),
      whole,
      symbols: NO_NAMES,
      partial: false,
      calls: citing(served, spansOf(runs)),
      generation: s.generation,
      refresh: false,
      thresholds: s.thresholds,
      planned: false,
    },
    writePointer,
  );
  return pointer !== null;
}

/** The five gates, in order; each returns early with its decision. */
function gate(
  base: Pick<FileWork, 'file' | 'fingerprint' | 'index' | 'intended'>,
  s: PlanSettings,
): FileWork {
  const { file, intended } = base;
  const out = (
    render: FileRender,
    gates: readonly GateDecision[],
    emit = intended,
    covered = NONE,
    folded = NONE,
    served = NO_RECORDS,
  ) => made(base, gates, served, { render, emit, covered, folded, cutAt: null, units: null });
  /** Gate `at` ends withholding: the file renders in full. */
  const stop = (at: number, reason: GateReason) => out('full', gatesAt(at, 'stop', reason));
  if (!s.enabled) return stop(0, 'disabled');
  const { prior } = s;
  if (prior === null) return stop(1, 'untracked');
  if (prior.calls.length === 0) return stop(1, 'first-call');
  if (file.content === null) return stop(2, 'no-content');
  if (file.pathProblem !== 'none') return stop(2, 'unusable-path');
  const served = servedRecords(prior, file.path, base.fingerprint);
  if (served.length === 0) return stop(2, unmatched(prior, file.path));
  const union = unionAll(served.map((r) => r.ranges));
  if (!overlaps(intended, union)) return stop(3, 'no-overlap');
  // Whole short sections share the file's one compact pointer, where each costs only its
  // span: measured together as that pointer is written, one by one when it does not pay.
  let whole = true;
  const all = piecesOf(intended, union, (_run, w) => (whole &&= w));
  const covered =
    whole &&
    pointerForm(all, true, s.thresholds) === 'compact' &&
    earned(all, true, base, served, s)
      ? all
      : piecesOf(intended, union, (run, w) => earned([run], w, base, served, s));
  if (covered.length === 0) return stop(3, 'below-min-covered');
  const rest = minus(intended, covered);
  if (rest.length === 0)
    return out('pointer', gatesAt(4, 'pass', 'all-covered'), NONE, covered, NONE, served);
  if (charsOf(base.index, rest) < s.thresholds.minDeltaChars && allTrivial(base.index, rest)) {
    return out('pointer', gatesAt(4, 'fold', 'folded-small-delta'), NONE, covered, rest, served);
  }
  return out('partial', gatesAt(4, 'pass', 'delta-kept'), rest, covered, NONE, served);
}

/**
 * @internal Runs the five gates on one file. A file with no usable path or no
 * content, or with nothing left to send once its spans are clipped to its
 * lines, is skipped (no section, no slot) after the gates have said why.
 */
export function planWork(file: FileInput, s: PlanSettings): FileWork {
  // Lines past the last intended one are never scanned.
  const index = indexLines(file.content ?? '', file.intended.at(-1)?.end ?? 1);
  const intended = clipToLines(file.intended, index.lineCount);
  const work = gate({ file, fingerprint: file.fingerprint, index, intended }, s);
  if (file.content === null || file.pathProblem === 'no-path' || intended.length === 0) {
    return skipped(work);
  }
  return work;
}

/**
 * @internal What a step decides for one file: how it renders and where its
 * lines go. Named fields, since `emit`, `covered` and `folded` share a type.
 */
export interface Decision {
  readonly render: FileRender;
  readonly emit: Spans;
  readonly covered: Spans;
  readonly folded: Spans;
  /** Default: the file's `cutAt` so far. */
  readonly cutAt?: number | null;
  /** Default: the file's `units` so far. */
  readonly units?: number | null;
}

/** @internal `w` with what a call-level step decided; its gates and records stay. */
export function decided(w: FileWork, d: Decision): FileWork {
  return made(w, w.gates, w.served, d);
}

/**
 * A file's work from what it is, what its gates said and what was decided,
 * every field written out: a spread copy made the 24 × 24 planner bench
 * 7–11% slower (CPU time, alternating rounds).
 */
function made(
  base: Pick<FileWork, 'file' | 'fingerprint' | 'index' | 'intended'> &
    Partial<Pick<FileWork, 'cutAt' | 'units'>>,
  gates: readonly GateDecision[],
  served: readonly ServedRecord[],
  d: Decision,
): FileWork {
  return {
    file: base.file,
    fingerprint: base.fingerprint,
    index: base.index,
    intended: base.intended,
    render: d.render,
    emit: d.emit,
    covered: d.covered,
    folded: d.folded,
    served,
    gates,
    cutAt: d.cutAt === undefined ? (base.cutAt ?? null) : d.cutAt,
    units: d.units === undefined ? (base.units ?? null) : d.units,
  };
}

/** @internal The same file left out of the response: no source, no pointer. */
export function skipped(work: FileWork): FileWork {
  return decided(work, { render: 'skipped', emit: NONE, covered: NONE, folded: NONE, units: null });
}

/** @internal The records that served some of `covered`, most recent first (as `served` is ordered). */
export function citing(served: readonly ServedRecord[], covered: Spans): number[] {
  const out: number[] = [];
  for (const r of served) {
    if (!out.includes(r.index) && overlaps(r.ranges, covered)) out.push(r.index);
  }
  return out;
}

/**
 * @internal Builds the public plan, frozen through: no caller can make it
 * claim more later. Every list and range in a plan is the planner's own
 * (inputs are copied as they are read) and none is changed once made, so they
 * are frozen in place.
 */
export function planOf(work: FileWork, s: PlanSettings): FilePlan {
  const { index } = work;
  const plan = {
    path: work.file.path,
    fingerprint: work.fingerprint,
    render: work.render,
    emit: frozenEach(work.emit),
    covered: frozenEach(work.covered),
    coveredBy: Object.freeze(citing(work.served, work.covered)) as number[],
    folded: frozenEach(work.folded),
    newChars: charsOf(index, work.emit),
    coveredChars: charsOf(index, work.covered),
    foldedChars: charsOf(index, work.folded),
    cutAt: work.cutAt,
    callIndex: s.callIndex,
    generation: s.generation,
    thresholds: s.thresholds,
    gates: Object.freeze(work.gates),
  };
  return withTokens(plan, work.units);
}

/**
 * @internal A plan (of a file or a call) frozen, with `newTokens` only when
 * its token `units` were counted (assigned, not spread: a spread copy is slow).
 */
export function withTokens<T extends object>(plan: T, units: number | null): T {
  if (units !== null) Object.assign(plan, { newTokens: Math.ceil(units / TOKEN_UNITS) });
  return Object.freeze(plan);
}

/**
 * Plans one file through the five gates (switch, session, content, size,
 * delta): which intended lines to send, which to replace by a pointer, and a
 * reason code for each gate's verdict.
 *
 * Lines are POSIX lines (a final `'\n'` ends the last line; `''` has none);
 * intended spans past the last line are clipped to it, invalid ones dropped. A
 * file with nothing left to send after that renders `'skipped'`. Never throws:
 * a non-string `content` or `path` renders `'skipped'` (nothing sent, nothing
 * withheld); a path no ledger record could be keyed on (a NUL, a `..` segment,
 * over 4,096 chars) renders in full. The plan is frozen.
 *
 * @example
 * ```ts
 * // Response #1 sent L1-40 of this very content; now L1-60 is wanted.
 * const content = 'let x = 1;\n'.repeat(60);
 * const store = createSessionStore();
 * store.record({ projectRoot: '/repo', query: 'x', sourceChars: 440, responseChars: 500,
 *   files: [{ path: 'a.ts', ranges: [{ start: 1, end: 40 }], chars: 440, fingerprint: fingerprint(content) }] });
 * const plan = planFile({ path: 'a.ts', content, intended: [{ start: 1, end: 60 }], prior: store.project('/repo') });
 * plan.render;    // 'partial'
 * plan.covered;   // [{ start: 1, end: 40 }]: a pointer
 * plan.coveredBy; // [1]: it cites response #1
 * plan.emit;      // [{ start: 41, end: 60 }]: source
 * plan.gates.map((g) => g.reason);
 * // → ['enabled', 'has-history', 'fingerprint-match', 'covered', 'delta-kept']
 * ```
 */
export function planFile(input: PlanFileInput): FilePlan {
  const { file, ...s } = readPlanFile(input);
  return planOf(planWork(file, s), s);
}
