/**
 * What the proxy takes from span-ledger for pointers and the shared store, in
 * one place: the pointer's formatter, the refresh offer and the cut line,
 * and the shared store's constructor. Everything else comes straight from the
 * public entries where it is used.
 *
 * The proxy writes no wording of its own for a response's header, a pointer,
 * the refresh offer or a cut: all are the library's, so a change there
 * reaches every proxied response.
 */
import { type FilePlan, formatPointer } from 'span-ledger';
import { formatCut, formatRefreshOffer } from 'span-ledger/adapter';
import { createSharedSessionStore } from 'span-ledger/shared';

export { createSharedSessionStore, formatCut, formatPointer };

/**
 * The refresh offer a response makes once, after its pointers: the responses
 * they cite, newest first, with the call's numbering tag.
 *
 * @example
 * ```ts
 * refreshOfferFor(new Set([3, 5]), null);
 * // 'If responses #5 and #3 are no longer in your context, call this tool again with `refresh: [5, 3]`.'
 * ```
 */
export function refreshOfferFor(cited: ReadonlySet<number>, generation: string | null): string {
  return formatRefreshOffer(
    [...cited].sort((a, b) => b - a),
    generation,
  );
}

/**
 * The pointer for `covered` lines of a section, as the library's renderers
 * write it: compact when every covered run is shorter than the plan's
 * `minCoveredLines` (only whole sections are), naming symbols only while a
 * compact pointer stays at most half their `chars`; the cited numbers with
 * the call's numbering tag (`generation`); no refresh sentence (the response
 * offers it once, after its pointers).
 *
 * @example
 * ```ts
 * pointerFor(plan, 'src/a.ts', [{ start: 5, end: 11 }], ['parse'], false, 280);
 * // '`src/a.ts` L5-11 (parse): unchanged, sent in #2.'
 * ```
 */
export function pointerFor(
  plan: FilePlan,
  path: string,
  covered: FilePlan['covered'],
  symbols: readonly string[],
  partial: boolean,
  chars: number,
  generation: string | null = null,
): string {
  const t = plan.thresholds;
  const compact = covered.every((r) => r.end - r.start + 1 < t.minCoveredLines);
  const write = (names: readonly string[]) =>
    formatPointer({
      path,
      covered,
      symbols: names,
      partial,
      calls: plan.coveredBy,
      generation,
      compact,
      maxSpansInPointer: t.maxSpansInPointer,
      maxSymbolsInPointer: t.maxSymbolsInPointer,
    });
  const text = write(symbols);
  return compact && symbols.length > 0 && 2 * text.length > chars ? write([]) : text;
}
