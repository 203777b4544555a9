/**
 * The call-level rules on top of the per-file gates: the anti-abandonment
 * hold-back, and how a budget spends (or banks) what dedup reclaimed.
 *
 * Not for rendering or recording: the caller renders each `FilePlan` and
 * reports what it really sent.
 */

import { isNonNegativeInteger } from '../boundary/read.js';
import type { ProjectState } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';
import { minus, NO_SPANS, piecesOf, type Spans, touching, union } from '../ranges/spans.js';
import { charsOf, clipToLines, type LineIndex, takePrefix } from '../text/lines.js';
import { TOKEN_UNITS, tokenUnits } from '../text/tokens.js';
import {
  decided,
  type FilePlan,
  type FileWork,
  planOf,
  planWork,
  skipped,
  withTokens,
} from './plan-file.js';
import {
  type BudgetLimits,
  type CallInput,
  readPlanCall,
  type TokenCounter,
} from './read-input.js';
import type { DedupThresholds } from './thresholds.js';

/**
 * How much source a call may carry. `maxChars` counts source chars only (no
 * headers, fences or pointers), `maxTokens` the tokens of that source (the
 * host's `countTokens`, else `estimateTokens`), and both hold when both are
 * given; `maxFiles` counts files that render source. A `maxChars` or
 * `maxFiles` that is not a non-negative number is no limit, and so is a
 * `maxTokens` that is not a positive safe integer.
 */
export interface CallBudget {
  readonly maxChars?: number | undefined;
  readonly maxTokens?: number | undefined;
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
  /** The files in rank order (most relevant first); a path given twice is planned once, at its first rank. */
  readonly files: readonly PlanCallFile[];
  /** What the session was served before: `null` when nobody tracks this call. */
  readonly prior: ProjectState | null;
  /** `false` renders as if the session had no history. Default on. */
  readonly enabled?: boolean | undefined;
  readonly thresholds?: Partial<DedupThresholds> | undefined;
  readonly budget?: CallBudget | undefined;
  /**
   * The host's token counter for `budget.maxTokens` (its model's tokenizer),
   * called on whole lines. Without one, or when it throws or returns anything
   * but a non-negative integer, the call counts with `estimateTokens`.
   */
  readonly countTokens?: ((text: string) => number) | undefined;
  /**
   * `false` turns the anti-abandonment hold-back off: a read tool asked again
   * for a file the reader holds answers with the pointer. Default on.
   */
  readonly holdBack?: boolean | undefined;
  /**
   * The most source chars the hold-back restores (whole lines from the
   * file's first one; the rest stays a pointer). Default 1,200: a screen of
   * orientation, not the whole answer again.
   */
  readonly holdBackChars?: number | undefined;
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
  /** Tokens of that source, when the budget counted tokens (`maxTokens`); absent otherwise. */
  readonly newTokens?: number;
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
  readonly spans: Spans;
  readonly needsSlot: boolean;
}

/** What the budget granted one file: the prefix it sends (empty: no slot, or no room). */
interface Grant {
  readonly spans: Spans;
  readonly chars: number;
  /** Token units of `spans` (0 when tokens are not counted). */
  readonly units: number;
  /** The lines the file's demand had priced (`null` when tokens are not counted). */
  readonly meter: Meter | null;
}

const NO_GRANT: Grant = { spans: NO_SPANS, chars: 0, units: 0, meter: null };

/**
 * Token units of line `n` of a file: the host's counter while it works (a
 * failure marks the call, to be counted again), else the estimate, whose
 * units of whole lines add up exactly to those of the text they make.
 */
type Price = ((index: LineIndex, n: number) => number) & { failed?: boolean };

function pricer(count: TokenCounter | null): Price {
  const price: Price = ({ content, offsets }, n) => {
    const from = offsets[n - 1]!;
    const to = offsets[n]!;
    if (count !== null) {
      const counted = count(content.slice(from, to));
      if (isNonNegativeInteger(counted)) return counted * TOKEN_UNITS;
      price.failed = true;
    }
    return tokenUnits(content, from, to);
  };
  return price;
}

/**
 * A demand's lines in order with their running token units, counted only as
 * far as a limit asks: water-filling counts what the files get, not all they
 * want.
 */
interface Meter {
  /** The last line of the longest prefix within `limit` units (0: none). */
  within(limit: number): number;
  /** The units of the lines up to `end` (counted already). */
  through(end: number): number;
  /** The demand's units when it is at most `level`, else `null`. */
  fits(level: number): number | null;
  /** The units of the lines of `spans` (normalized), each counted already. */
  over(spans: readonly LineRange[]): number;
}

