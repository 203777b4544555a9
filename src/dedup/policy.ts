/**
 * The pointer policy: whether lines the reader already holds are replaced by
 * a pointer, whether that pointer is the one-line compact form, whether it
 * names symbols, and its text. The planner's size gate, both renderers and
 * the proxy ask this one function; none restates its rules.
 *
 * Not the wording: that is `pointer.ts`, and the policy measures a pointer
 * only by writing it with the wording the host will use. Not the reading of
 * a host's question either: `pointerOrLines` (adapter) reads it, then asks here.
 */
import type { LineRange } from '../ranges/range.js';
import type { PointerWriter } from './pointer.js';
import type { DedupThresholds } from './thresholds.js';

/** @internal What the policy decides on, read (`pointerOrLines`'s `PointerChoice`) or built by the library: every field present. */
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
