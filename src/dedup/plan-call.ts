/**
 * The call-level rules on top of the per-file gates: the anti-abandonment
 * hold-back, and how a budget spends (or banks) what dedup reclaimed.
 *
 * Not for rendering or recording: the caller renders each `FilePlan` and
 * reports what it really sent.
 */

import type { ProjectState } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';
import { intersectRanges, subtractRanges } from '../ranges/setops.js';
import { charsOf, type LineIndex, takePrefix } from '../text/lines.js';
import { earnsPointer, shareALine } from './_spans.js';
import { type FilePlan, type FileWork, planOf, planWork, skipped } from './plan-file.js';
import { type BudgetLimits, readPlanCall } from './read-input.js';
import type { DedupThresholds } from './thresholds.js';

/**
 * How much source a call may carry. `maxChars` counts source chars only
 * (no headers, fences or pointers); `maxFiles` counts files that render source.
 * A limit that is not a non-negative number is no limit.
 */
export interface CallBudget {
  readonly maxChars?: number | undefined;
  readonly maxFiles?: number | undefined;
  /**
   * `spend` (default): reclaimed room goes to source the reader has not seen —
   * the same response size, a larger share of it new. `bank`: each file sends
   * exactly the lines it would have sent with dedup off (same slots, same cut)
   * minus its covered runs, so the saving comes back as a smaller response.
   */
  readonly policy?: 'spend' | 'bank' | undefined;
}

/**
 * One file of a call, in rank order.
 */
export interface PlanCallFile {
  readonly path: string;
  readonly content: string;
  readonly intended: readonly LineRange[];
  readonly fingerprint?: string | undefined;
}

/**
 * What {@link planCall} takes.
 */
export interface PlanCallInput {
  /** The files in rank order (most relevant first). */
  readonly files: readonly PlanCallFile[];
  /** What the session was served before: `null` when nobody tracks this call. */
  readonly prior: ProjectState | null;
  /** `false` renders as if the session had no history. Default on. */
  readonly enabled?: boolean | undefined;
  readonly thresholds?: Partial<DedupThresholds> | undefined;
  readonly budget?: CallBudget | undefined;
  /**
   * `false` turns the anti-abandonment hold-back off: a read tool asked again
   * for a file the reader holds answers with the pointer. Default on.
   */
  readonly holdBack?: boolean | undefined;
}

/**
 * The plan of a whole call.
 */
export interface CallPlan {
  /** One plan per input file, in the same order. */
  readonly files: FilePlan[];
  /** The path restored to its real section by the anti-abandonment hold-back, else `null`. */
  readonly heldBack: string | null;
  /**
   * The number of the call being answered: the one reserved for it when the
   * prior came from `reserve` (`prior.callIndex`), else `prior.callCount + 1`
   * (right when calls of a bucket never overlap). The response opens with it,
   * and later pointers cite it. `null` when untracked.
   */
  readonly callIndex: number | null;
  /** The numbering tag printed beside the number (`prior.generation`), or `null`. */
  readonly generation: string | null;
  /** Source chars the call really sends (after hold-back and budget). */
  readonly newChars: number;
  /**
   * **Pre-clip, not savings.** Chars of the duplicate source the ranking
   * intended to send and dedup replaced by pointers, summed before any budget
   * cut. Much of it would have been cut by the budget anyway, so it overstates
   * what dedup kept out of the window, often several times over.
   */
  readonly coveredChars: number;
  /** Chars of new remainders folded into pointers by the delta gate (also pre-clip). */
  readonly foldedChars: number;
}

/** One file as the budget sees it: what it wants to send. */
interface Demand {
  readonly index: LineIndex;
  readonly spans: readonly LineRange[];
  readonly needsSlot: boolean;
}

/** What the budget granted one file: the prefix it sends (empty: no slot, or no room). */
interface Grant {
  readonly spans: readonly LineRange[];
  readonly chars: number;
}

const NO_GRANT: Grant = { spans: [], chars: 0 };

/**
 * Max-min fair shares of `total` (water-filling): every demand at or under the
 * level is met in full, the rest get the level.
 */
function waterFill(demands: readonly number[], total: number): number[] {
  const out = demands.map(() => 0);
  let open = demands.map((_, i) => i);
  let left = total;
  // Ends when no open demand is at or under the level (an empty `open` included).
  for (;;) {
    const share = left / open.length;
    const met = open.filter((i) => demands[i]! <= share);
    if (met.length === 0) {
      for (const i of open) out[i] = share;
      return out;
    }
    for (const i of met) {
      out[i] = demands[i]!;
      left -= demands[i]!;
    }
    open = open.filter((i) => demands[i]! > share);
  }
}