function meter(d: Demand, price: Price): Meter {
  // Each line counted, and the units through it.
  const lines: number[] = [];
  const sums: number[] = [];
  let span = 0;
  let line = d.spans[0]?.start ?? 0;
  let sum = 0;
  const countTo = (limit: number) => {
    while (span < d.spans.length && sum <= limit) {
      sum += price(d.index, line);
      lines.push(line);
      sums.push(sum);
      if (line++ === d.spans[span]!.end) line = d.spans[++span]?.start ?? 0;
    }
  };
  /** How many counted lines satisfy `ok`, from the end back. */
  const last = (ok: (k: number) => boolean) => {
    let k = lines.length;
    while (k > 0 && !ok(k - 1)) k--;
    return k;
  };
  return {
    within(limit) {
      countTo(limit);
      const k = last((j) => sums[j]! <= limit);
      return k === 0 ? 0 : lines[k - 1]!;
    },
    through(end) {
      const k = last((j) => lines[j]! <= end);
      return k === 0 ? 0 : sums[k - 1]!;
    },
    fits(level) {
      countTo(level);
      return span === d.spans.length && sum <= level ? sum : null;
    },
    over(spans) {
      let units = 0;
      let j = 0;
      for (const r of spans) {
        while (j < lines.length && lines[j]! < r.start) j++;
        for (; j < lines.length && lines[j]! <= r.end; j++) {
          units += sums[j]! - (j === 0 ? 0 : sums[j - 1]!);
        }
      }
      return units;
    },
  };
}

/**
 * Max-min fair shares of `total` among `n` demands (water-filling): every
 * demand at or under the level is met in full, the rest get the level.
 * `fits(k, level)` is demand `k` when it is at most `level`, else `null`.
 */
function waterFill(n: number, total: number, fits: (k: number, level: number) => number | null) {
  const out: number[] = new Array(n).fill(0);
  let open = out.map((_, k) => k);
  let left = total;
  // Ends when no open demand is at or under the level (an empty `open` included).
  for (;;) {
    const share = left / open.length;
    const next = open.filter((k) => {
      const d = fits(k, share);
      if (d === null) return true;
      out[k] = d;
      left -= d;
      return false;
    });
    if (next.length === open.length) {
      for (const k of open) out[k] = share;
      return out;
    }
    open = next;
  }
}

/**
 * Slots in rank order, fair shares of `maxChars` and of `maxTokens`, each
 * file cut at whole lines from its end to fit both; then what line
 * granularity left over goes, in rank order, to files that were cut.
 */
function allocate(demands: readonly Demand[], limits: BudgetLimits, price: Price | null): Grant[] {
  const slotted: number[] = [];
  for (const [i, d] of demands.entries()) {
    if (d.needsSlot && slotted.length < limits.maxFiles) slotted.push(i);
  }
  const ds = slotted.map((i) => demands[i]!);
  const wants = ds.map((d) => charsOf(d.index, d.spans));
  const chars = waterFill(ds.length, limits.maxChars, (k, level) =>
    wants[k]! <= level ? wants[k]! : null,
  );
  const meters = price === null ? null : ds.map((d) => meter(d, price));
  const maxUnits = limits.maxTokens * TOKEN_UNITS;
  const units = meters && waterFill(ds.length, maxUnits, (k, level) => meters[k]!.fits(level));
  /** File `k`'s longest prefix within `c` chars and `u` token units. */
  const grant = (k: number, c: number, u: number): Grant => {
    const d = ds[k]!;
    let spans = c >= wants[k]! ? d.spans : takePrefix(d.index, d.spans, c).spans;
    const m = meters?.[k];
    if (m !== undefined) spans = clipToLines(spans, m.within(u));
    return {
      spans,
      chars: charsOf(d.index, spans),
      units: m?.through(spans.at(-1)?.end ?? 0) ?? 0,
      meter: m ?? null,
    };
  };
  const grants = ds.map((_, k) => grant(k, chars[k]!, units?.[k] ?? 0));
  let leftChars = limits.maxChars;
  let leftUnits = maxUnits;
  for (const g of grants) {
    leftChars -= g.chars;
    leftUnits -= g.units;
  }
  for (const [k, g] of grants.entries()) {
    if (g.chars >= wants[k]!) continue;
    const more = grant(k, g.chars + Math.max(0, leftChars), g.units + Math.max(0, leftUnits));
    leftChars -= more.chars - g.chars;
    leftUnits -= more.units - g.units;
    grants[k] = more;
  }
  const out = demands.map(() => NO_GRANT);
  for (const [k, i] of slotted.entries()) out[i] = grants[k]!;
  return out;
}

