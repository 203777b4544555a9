/**
 * `pointerOrLines`: the pointer policy for hosts and proxies with a layout of
 * their own — their question read once, then answered by the one policy the
 * planner and the reference renderers ask (`dedup/policy.ts`).
 */
import { count, prop, stringOf } from '../boundary/read.js';
import type { PointerInput, PointerWords } from '../dedup/pointer.js';
import { readWords } from '../dedup/pointer.js';
import { choosePointer, type PointerCase } from '../dedup/policy.js';
import { readCalls, readNames, readThresholds } from '../dedup/read-input.js';
import type { DedupThresholds } from '../dedup/thresholds.js';
import { readGeneration } from '../ledger/random.js';
import type { LineRange } from '../ranges/range.js';
import { readRanges } from '../ranges/read.js';

/**
 * What {@link pointerOrLines} decides on: the lines a pointer would stand
 * for, what sending them costs, and what the pointer would say.
 */
export interface PointerChoice {
  /** The file, as the response's file headers spell it. */
  readonly path: string;
  /** The held runs a pointer would stand for (a plan's `covered`, or the part of it a section shows). */
  readonly covered: readonly LineRange[];
  /** Chars of those lines as source: what a pointer saves. Not a number, or below 0: 0. */
  readonly chars: number;
  /**
   * `false` when the runs sit inside a section that shows other lines too: a
   * run shorter than `minCoveredLines` is then sent, never replaced (a short
   * pointer amid source reads as a hole). Default `true`: a whole section.
   */
  readonly whole?: boolean | undefined;
  /** Names of the symbols in those lines; dropped when a compact pointer would cost too much with them. */
  readonly symbols?: readonly string[] | undefined;
  /** True when new lines of the same file follow the pointer. */
  readonly partial?: boolean | undefined;
  /** The responses that delivered the lines (a plan's `coveredBy`), most recent first. */
  readonly calls?: readonly number[] | undefined;
  /** The numbering tag of those responses (a plan's `generation`). */
  readonly generation?: string | null | undefined;
  /** True when the tool takes a `refresh` argument: the pointer says how to get the lines back. */
  readonly refresh?: boolean | undefined;
  /** The thresholds of the plan (`minCoveredLines` and the pointer's limits); defaults for the rest. */
  readonly thresholds?: Partial<DedupThresholds> | undefined;
  /**
   * `true` when a plan already chose a pointer for these lines (a renderer
   * writing it): the cost rule then only decides whether the compact pointer
   * names its symbols, and the answer is a pointer whenever `covered` holds a
   * run.
   */
  readonly planned?: boolean | undefined;
}

/** A {@link PointerChoice} read once: what cannot be read is absent, and absent never withholds more. */
function readChoice(raw: unknown): PointerCase {
  return {
    path: stringOf(prop(raw, 'path')),
    covered: readRanges(prop(raw, 'covered')),
    chars: count(prop(raw, 'chars')),
    whole: prop(raw, 'whole') !== false,
    symbols: readNames(prop(raw, 'symbols')),
    partial: prop(raw, 'partial') === true,
    calls: readCalls(prop(raw, 'calls')),
    generation: readGeneration(prop(raw, 'generation')) ?? null,
    refresh: prop(raw, 'refresh') === true,
    thresholds: readThresholds(prop(raw, 'thresholds')),
    planned: prop(raw, 'planned') === true,
  };
}

/**
 * Pointer or lines: the pointer to write in place of held lines, or `null`
 * when the lines should be sent as source. A run of at least
 * `minCoveredLines` lines (default 8) earns the full pointer; when every run
 * is shorter, a whole section (`whole`, the default) gets the one-line
 * compact pointer while it costs at most half the `chars` it replaces —
 * naming `symbols` only while they fit in that half — and anything else is
 * sent. The pointer is measured by writing it, in `words` (the host's
 * wording, as span-ledger's `formatPointer` takes it), so a reworded pointer
 * moves the decision with it. A renderer writing the pointer a plan chose passes
 * `planned: true`: then only the symbols depend on the cost, and the answer is
 * never `null` while `covered` holds a run. Never throws; `covered` with no
 * valid run gives `null`.
 *
 * @example
 * ```ts
 * pointerOrLines({ path: 'src/a.ts', covered: [{ start: 10, end: 80 }], chars: 2400, calls: [3] });
 * // → 'Sent in response #3 of this conversation: `src/a.ts` L10-80. The file is unchanged since.'
 * pointerOrLines({ path: 'src/a.ts', covered: [{ start: 5, end: 11 }], chars: 280, calls: [2], symbols: ['parse'] });
 * // → '`src/a.ts` L5-11 (parse): unchanged, sent in #2.'
 * pointerOrLines({ path: 'src/a.ts', covered: [{ start: 5, end: 7 }], chars: 60, calls: [2] });
 * // → null   (the pointer would cost more than half of the 60 chars: send the lines)
 * pointerOrLines({ path: 'src/a.ts', covered: [{ start: 5, end: 11 }], chars: 280, calls: [2], whole: false });
 * // → null   (a short run amid other lines is sent)
 * pointerOrLines({ path: 'src/a.ts', covered: [{ start: 5, end: 7 }], chars: 60, calls: [2], planned: true });
 * // → '`src/a.ts` L5-7: unchanged, sent in #2.'
 * ```
 */
export function pointerOrLines(
  choice: PointerChoice,
  words?: PointerWords | ((parts: PointerInput) => string),
): string | null {
  return choosePointer(readChoice(choice), readWords(words));
}
