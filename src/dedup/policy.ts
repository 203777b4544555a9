/**
 * The pointer policy: whether lines the reader already holds are replaced by
 * a pointer, whether that pointer is the one-line compact form, whether it
 * names symbols, and its text. The planner's size gate, both renderers and
 * the proxy ask this one function; none restates its rules.
 *
 * Not the wording: that is `pointer.ts`, and the policy measures a pointer
 * only by writing it with the wording the host will use.
 */
import { count, prop, stringOf } from '../boundary/read.js';
import { readGeneration } from '../ledger/random.js';
import type { LineRange } from '../ranges/range.js';
import { readRanges } from '../ranges/read.js';
import { type PointerInput, type PointerWords, type PointerWriter, readWords } from './pointer.js';
import { readCalls, readNames, readThresholds } from './read-input.js';
import type { DedupThresholds } from './thresholds.js';

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

/** @internal A {@link PointerChoice} read: every field present and checked. */
export interface PointerCase {
  readonly path: string;
  readonly covered: readonly LineRange[];
  readonly chars: number;
  readonly whole: boolean;
  readonly symbols: readonly string[];
  readonly partial: boolean;
  readonly calls: readonly number[];
  readonly generation: string | null;
  readonly refresh: boolean;
  readonly thresholds: DedupThresholds;
  readonly planned: boolean;
}

/** What the policy makes of held runs before any text is written. */
export type PointerForm = 'lines' | 'full' | 'compact';

/**
 * @internal The form held runs earn: a run of at least `minCoveredLines`
 * lines earns the full pointer by its length; when every run is shorter, a
 * whole section may take the one-line compact pointer (if it pays, see
 * {@link choosePointer}), and runs amid other lines of their section are sent.
 */
export function pointerForm(
  covered: readonly LineRange[],
  whole: boolean,
  t: DedupThresholds,
): PointerForm {
  if (covered.length === 0) return 'lines';
  if (covered.some((r) => r.end - r.start + 1 >= t.minCoveredLines)) return 'full';
  return whole ? 'compact' : 'lines';
}

/**
 * @internal The policy on a case already read (or built by the planner or a
 * renderer from data it trusts), written with `write`: the full pointer,
 * naming its symbols, or the compact pointer only while it costs at most half
 * the chars it replaces — with its symbols when they fit, else without — so
 * that every pointer is a real saving.
 */
export function choosePointer(c: PointerCase, write: PointerWriter): string | null {
  const t = c.thresholds;
  const form = pointerForm(c.covered, c.whole || c.planned, t);
  if (form === 'lines') return null;
  const writeWith = (symbols: readonly string[]) =>
    write({
      path: c.path,
      covered: c.covered,
      symbols,
      partial: c.partial,
      calls: c.calls,
      generation: c.generation,
      refresh: c.refresh,
      compact: form === 'compact',
      maxSpansInPointer: t.maxSpansInPointer,
      maxSymbolsInPointer: t.maxSymbolsInPointer,
    });
  const text = writeWith(c.symbols);
  if (form === 'full' || 2 * text.length <= c.chars) return text;
  if (c.symbols.length === 0) return c.planned ? text : null;
  const bare = writeWith([]);
  return c.planned || 2 * bare.length <= c.chars ? bare : null;
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
 * wording, as {@link formatPointer} takes it), so a reworded pointer moves
 * the decision with it. A renderer writing the pointer a plan chose passes
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