/**
 * Slots in rank order, fair shares of `maxChars`, each file cut at whole lines
 * from its end; then what line granularity left over goes, in rank order, to
 * files that were cut.
 */
function allocate(demands: readonly Demand[], limits: BudgetLimits): Grant[] {
  const slotted: number[] = [];
  for (const [i, d] of demands.entries()) {
    if (d.needsSlot && slotted.length < limits.maxFiles) slotted.push(i);
  }
  const wants = slotted.map((i) => charsOf(demands[i]!.index, demands[i]!.spans));
  const shares = limits.maxChars === Infinity ? wants : waterFill(wants, limits.maxChars);
  const grants: Grant[] = demands.map(() => NO_GRANT);
  let left = limits.maxChars;
  for (const [k, i] of slotted.entries()) {
    const d = demands[i]!;
    const g =
      shares[k]! >= wants[k]!
        ? { spans: d.spans, chars: wants[k]! }
        : takePrefix(d.index, d.spans, shares[k]!);
    grants[i] = g;
    left -= g.chars;
  }
  if (limits.maxChars === Infinity) return grants;
  for (const [k, i] of slotted.entries()) {
    const g = grants[i]!;
    if (g.chars >= wants[k]!) continue;
    const d = demands[i]!;
    const more = takePrefix(d.index, d.spans, g.chars + Math.max(0, left));
    left -= more.chars - g.chars;
    grants[i] = more;
  }
  return grants;
}

/** The runs of `runs` that share a line with `set`, whole. */
function overlapping(runs: readonly LineRange[], set: readonly LineRange[]): LineRange[] {
  return runs.filter((r) => shareALine([r], set));
}

/**
 * Under `bank`: the file sends exactly the lines it would have sent with dedup
 * off (`offLines`), minus what it withholds. Its pointer names the covered runs
 * that reach into those lines; runs dedup off would not have shown drop out.
 * A pointer must still be earned by a run of `minCoveredLines`: when only
 * shorter runs reach into the dedup-off lines (ones that rode along at the
 * edge of a long run dedup off cuts away), the file renders as dedup off.
 */
function bankTo(work: FileWork, offLines: readonly LineRange[], minCoveredLines: number): FileWork {
  if (offLines.length === 0) return skipped(work);
  const covered = overlapping(work.covered, offLines);
  // Nothing held within the dedup-off lines worth a pointer: as dedup off, no pointer.
  if (!covered.some((r) => earnsPointer(r, minCoveredLines))) {
    return { ...work, render: 'full', emit: offLines, covered: [], folded: [] };
  }
  const folded = intersectRanges(work.folded, offLines);
  const emit = subtractRanges(subtractRanges(offLines, covered), folded);
  return { ...work, render: emit.length === 0 ? 'pointer' : 'partial', emit, covered, folded };
}

/** Under `spend`: the file sends the prefix of its deduped lines it was granted. */
function spendTo(work: FileWork, grant: Grant): FileWork {
  if (work.emit.length === 0) return work;
  return grant.spans.length === 0 ? skipped(work) : { ...work, emit: grant.spans };
}

/** The budget step: each file cut to its grant, past the slots or the budget skipped. */
function budgetStep(
  works: readonly FileWork[],
  limits: BudgetLimits | null,
  t: DedupThresholds,
): readonly FileWork[] {
  if (limits === null) return works;
  if (limits.bank) {
    // What each file would have had with dedup off: its slot and its cut.
    const off = allocate(
      works.map((w) => ({ index: w.index, spans: w.intended, needsSlot: w.render !== 'skipped' })),
      limits,
    );
    // A skipped file has no slot, so no dedup-off lines: it stays skipped.
    return works.map((w, i) => bankTo(w, off[i]!.spans, t.minCoveredLines));
  }
  const grants = allocate(
    works.map((w) => ({ index: w.index, spans: w.emit, needsSlot: w.emit.length > 0 })),
    limits,
  );
  return works.map((w, i) => spendTo(w, grants[i]!));
}

const newCharsOf = (works: readonly FileWork[]) =>
  works.reduce((sum, w) => sum + charsOf(w.index, w.emit), 0);

/** After the hold-back step: the files before the budget, after it, and who was restored. */
interface HeldBack {
  readonly gated: readonly FileWork[];
  readonly cut: readonly FileWork[];
  readonly heldBack: string | null;
}

