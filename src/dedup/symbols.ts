/**
 * Naming what a span holds: the symbols declared in it, for the pointer to
 * list. Not a parser: the caller brings the symbol nodes it already
 * has from its index.
 */
import { prop } from '../boundary/read.js';
import type { LineRange } from '../ranges/range.js';
import { readRanges } from '../ranges/read.js';
import { readSymbolNodes, type SymbolExtent } from './read-input.js';

/**
 * The kinds of symbol a node can be. Imports and exports are never named in a pointer.
 */
export type SymbolKind =
  | 'function'
  | 'class'
  | 'method'
  | 'interface'
  | 'type'
  | 'enum'
  | 'variable'
  | 'constant'
  | 'property'
  | 'module'
  | 'import'
  | 'export';

/**
 * A symbol definition in a file: its name, kind, and the lines of its
 * definition (1-based, inclusive).
 */
export interface SymbolNode {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly start: number;
  readonly end: number;
}

/**
 * A symbol node in Codegraph's shape: the same as {@link SymbolNode}, with its
 * lines named `startLine` and `endLine`. `symbolsInSpans` takes either.
 */
export interface LineSymbolNode {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly startLine: number;
  readonly endLine: number;
}

/**
 * Which symbols a span names: those whose declaration line (the node's first)
 * it holds, or every symbol it overlaps at all.
 */
export type SymbolsBy = 'declaration' | 'overlap';

/** Options of {@link symbolsInSpans}. */
export interface SymbolsInSpansOptions {
  /**
   * `'declaration'` (the default): a symbol whose declaration line is in a
   * span. `'overlap'`: any symbol a span touches, the enclosing class of a
   * method body included. Anything else reads as the default.
   */
  readonly by?: SymbolsBy | undefined;
}

/** Index of the first span of a normalized set whose end is at or past `line`. */
function firstEndingAtOrAfter(spans: readonly LineRange[], line: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid]!.end < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The names of the symbols (not imports or exports) whose declaration line —
 * the node's first — lies in `spans`, ordered by where they start, each name
 * once: a symbol whose last lines rode along as context is not named as if
 * it had been sent. Nodes give their lines as `{ start, end }` or as
 * `{ startLine, endLine }`. Invalid nodes (blank name, bad lines) and invalid
 * spans are ignored.
 *
 * @example
 * ```ts
 * symbolsInSpans(
 *   [
 *     { name: 'x', kind: 'import', start: 1, end: 1 },
 *     { name: 'Session', kind: 'class', start: 10, end: 80 },
 *     { name: 'login', kind: 'method', startLine: 20, endLine: 40 },
 *     { name: 'audit', kind: 'function', start: 90, end: 99 },
 *   ],
 *   [{ start: 1, end: 30 }, { start: 95, end: 99 }],
 * ); // → ['Session', 'login']   (audit starts at L90: only its end was sent)
 * symbolsInSpans(
 *   [
 *     { name: 'ZodType', kind: 'class', start: 1, end: 400 },
 *     { name: 'parse', kind: 'method', start: 120, end: 140 },
 *   ],
 *   [{ start: 125, end: 130 }],
 *   { by: 'overlap' },
 * ); // → ['ZodType', 'parse']   (with the default, [])
 * ```
 */
export function symbolsInSpans(
  nodes: readonly (SymbolNode | LineSymbolNode)[],
  spans: readonly LineRange[],
  options?: SymbolsInSpansOptions,
): string[] {
  const set = readRanges(spans);
  // No spans, no names: the nodes need not be read.
  if (set.length === 0) return [];
  return symbolNames(readSymbolNodes(nodes), set, prop(options, 'by') === 'overlap');
}

/**
 * @internal {@link symbolsInSpans} over symbol nodes already read and a
 * normalized set of spans: by declaration line, or (`overlap`) by any line.
 */
export function symbolNames(
  nodes: readonly SymbolExtent[],
  set: readonly LineRange[],
  overlap = false,
): string[] {
  const hits = nodes.filter((node) => {
    const k = firstEndingAtOrAfter(set, node.start);
    return k < set.length && set[k]!.start <= (overlap ? node.end : node.start);
  });
  // A stable sort: nodes that start on the same line keep their input order.
  hits.sort((a, b) => a.start - b.start);
  return [...new Set(hits.map((h) => h.name))];
}