/**
 * Under `bank`: the file sends exactly the lines it would have sent with dedup
 * off (`offLines`), minus what it withholds. Its pointer names the covered runs
 * that reach into those lines, whole; runs dedup off would not have shown drop
 * out, and with none left the file renders as dedup off.
 */
function bankTo(work: FileWork, offLines: Spans): FileWork {
  if (offLines.length === 0) return skipped(work);
  const covered = touching(work.covered, offLines);
  if (covered.length === 0) {
    return decided(work, { render: 'full', emit: offLines, covered, folded: covered });
  }
  const folded = piecesOf(work.folded, offLines, () => true);
  const emit = minus(minus(offLines, covered), folded);
  return decided(work, {
    render: emit.length === 0 ? 'pointer' : 'partial',
    emit,
    covered,
    folded,
  });
}

/** Under `spend`: the file sends the prefix of its deduped lines it was granted. */
function spendTo(work: FileWork, grant: Grant): FileWork {
  if (work.emit.length === 0) return work;
  if (grant.spans.length === 0) return skipped(work);
  const { render, covered, folded } = work;
  return decided(work, { render, emit: grant.spans, covered, folded });
}

/**
 * @internal The budget step: each file cut to its grant, past the slots or
 * the budget skipped; a file the budget cut knows its first line left out,
 * and with tokens counted every file knows the units of what it sends.
 */
export function budgetStep(
  works: readonly FileWork[],
  limits: BudgetLimits | null,
  price: Price | null,
): readonly FileWork[] {
  if (limits === null) return works;
  const demands = works.map((w) =>
    limits.bank
      ? // What each file would have had with dedup off: its slot and its cut.
        { index: w.index, spans: w.intended, needsSlot: w.render !== 'skipped' }
      : { index: w.index, spans: w.emit, needsSlot: w.emit.length > 0 },
  );
  const grants = allocate(demands, limits, price);
  return works.map((w, i) => {
    const g = grants[i]!;
    const d = demands[i]!;
    // A skipped file has no slot, so no dedup-off lines: it stays skipped.
    const out = limits.bank ? bankTo(w, g.spans) : spendTo(w, g);
    const cut = d.needsSlot && g.spans.at(-1)?.end !== d.spans.at(-1)?.end;
    if (!cut && price === null) return out;
    const { emit, covered, folded } = out;
    // Where the cut begins: the first intended line neither sent, nor pointed at, nor folded.
    const cutAt = cut
      ? (minus(minus(minus(out.intended, emit), covered), folded)[0]?.start ?? null)
      : null;
    // Under `bank` the lines sent lie within the granted ones, each priced once already.
    const units =
      price && (limits.bank ? (g.meter?.over(emit) ?? 0) : emit.length > 0 ? g.units : 0);
    return decided(out, { render: out.render, emit, covered, folded, cutAt, units });
  });
}

/** After the hold-back step: the files before the budget, after it, and who was restored. */
interface HeldBack {
  readonly gated: readonly FileWork[];
  readonly cut: readonly FileWork[];
  readonly heldBack: string | null;
}

/**
 * What the hold-back restores of a file that is all pointer: whole lines from
 * its first one, at most `cap` chars. A held run it ends inside keeps at least
 * `minCoveredLines` lines to point at, or is not entered: no section is left
 * partly shown beside a pointer shorter than that.
 */
function restoredHead(g: FileWork, cap: number, t: DedupThresholds): Spans {
  const head = takePrefix(g.index, g.intended, cap).spans;
  const end = head.at(-1)?.end ?? 0;
  const run = g.covered.find((r) => r.start <= end && end < r.end);
  if (run === undefined || run.end - end >= t.minCoveredLines) return head;
  return clipToLines(head, Math.max(run.start - 1, run.end - t.minCoveredLines));
}

/**
 * The hold-back step: when the budgeted call would carry no new source and
 * some file is all pointer, the first such file is restored — its first
 * lines, up to the cap — and the budget runs again. If the budget has no room
 * for the restored lines, the pointer stays.
 */
