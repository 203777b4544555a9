/**
 * The pointer: the text that stands in for source the reader already
 * holds. It makes that earlier copy usable — which file, which lines, which
 * symbols, and the two facts that make it trustworthy (it came from this
 * conversation; the file has not changed since).
 *
 * Not a gap marker: it never calls the source omitted, unavailable or missing,
 * and never sends the reader to the file.
 */

import { spansText } from '../ranges/format.js';
import type { LineRange } from '../ranges/range.js';
import { type PointerParts, readPointerInput } from './read-input.js';
import { DEDUP_THRESHOLDS } from './thresholds.js';

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

/** `#5`, `#5 and #3`, `#5, #3 and #1`, `#9, #8, #7, #6 and 2 earlier ones`. */
function numbers(calls: readonly number[], generation: string | null): string {
  const shown = calls.slice(0, MAX_CALLS_SHOWN).map((n) => `#${responseLabel(n, generation)}`);
  const rest = calls.length - shown.length;
  if (rest > 0) shown.push(`${rest} earlier ${rest === 1 ? 'one' : 'ones'}`);
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function symbolList(names: readonly string[], max: number): string {
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) shown.push(`+${rest} more`);
  return shown.join(', ');
}

/** The sentence that tells the reader how to get the lines back through the tool. */
function refreshSentence(calls: readonly number[], generation: string | null): string {
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
 * spans (past four, `+N more spans`), up to five symbols (`+N more`), the
 * responses that delivered them (`calls`: "response #3", "responses #5 and
 * #3"), says the file is unchanged since, and — when `partial` — that only the
 * new lines follow. With `refresh: true` it ends with one sentence on how to
 * get the lines back by calling the tool again with `refresh`. It never sends
 * the reader to the file.
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
 * //   + ' The file is unchanged since, so that earlier copy is still exact.'
 * //   + ' Only the lines not sent before follow.'
 * //   + ' If response #3 is no longer in your context, call this tool again with `refresh: [3]`.'
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
  const name = p.path !== '' ? `\`${p.path}\`` : 'this file';
  const spans = spansText(p.covered, DEDUP_THRESHOLDS.maxSpansInPointer);
  const names = symbolList(p.symbols, DEDUP_THRESHOLDS.maxSymbolsInPointer);
  const when =
    p.calls.length === 0
      ? 'Sent earlier in this conversation'
      : `Sent in ${p.calls.length === 1 ? 'response' : 'responses'} ${numbers(p.calls, p.generation)} of this conversation`;
  let head = `${when}: ${name}`;
  if (spans !== '') head += ` ${spans}`;
  if (names !== '') head += ` (${names})`;
  const tail = p.partial
    ? 'The file is unchanged since, so that earlier copy is still exact. Only the lines not sent before follow.'
    : 'The file is unchanged since, so that earlier copy is still exact; scroll back to it.';
  return p.refresh
    ? `${head}. ${tail} ${refreshSentence(p.calls, p.generation)}`
    : `${head}. ${tail}`;
}
