/**
 * The back-reference: the text that stands in for source the reader already
 * holds. It makes that earlier copy usable — which file, which lines, which
 * symbols, and the two facts that make it trustworthy (it came from this
 * conversation; the file has not changed since).
 *
 * Not a gap marker: it never calls the source omitted, unavailable or missing,
 * and never sends the reader to the file.
 */
import { formatSpans } from '../ranges/format.js';
import type { LineRange } from '../ranges/range.js';
import { DEDUP_THRESHOLDS } from './thresholds.js';

/**
 * What {@link formatBackReference} takes.
 *
 * @example
 * ```ts
 * const input: BackReferenceInput = { path: plan.path, covered: plan.covered, partial: plan.render === 'partial' };
 * ```
 */
export interface BackReferenceInput {
  /** The file, as the response's file headers spell it. */
  readonly path: string;
  /** The lines the pointer stands for (a plan's `covered`). */
  readonly covered: readonly LineRange[];
  /** Names of the symbols in those lines (see `symbolsInSpans`); imports are best left out. */
  readonly symbols?: readonly string[] | undefined;
  /** True when new lines of the same file follow the pointer (`render: 'partial'`). */
  readonly partial?: boolean | undefined;
}

function symbolList(symbols: unknown, max: number): string {
  if (!Array.isArray(symbols)) return '';
  const names: string[] = [];
  const seen = new Set<string>();
  for (const s of symbols) {
    if (typeof s !== 'string') continue;
    const name = s.trim();
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) shown.push(`+${rest} more`);
  return shown.join(', ');
}

/**
 * The pointer text for lines the reader already holds: names the path, the
 * spans (past four, `+N more spans`), up to five symbols (`+N more`), says the
 * source was sent earlier in this conversation from the same content, and —
 * when `partial` — that only the new lines follow.
 *
 * @example
 * ```ts
 * formatBackReference({
 *   path: 'src/auth.ts',
 *   covered: [{ start: 10, end: 80 }],
 *   symbols: ['Session', 'login'],
 *   partial: true,
 * });
 * // 'Sent earlier in this conversation: `src/auth.ts` L10-80 (Session, login).
 * //  The file is unchanged since, so that earlier copy is still exact. Only the
 * //  lines not sent before follow.'   (one line)
 * ```
 */
export function formatBackReference(input: BackReferenceInput): string {
  let path: unknown;
  let covered: unknown;
  let symbols: unknown;
  let partial: unknown;
  try {
    ({ path, covered, symbols, partial } = input);
  } catch {
    // A hostile input object still gets a well-formed pointer.
  }
  const name = typeof path === 'string' && path !== '' ? `\`${path}\`` : 'this file';
  const spans = Array.isArray(covered)
    ? formatSpans(covered as LineRange[], DEDUP_THRESHOLDS.maxSpansInPointer)
    : '';
  const names = symbolList(symbols, DEDUP_THRESHOLDS.maxSymbolsInPointer);
  let head = `Sent earlier in this conversation: ${name}`;
  if (spans !== '') head += ` ${spans}`;
  if (names !== '') head += ` (${names})`;
  const tail =
    partial === true
      ? 'The file is unchanged since, so that earlier copy is still exact. Only the lines not sent before follow.'
      : 'The file is unchanged since, so that earlier copy is still exact; scroll back to it.';
  return `${head}. ${tail}`;
}