function holdBackStep(
  gated: readonly FileWork[],
  cut: readonly FileWork[],
  call: CallInput,
  cap: number,
  price: Price | null,
): HeldBack {
  const none = { gated, cut, heldBack: null };
  // Every line has a char (its text, or its newline): a file that sends a line sends source.
  if (cut.some((w) => w.emit.length > 0)) return none;
  const i = cut.findIndex((w) => w.render === 'pointer');
  if (i < 0) return none;
  const g = gated[i]!;
  const head = restoredHead(g, cap, call.thresholds);
  if (head.length === 0) return none;
  const covered = minus(g.covered, head);
  // A trivial remainder the pointer had folded is shown with the lines it ended.
  const restored =
    covered.length === 0
      ? decided(g, { render: 'full', emit: g.intended, covered, folded: covered })
      : decided(g, {
          render: 'partial',
          emit: union(head, minus(g.folded, head)),
          covered,
          folded: NO_SPANS,
        });
  const again = gated.map((w, k) => (k === i ? restored : w));
  const recut = budgetStep(again, call.budget, price);
  if (recut[i]!.render === 'skipped') return none;
  return { gated: again, cut: recut, heldBack: g.file.path };
}

/**
 * @internal `steps` run with the token prices a budget with `maxTokens` needs
 * (`null` without): the host's counter, and once it fails, all over again
 * with the estimate.
 */
export function withPrices<T>(
  budget: BudgetLimits | null,
  steps: (price: Price | null) => T,
  count = budget?.countTokens ?? null,
): T {
  const price = budget !== null && budget.maxTokens !== Infinity ? pricer(count) : null;
  const out = steps(price);
  return price?.failed ? withPrices(budget, steps, null) : out;
}

/**
 * Plans a whole call, as pure steps: every file through the gates, then the
 * budget, then the hold-back (which may run the budget once more). A path
 * given twice is planned once, at its first rank, with the union of its
 * spans (its later entries render `'skipped'`): one response never carries a
 * line twice.
 *
 * - **Anti-abandonment hold-back**: when the call would carry zero new source
 *   chars and some file is all pointer, the first such file is restored
 *   (`heldBack` names it) — at most `holdBackChars` (1,200) source chars,
 *   whole lines from its first one, the rest still a pointer: a screen of
 *   orientation, not the whole answer again. A response of pointers only
 *   reads as "found nothing". The restored lines then take their place in
 *   the budget like any other; if the budget has no room for them, the
 *   pointer stays and `heldBack` is `null`. `holdBack: false` turns it off
 *   (a read tool answers an unchanged re-read with the pointer).
 * - **Budget** (`maxChars` counts source chars, `maxTokens` their tokens —
 *   the host's `countTokens`, else `estimateTokens` — and both hold): a file
 *   that is all pointer takes no file slot; the files that render share the
 *   budget max-min fairly in rank order, by their deduped length; a file is
 *   cut at whole lines from its end (its `emit` shrinks to what is really
 *   sent, its `cutAt` names the first line left out). Files past the slots
 *   or the budget render `'skipped'`. `spend` (default) emits min(budget,
 *   deduped demand) up to line granularity; under `bank` each file emits
 *   exactly its dedup-off lines (same slots, same budget cut) minus its
 *   covered runs: the dedup-off response with duplicates replaced by
 *   pointers, so its source only shrinks. With `maxTokens`, the plan and its
 *   files report `newTokens`.
 *
 * Never throws: junk entries (no path, content not a string) and files with
 * nothing left after clipping render `'skipped'` and take no slot; a
 * `countTokens` that throws or returns anything but a non-negative integer
 * gives way to the estimate for the whole call. The call's `coveredChars` is
 * a **pre-clip** figure, not savings (see {@link CallPlan}). The plan is
 * frozen.
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
  const { budget, holdBackChars } = call;
  const held = withPrices(budget, (price): HeldBack => {
    const cut = budgetStep(gated, budget, price);
    return holdBackChars === null
      ? { gated, cut, heldBack: null }
      : holdBackStep(gated, cut, call, holdBackChars, price);
  });
  const files = Object.freeze(held.cut.map((w) => planOf(w, call))) as FilePlan[];
  let coveredChars = 0;
  let foldedChars = 0;
  // A skipped file covers and folds nothing.
  for (const w of held.gated) {
    coveredChars += charsOf(w.index, w.covered);
    foldedChars += charsOf(w.index, w.folded);
  }
  const plan = {
    files,
    heldBack: held.heldBack,
    callIndex: call.callIndex,
    generation: call.generation,
    newChars: files.reduce((sum, f) => sum + f.newChars, 0),
    coveredChars,
    foldedChars,
  };
  const counted = budget !== null && budget.maxTokens !== Infinity;
  return withTokens(plan, counted ? held.cut.reduce((sum, w) => sum + (w.units ?? 0), 0) : null);
}