/**
 * The hold-back step: when the budgeted call would carry no new source and
 * some file is all pointer, the first such file is restored to its
 * real section, and the budget runs again. If the budget has no room for the
 * restored section either, the pointer stays.
 */
function holdBackStep(
  gated: readonly FileWork[],
  cut: readonly FileWork[],
  limits: BudgetLimits | null,
  t: DedupThresholds,
): HeldBack {
  const none = { gated, cut, heldBack: null };
  if (newCharsOf(cut) > 0) return none;
  const i = cut.findIndex((w) => w.render === 'pointer');
  if (i < 0) return none;
  const g = gated[i]!;
  const restored = { ...g, render: 'full' as const, emit: g.intended, covered: [], folded: [] };
  const again = gated.map((w, k) => (k === i ? restored : w));
  const recut = budgetStep(again, limits, t);
  if (recut[i]!.render === 'skipped') return none;
  return { gated: again, cut: recut, heldBack: g.file.path };
}

/**
 * Plans a whole call, as pure steps: every file through the gates, then the
 * budget, then the hold-back (which may run the budget once more).
 *
 * - **Anti-abandonment hold-back**: when the call would carry zero new source
 *   chars and some file is all pointer, the first such file is
 *   restored to its real section (`heldBack` names it). A response of pointers
 *   only reads as "found nothing". The restored file then takes its place in
 *   the budget like any other; if the budget has no room for it at all, its
 *   pointer stays and `heldBack` is `null`. `holdBack: false` turns it off (a
 *   read tool answers an unchanged re-read with the pointer).
 * - **Budget** (`maxChars` counts source chars only): a file that is all pointer
 *   takes no file slot; the files that render share `maxChars` max-min
 *   fairly in rank order, by their deduped length; a file is cut at whole
 *   lines from its end (its `emit` shrinks to what is really sent). Files past
 *   the slots or the budget render `'skipped'`. `spend` (default) emits
 *   min(`maxChars`, deduped demand) up to line granularity; under `bank` each
 *   file emits exactly its dedup-off lines (same slots, same budget cut) minus
 *   its covered runs: the dedup-off response with duplicates replaced by
 *   pointers, so its source only shrinks.
 *
 * Never throws: junk entries (no path, content not a string) and files with
 * nothing left after clipping render `'skipped'` and take no slot. The call's
 * `coveredChars` is a **pre-clip** figure, not savings (see {@link CallPlan}).
 * The plan is frozen.
 *
 * @example
 * ```ts
 * const a = { path: 'a.ts', content: 'export const a = 1;\n'.repeat(20), intended: [{ start: 1, end: 20 }] };
 * const b = { path: 'b.ts', content: 'export const b = 2;\n', intended: [{ start: 1, end: 1 }] };
 * const store = createSessionStore();
 * const first = planCall({ files: [a], prior: store.project('/repo') });
 * first.files[0]?.render; // 'full'
 * store.record({ projectRoot: '/repo', query: 'a', sourceChars: 400, responseChars: 450,
 *   files: [{ path: 'a.ts', ranges: [{ start: 1, end: 20 }], chars: 400, fingerprint: fingerprint(a.content) }] });
 * const next = planCall({ files: [a, b], prior: store.project('/repo'), budget: { maxChars: 8000 } });
 * next.callIndex; // 2
 * next.files.map((f) => f.render); // ['pointer', 'full']: a.ts is held, b.ts is new
 * next.files[0]?.coveredBy; // [1]: the pointer cites response #1
 * ```
 */
export function planCall(input: PlanCallInput): CallPlan {
  const call = readPlanCall(input);
  const gated = call.files.map((f) => planWork(f, call));
  const cut = budgetStep(gated, call.budget, call.thresholds);
  const held = call.holdBack
    ? holdBackStep(gated, cut, call.budget, call.thresholds)
    : { gated, cut, heldBack: null };
  const files = Object.freeze(held.cut.map(planOf)) as FilePlan[];
  let coveredChars = 0;
  let foldedChars = 0;
  for (const w of held.gated) {
    if (w.render === 'skipped') continue;
    coveredChars += charsOf(w.index, w.covered);
    foldedChars += charsOf(w.index, w.folded);
  }
  return Object.freeze({
    files,
    heldBack: held.heldBack,
    callIndex: call.prior === null ? null : (call.prior.callIndex ?? call.prior.callCount + 1),
    generation: call.prior?.generation ?? null,
    newChars: files.reduce((sum, f) => sum + f.newChars, 0),
    coveredChars,
    foldedChars,
  });
}
