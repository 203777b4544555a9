/**
 * Naming what a span holds: the symbols whose definitions overlap it, for the
 * pointer to list. Not a parser: the caller brings the symbol nodes it already
 * has from its index.
 */
import { firstEndingAtOrAfter, toSpans } from '../ranges/_spans.js';
import { isLineRange, type LineRange } from '../ranges/range.js';

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
  if (set.n === 0) return [];
  let count = 0;
  try {
    count = Array.isArray(nodes) ? nodes.length : 0;
  } catch {
    // A revoked proxy (Array.isArray throws) or a length getter that throws: no nodes.
  }
  const hits: { name: string; start: number }[] = [];
  for (let i = 0; i < count; i++) {
    let name: unknown;
    let kind: unknown;
    let start: unknown;
    let end: unknown;
    try {
      // null throws here, a primitive reads no field: either way the node is skipped below.
      ({ name, kind, start, end } = nodes[i] as SymbolNode);
    } catch {
      // A getter threw: the fields not read stay undefined.
    }
    if (typeof name !== 'string' || name.trim() === '') continue;
    if (kind === 'import' || kind === 'export') continue;
    const extent = { start, end };
    if (!isLineRange(extent)) continue;
    const k = firstEndingAtOrAfter(set, extent.start);
    if (k < set.n && set.s[k]! <= extent.end) hits.push({ name, start: extent.start });
  }
  // A stable sort: nodes that start on the same line keep their input order.
  hits.sort((a, b) => a.start - b.start);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const h of hits) {
    if (seen.has(h.name)) continue;
    seen.add(h.name);
    out.push(h.name);
  }
  return out;
}
