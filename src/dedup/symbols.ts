/**
 * Naming what a span holds: the symbols whose definitions overlap it, for the
 * pointer to list. Not a parser: the caller brings the symbol nodes it already
 * has from its index.
 */
import { firstEndingAtOrAfter, toSpans } from '../ranges/_spans.js';
import type { LineRange } from '../ranges/range.js';

/**
 * The kinds of symbol a node can be. Imports and exports are never named in a pointer.
 *
 * @example
 * ```ts
 * const kind: SymbolKind = 'method';
 * ```
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
 *
 * @example
 * ```ts
 * const node: SymbolNode = { name: 'login', kind: 'function', start: 12, end: 40 };
 * ```
 */
export interface SymbolNode {
  readonly name: string;
  readonly kind: SymbolKind;
  readonly start: number;
  readonly end: number;
}

/**
 * The names of the symbols (not imports or exports) whose definitions overlap
 * `spans`, ordered by where they start, each name once. Invalid nodes (blank
 * name, bad lines) and invalid spans are ignored.
 *
 * @example
 * ```ts
 * symbolsInSpans(
 *   [
 *     { name: 'x', kind: 'import', start: 1, end: 1 },
 *     { name: 'Session', kind: 'class', start: 10, end: 80 },
 *     { name: 'login', kind: 'method', start: 20, end: 40 },
 *     { name: 'audit', kind: 'function', start: 90, end: 99 },
 *   ],
 *   [{ start: 1, end: 30 }],
 * ); // → ['Session', 'login']
 * ```
 */
export function symbolsInSpans(
  nodes: readonly SymbolNode[],
  spans: readonly LineRange[],
): string[] {
  const set = toSpans(spans);
  let count = 0;
  try {
    // Array.isArray throws on a revoked proxy; a length getter may throw too.
    count = set.n > 0 && Array.isArray(nodes) ? nodes.length : 0;
  } catch {
    return [];
  }
  const hits: { name: string; start: number; order: number }[] = [];
  for (let i = 0; i < count; i++) {
    let name: unknown;
    let kind: unknown;
    let start: unknown;
    let end: unknown;
    try {
      const node = nodes[i];
      if (node === null || typeof node !== 'object') continue;
      ({ name, kind, start, end } = node);
    } catch {
      continue;
    }
    if (typeof name !== 'string' || name.trim() === '') continue;
    if (kind === 'import' || kind === 'export') continue;
    if (typeof start !== 'number' || typeof end !== 'number') continue;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 1 || start > end) {
      continue;
    }
    const k = firstEndingAtOrAfter(set, start);
    if (k < set.n && set.s[k]! <= end) hits.push({ name, start, order: i });
  }
  hits.sort((a, b) => a.start - b.start || a.order - b.order);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const h of hits) {
    if (seen.has(h.name)) continue;
    seen.add(h.name);
    out.push(h.name);
  }
  return out;
}
