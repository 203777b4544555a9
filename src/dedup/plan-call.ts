/**
 * The call-level rules on top of the per-file gates: the anti-abandonment
 * hold-back, and how a budget spends (or banks) what dedup reclaimed.
 *
 * Not for rendering or recording: the caller renders each `FilePlan` and
 * reports what it really sent.
 */

import type { ProjectState } from '../ledger/types.js';
import { EMPTY, type Spans } from '../ranges/_spans.js';
import type { LineRange } from '../ranges/range.js';
import { charsOf, type LineIndex, takePrefix } from './_lines.js';
import { type FilePlan, type FileWork, gateContext, planOf, planWork, read } from './plan-file.js';
import type { DedupThresholds } from './thresholds.js';

/**
 * How much source a call may carry. `maxChars` counts source chars only
 * (no headers, fences or pointers); `maxFiles` counts files that render source.
 * A limit that is not a non-negative number is no limit.
 *
 * @example
 * ```ts
 * const budget: CallBudget = { maxChars: 24_000, maxFiles: 8, policy: 'spend' };
 * ```
 */
export interface CallBudget {
  readonly maxChars?: number | undefined;
  readonly maxFiles?: number | undefined;
  /**
   * `spend` (default): reclaimed room goes to source the reader has not seen —
   * the same response size, a larger share of it new. `bank`: each file keeps
   * the slot and allowance it would have had with dedup off, so the saving
   * comes back as a smaller response.
   */
  readonly policy?: 'spend' | 'bank' | undefined;
}

/**
 * One file of a call, in rank order.
 *
 * @example
 * ```ts
 * const file: PlanCallFile = { path: 'src/a.ts', content, intended: [{ start: 1, end: 40 }], fingerprint: fp };
 * ```
 */
export interface PlanCallFile {
  readonly path: string;
  readonly content: string;
  readonly intended: readonly LineRange[];
  readonly fingerprint?: string | undefined;
}

/**
 * What {@link planCall} takes.
 *
 * @example
 * ```ts
 * const input: PlanCallInput = { files, prior: projectFromView(view, root), enabled: dedupEnabledFromEnv() };
 * ```
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
}

/**
 * The plan of a whole call.
 *
 * @example
 * ```ts
 * const plan: CallPlan = planCall({ files, prior });
 * plan.heldBack; // 'src/a.ts' when the hold-back restored it, else null
 * ```
 */
export interface CallPlan {
  /** One plan per input file, in the same order. */
  readonly files: FilePlan[];
  /** The path restored to its real section by the anti-abandonment hold-back, else `null`. */
  readonly heldBack: string | null;
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

interface Limits {
  readonly maxChars: number;
  readonly maxFiles: number;
  readonly bank: boolean;
}

function readLimits(budget: unknown): Limits | null {
  const maxChars = read(budget, 'maxChars');
  const maxFiles = read(budget, 'maxFiles');
  const chars = typeof maxChars === 'number' && maxChars >= 0 ? maxChars : Infinity;
  const files = typeof maxFiles === 'number' && maxFiles >= 0 ? Math.floor(maxFiles) : Infinity;
  if (chars === Infinity && files === Infinity) return null;
  return { maxChars: chars, maxFiles: files, bank: read(budget, 'policy') === 'bank' };
}

/** One file as the budget sees it: what it wants to send. */
interface Demand {
  readonly index: LineIndex;
  readonly spans: Spans;
  readonly needsSlot: boolean;
}

/** What the budget granted one file: a slot or not, and the prefix it sends. */
interface Grant {
  readonly slot: boolean;
  readonly spans: Spans;
  readonly chars: number;
}

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
      break;
    }
    for (const i of met) {
      out[i] = demands[i]!;
      left -= demands[i]!;
    }
    open = open.filter((i) => demands[i]! > share);
  }
  return out;
}

/**
 * Slots in rank order, fair shares of `maxChars`, each file cut at whole lines
 * from its end; then what line granularity left over goes, in rank order, to
 * files that were cut.
 */
function allocate(demands: readonly Demand[], limits: Limits): Grant[] {
  const grants: Grant[] = demands.map(() => ({ slot: false, spans: EMPTY, chars: 0 }));
  const slotted: number[] = [];
  for (const [i, d] of demands.entries()) {
    if (d.needsSlot && slotted.length < limits.maxFiles) slotted.push(i);
  }
  const wants = slotted.map((i) => charsOf(demands[i]!.index, demands[i]!.spans));
  const shares = limits.maxChars === Infinity ? wants : waterFill(wants, limits.maxChars);
  let used = 0;
  for (const [k, i] of slotted.entries()) {
    const d = demands[i]!;
    const p =
      shares[k]! >= wants[k]!
        ? { spans: d.spans, chars: wants[k]! }
        : takePrefix(d.index, d.spans, shares[k]!);
    grants[i] = { slot: true, spans: p.spans, chars: p.chars };
    used += p.chars;
  }
  if (limits.maxChars !== Infinity) {
    let left = limits.maxChars - used;
    for (const [k, i] of slotted.entries()) {
      const g = grants[i]!;
      if (g.chars >= wants[k]! && g.spans.n === demands[i]!.spans.n) continue;
      const p = takePrefix(demands[i]!.index, demands[i]!.spans, g.chars + Math.max(0, left));
      left -= p.chars - g.chars;
      grants[i] = { slot: true, spans: p.spans, chars: p.chars };
    }
  }
  return grants;
}

function skip(work: FileWork): void {
  work.emit = EMPTY;
  work.render = 'skipped';
}

