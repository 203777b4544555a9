/**
 * The pointer: the text that stands in for source the reader already
 * holds. It makes that earlier copy usable — which file, which lines, which
 * symbols, and the two facts that make it trustworthy (it came from this
 * conversation; the file has not changed since).
 *
 * Not a gap marker: it never calls the source omitted, unavailable or missing,
 * and never sends the reader to the file.
 */

import { readGeneration } from '../ledger/random.js';
import { spansText } from '../ranges/format.js';
import type { LineRange } from '../ranges/range.js';
import { type PointerParts, readCalls, readPointerInput } from './read-input.js';

/**
 * What a pointer is written from: the argument of {@link formatPointer}, and
 * of a renderer's own `pointer` writer (`renderMarkdown` and `renderRead` pass
 * every field).
 */
export interface PointerInput {
  /** The file, as the response's file headers spell it. */
  readonly path: string;
  /** The lines the pointer stands for (a plan's `covered`). */
  readonly covered: readonly LineRange[];
  /** Names of the symbols in those lines (see `symbolsInSpans`); imports are best left out. */
  readonly symbols?: readonly string[] | undefined;
  /** True when new lines of the same file follow the pointer (`render: 'partial'`). */
  readonly partial?: boolean | undefined;
  /** The responses that delivered the lines (a plan's `coveredBy`), most recent first. */
  readonly calls?: readonly number[] | undefined;
  /** The numbering tag of those responses (a plan's `generation`), cited beside each number. */
  readonly generation?: string | null | undefined;
  /** True when the tool takes a `refresh` argument: the pointer says how to get the lines back. */
  readonly refresh?: boolean | undefined;
  /**
   * True for the one-line form of a whole small section (path, spans, the
   * response that sent them): the renderers use it when every covered run is
   * shorter than `minCoveredLines`, as only whole sections can be.
   */
  readonly compact?: boolean | undefined;
  /** Spans named before `+N more spans` (a plan's `thresholds.maxSpansInPointer`; default 4). */
  readonly maxSpansInPointer?: number | undefined;
  /** Symbols named before `+N more` (a plan's `thresholds.maxSymbolsInPointer`; default 5). */
  readonly maxSymbolsInPointer?: number | undefined;
}

/** Response numbers named before the rest are counted. */
const MAX_CALLS_SHOWN = 4;

/**
 * @internal How a response number is printed, in the header and in every
 * pointer alike: `4`, or `4/kqfz` with its numbering tag, so that after a
 * lost ledger a new numbering never repeats a label the agent holds.
 */
export function responseLabel(index: number, generation: string | null | undefined): string {
  return generation ? `${index}/${generation}` : `${index}`;
}

/**
 * `#5`, `#5 and #3`, `#5, #3 and #1`, `#9, #8, #7, #6 and 2 earlier ones`;
 * each with its numbering tag when there is one (`#5/kqfz`).
 */
function numbers(calls: readonly number[], generation: string | null): string {
  const shown = calls.slice(0, MAX_CALLS_SHOWN).map((n) => `#${responseLabel(n, generation)}`);
  const rest = calls.length - shown.length;
  if (rest > 0) shown.push(`${rest} earlier ${rest === 1 ? 'one' : 'ones'}`);
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** @internal Up to `max` names, then how many more: a pointer's symbols, a section header's. */
export function symbolList(names: readonly string[], max: number): string {
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) shown.push(`+${rest} more`);
  return shown.join(', ');
}

/**
 * The sentence that tells the reader how to get lines back through the tool:
 * which responses to name in `refresh`. A response whose pointers all cite
 * `calls` says it once, after them (`renderMarkdown` and `renderRead` do).
 *
 * @example
 * ```ts
 * formatRefreshOffer([5, 3]);
 * // → 'If responses #5 and #3 are no longer in your context, call this tool again with `refresh: [5, 3]`.'
 * formatRefreshOffer([]);
 * // → 'If that copy is no longer in your context, call this tool again with `refresh: true`.'
 * ```
 */
export function formatRefreshOffer(calls: readonly number[], generation?: string | null): string {
  return refreshOffer(readCalls(calls), readGeneration(generation) ?? null);
}

/** @internal {@link formatRefreshOffer} of response numbers (and their tag) already read. */
export function refreshOffer(calls: readonly number[], generation: string | null = null): string {
  if (calls.length === 0) {
    return 'If that copy is no longer in your context, call this tool again with `refresh: true`.';
  }
  const cited = numbers(calls, generation);
  const which = calls.length === 1 ? `response ${cited} is` : `responses ${cited} are`;
  const arg = calls.length <= MAX_CALLS_SHOWN ? `[${calls.join(', ')}]` : 'true';
  return `If ${which} no longer in your context, call this tool again with \`refresh: ${arg}\`.`;
}

/**
 * The pointer text for lines the reader already holds: names the path, the
 * spans (past `maxSpansInPointer`, four by default, `+N more spans`), the
 * symbols (past `maxSymbolsInPointer`, five, `+N more`), the responses that
 * delivered them (`calls`: "response #3", "responses #5 and #3"), says the
 * file is unchanged since, and — when `partial` — that only the new lines
 * follow. `compact` gives the one-line form of a whole small section
 * (`` `src/a.ts` L248-254: unchanged, in #2. ``). With `refresh:
 * true` it ends with {@link formatRefreshOffer}'s sentence, for a host that
 * writes one pointer a response. It never sends the reader to the file.
 *
 * @example
 * ```ts
 * formatPointer({
 *   path: 'src/auth.ts',
 *   covered: [{ start: 10, end: 80 }],
 *   symbols: ['Session', 'login'],
 *   partial: true,
 *   calls: [3],
 *   refresh: true,
 * });
 * // → 'Sent in response #3 of this conversation: `src/auth.ts` L10-80 (Session, login).'
 * //   + ' The file is unchanged since; only the lines not sent before follow.'
 * //   + ' If response #3 is no longer in your context, call this tool again with `refresh: [3]`.'
 * formatPointer({ path: 'core/util.ts', covered: [{ start: 248, end: 254 }], calls: [2], compact: true });
 * // → '`core/util.ts` L248-254: unchanged, in #2.'
 * ```
 */
export function formatPointer(input: PointerInput): string {
  return writePointer(readPointerInput(input));
}

/**
 * @internal The pointer text from parts already read (or built by the
 * renderer from a plan it read): `covered` normalized, names trimmed and
 * non-blank, `calls` positive and each once.
 */
export function writePointer(p: PointerParts): string {
  let what = p.path !== '' ? `\`${p.path}\`` : 'this file';
  const spans = spansText(p.covered, p.maxSpansInPointer);
  const names = symbolList(p.symbols, p.maxSymbolsInPointer);
  if (spans !== '') what += ` ${spans}`;
  if (names !== '') what += ` (${names})`;
  const text = p.compact
    ? `${what}: unchanged, ${p.calls.length === 0 ? 'sent earlier in this conversation' : `in ${numbers(p.calls, p.generation ?? null)}`}.`
    : `Sent ${p.calls.length === 0 ? 'earlier in this conversation' : `in ${p.calls.length === 1 ? 'response' : 'responses'} ${numbers(p.calls, p.generation ?? null)} of this conversation`}: ${what}. The file is unchanged since${
        p.partial ? '; only the lines not sent before follow.' : '.'
      }`;
  return p.refresh ? `${text} ${refreshOffer(p.calls, p.generation ?? null)}` : text;
}
