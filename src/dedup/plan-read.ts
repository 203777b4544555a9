/**
 * One read of a read tool (`read_file(path, offset?, limit?)`): the same gates
 * as any file, with the hold-back off, so an unchanged re-read answers with
 * the pointer the way a harness's "unchanged since" stub does — but only for
 * lines the reader provably holds, never for a different window.
 *
 * Not for explore calls of several ranked files: those go through `planCall`.
 */

import type { ProjectState } from '../ledger/types.js';
import type { LineRange } from '../ranges/range.js';
import { budgetStep, type CallBudget, withPrices } from './plan-call.js';
import { type FilePlan, planOf, planWork } from './plan-file.js';
import { readPlanRead } from './read-input.js';
import type { DedupThresholds } from './thresholds.js';

/**
 * What {@link planRead} takes.
 */
export interface PlanReadInput {
  /** Project-relative path, as the ledger records it. */
  readonly path: string;
  /** The file's current content. */
  readonly content: string;
  /**
   * The window asked for, 1-based inclusive (a read tool's `offset`/`limit`
   * turned into lines). Absent (or `null`): the whole file. A window past the
   * end is clipped, never padded; one that is not a valid range asks for nothing.
   */
  readonly range?: LineRange | null | undefined;
  /** What the session was served before: `null` when nobody tracks this call. */
  readonly prior: ProjectState | null;
  /** The fingerprint of `content`, when the caller has it already. */
  readonly fingerprint?: string | undefined;
  /** `false` renders as if the session had no history. Default on. */
  readonly enabled?: boolean | undefined;
  /** Overrides of {@link DEDUP_THRESHOLDS}. */
  readonly thresholds?: Partial<DedupThresholds> | undefined;
  /**
   * How much of the window to send, as in `planCall` (`maxChars`, `maxTokens`;
   * the window is cut at whole lines from its end, and the plan's `cutAt` says
   * where). None by default.
   */
  readonly budget?: Pick<CallBudget, 'maxChars' | 'maxTokens'> | undefined;
  /** The host's token counter for `budget.maxTokens`, as in `planCall`. */
  readonly countTokens?: ((text: string) => number) | undefined;
}

/**
 * Plans one read: the lines of `range` (the whole file when absent) through
 * the five gates, with no hold-back — a re-read of lines the reader holds from
 * this very content answers with the pointer alone (`render: 'pointer'`), a
 * window that reaches new lines gets the pointer and only those lines, and an
 * edited file comes back whole. Lines are POSIX lines.
 *
 * Never throws. A `range` that is not a valid range (junk, reversed) or lies
 * wholly past the end, content that is not a string, or a path that is not a
 * non-empty string renders `'skipped'` (no source, no pointer). A path no
 * ledger record could be keyed on (a NUL, a `..` segment, over 4,096 chars)
 * renders the window in full, nothing withheld. The plan is frozen.
 *
 * @example
 * ```ts
 * // Response #1 sent L1-120 of this very content; now the agent reads L100-180.
 * const content = 'let x = 1;\n'.repeat(200);
 * const store = createSessionStore(READ_TOOL_LIMITS);
 * store.record({ projectRoot: '/repo', query: 'a.ts', sourceChars: 1320, responseChars: 1400,
 *   files: [{ path: 'a.ts', ranges: [{ start: 1, end: 120 }], chars: 1320, fingerprint: fingerprint(content) }] });
 * const prior = store.project('/repo');
 * const plan = planRead({ path: 'a.ts', content, range: { start: 100, end: 180 }, prior });
 * plan.render;    // 'partial'
 * plan.covered;   // [{ start: 100, end: 120 }]: a pointer citing plan.coveredBy, [1]
 * plan.emit;      // [{ start: 121, end: 180 }]: source
 * planRead({ path: 'a.ts', content, range: { start: 1, end: 120 }, prior }).render; // 'pointer'
 * ```
 */
export function planRead(input: PlanReadInput): FilePlan {
  const read = readPlanRead(input);
  const work = [planWork(read.file, read)];
  return planOf(withPrices(read.budget, (price) => budgetStep(work, read.budget, price))[0]!, read);
}