function cutTo(work: FileWork, spans: Spans): void {
  if (spans.n === 0) skip(work);
  else work.emit = spans;
}

/**
 * Plans a whole call: every file through the gates, then the call-level rules.
 *
 * - **Anti-abandonment hold-back**: when the call would carry zero new source
 *   chars and some file is fully back-referenced, the first such file is
 *   restored to its real section (`heldBack` names it). A response of pointers
 *   only reads as "found nothing". The restored file then takes its place in
 *   the budget like any other; if the budget has no room for it at all, its
 *   pointer stays and `heldBack` is `null`.
 * - **Budget** (`maxChars` counts source chars only): a fully back-referenced
 *   file takes no file slot; the files that render share `maxChars` max-min
 *   fairly in rank order, by their deduped length; a file is cut at whole
 *   lines from its end (its `emit` shrinks to what is really sent). Files past
 *   the slots or the budget render `'skipped'`. `spend` (default) emits
 *   min(`maxChars`, deduped demand) up to line granularity; `bank` keeps each
 *   file within the slot and chars it would have had with dedup off.
 *
 * Never throws: junk entries (no path, content not a string) render `'skipped'`.
 * The call's `coveredChars` is a **pre-clip** figure, not savings (see {@link CallPlan}).
 *
 * @example
 * ```ts
 * const plan = planCall({
 *   files: [{ path: 'src/auth.ts', content, intended: [{ start: 1, end: 120 }] }, ...more],
 *   prior: projectFromView(view, root),
 *   budget: { maxChars: 24_000, maxFiles: 8 },
 * });
 * for (const f of plan.files) {
 *   if (f.render === 'skipped') continue;
 *   if (f.render !== 'full') out.push(formatBackReference({ path: f.path, covered: f.covered, symbols, partial: f.render === 'partial' }));
 *   // …then the source lines of f.emit
 * }
 * ```
 */
export function planCall(input: PlanCallInput): CallPlan {
  // Every read is guarded: null, a primitive or a hostile object reads as no field.
  const get = <K extends keyof PlanCallInput>(k: K) =>
    read(input, k) as PlanCallInput[K] | undefined;
  const rawFiles = get('files');
  const entries: readonly unknown[] = Array.isArray(rawFiles) ? rawFiles : [];
  const prior = get('prior') ?? null;
  const paths = new Set<string>();
  for (const entry of entries) {
    try {
      const path = (entry as { path?: unknown }).path;
      if (typeof path === 'string') paths.add(path);
    } catch {
      // A file whose path cannot be read is skipped below.
    }
  }
  const ctx = gateContext(prior, get('enabled'), get('thresholds'), paths);
  const limits = readLimits(get('budget'));

  const works = entries.map((entry) => {
    const work = planWork(entry, ctx);
    if (!work.valid) skip(work);
    return work;
  });

  // New source chars the ranking intended, before hold-back and budget.
  let newBefore = 0;
  for (const w of works) newBefore += charsOf(w.index, w.emit);

  let heldBack: string | null = null;
  let heldIndex = -1;
  let heldOriginal: Pick<FileWork, 'render' | 'covered' | 'folded'> | null = null;
  if (newBefore === 0) {
    heldIndex = works.findIndex((w) => w.render === 'backref');
    if (heldIndex >= 0) {
      const w = works[heldIndex]!;
      heldOriginal = { render: w.render, covered: w.covered, folded: w.folded };
      heldBack = w.path;
      w.render = 'full';
      w.emit = w.intended;
      w.covered = EMPTY;
      w.folded = EMPTY;
    }
  }

  let coveredChars = 0;
  let foldedChars = 0;
  for (const w of works) {
    coveredChars += charsOf(w.index, w.covered);
    foldedChars += charsOf(w.index, w.folded);
  }

  if (limits) {
    // Skipped, invalid and back-referenced files all have an empty emit.
    const renders = (w: FileWork) => w.emit.n > 0;
    if (!limits.bank) {
      const grants = allocate(
        works.map((w) => ({ index: w.index, spans: w.emit, needsSlot: renders(w) })),
        limits,
      );
      for (const [i, w] of works.entries()) {
        // A file granted no slot has no spans, so the cut skips it.
        if (renders(w)) cutTo(w, grants[i]!.spans);
      }
    } else {
      // What each file would have had with dedup off: its slot and its chars.
      const off = allocate(
        works.map((w) => ({
          index: w.index,
          spans: w.intended,
          needsSlot: w.valid && w.intended.n > 0,
        })),
        limits,
      );
      for (const [i, w] of works.entries()) {
        const g = off[i]!;
        if (!g.slot || g.spans.n === 0) {
          if (w.render !== 'full' || w.emit.n > 0) skip(w);
          continue;
        }
        if (!renders(w)) continue;
        cutTo(w, takePrefix(w.index, w.emit, g.chars).spans);
      }
    }
    if (heldIndex >= 0 && works[heldIndex]!.render === 'skipped' && heldOriginal) {
      // The budget left no room for the restored section: keep the pointer instead.
      const w = works[heldIndex]!;
      heldBack = null;
      w.emit = EMPTY;
      Object.assign(w, heldOriginal);
      // Under `bank` the budget skips a restored file only when dedup off had no slot or
      // chars for it either; then its pointer gets none as well.
      if (limits.bank) skip(w);
    }
  }

  const files = works.map(planOf);
  let newChars = 0;
  for (const f of files) newChars += f.newChars;
  return { files, heldBack, newChars, coveredChars, foldedChars };
}
