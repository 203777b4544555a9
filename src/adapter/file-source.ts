/**
 * A file's content as the section grammar reads it: POSIX lines (the core's
 * line model: a final `'\n'` ends the last line, it does not start another),
 * the chars of any run of them, and the symbols declared in a set of spans.
 * It proves nothing and reads no disk: the host brings the content and its
 * fingerprint.
 */
import type { SymbolNode } from '../dedup/symbols.js';
import type { LineRange } from '../ranges/range.js';
import { charsOfLines, indexLines, lineText } from '../text/lines.js';
import { extractSymbols } from './symbols.js';

/**
 * One file's content, read as lines.
 */
export interface FileSource {
  /** The ledger's key for the file (the path a plan names it by). */
  readonly path: string;
  readonly content: string;
  readonly fingerprint: string;
  /** The number of its last line (POSIX: `'a\nb\n'` and `'a\nb'` have 2, `''` has 0). */
  readonly lineCount: number;
  /** The text of line `n` (1 to `lineCount`), without its `'\n'` (a `'\r'` stays); `''` for any other `n`. */
  line(n: number): string;
  /** The chars of lines `start..end` (within the file), each with its `'\n'` when it has one. */
  chars(start: number, end: number): number;
  /**
   * The symbols declared in `spans` (sorted, within the file), in line
   * order: `extractSymbols` run over those lines only, so a pointer to 40
   * lines of a 5,000-line file scans 40 lines.
   */
  symbols(spans: readonly LineRange[]): SymbolNode[];
}

/** Spans whose symbols are kept per file: the same spans come back call after call. */
const SCANS_KEPT = 256;

/**
 * The {@link FileSource} of `content`, named `path`, with the `fingerprint`
 * the host computed (`fingerprint(content)` from `span-ledger`). Throws a
 * TypeError naming the argument that is not a string.
 *
 * @example
 * ```ts
 * const file = fileSource('src/a.ts', 'export function a() {\n  return 1;\n}\n', '36:0123456789abcdef');
 * file.lineCount; // 3
 * file.line(2); // '  return 1;'
 * file.chars(1, 2); // 34
 * file.symbols([{ start: 1, end: 3 }]); // [{ name: 'a', kind: 'function', start: 1, end: 3 }]
 * ```
 */
export function fileSource(path: string, content: string, fingerprint: string): FileSource {
  for (const [name, value] of Object.entries({ path, content, fingerprint })) {
    if (typeof value !== 'string') throw new TypeError(`fileSource(${name}): not a string`);
  }
  const index = indexLines(content);
  const scanned = new Map<string, readonly SymbolNode[]>();
  const declaredIn = (span: LineRange): readonly SymbolNode[] => {
    const key = `${span.start}-${span.end}`;
    let nodes = scanned.get(key);
    if (nodes === undefined) {
      const lines: string[] = [];
      const end = Math.min(span.end, index.lineCount);
      for (let n = span.start; n <= end; n++) lines.push(lineText(index, n));
      nodes = extractSymbols(lines.join('\n'), path).map((node) => ({
        ...node,
        start: node.start + span.start - 1,
        end: node.end + span.start - 1,
      }));
      if (scanned.size < SCANS_KEPT) scanned.set(key, nodes);
    }
    return nodes;
  };
  return {
    path,
    content,
    fingerprint,
    lineCount: index.lineCount,
    // Every line holds a char (its '\n', or the last line's text): only a
    // line of the file starts below its end (the index's spare slots are 0).
    line: (n) => (index.offsets[n - 1]! < index.offsets[n]! ? lineText(index, n) : ''),
    chars: (start, end) => charsOfLines(index, start, end),
    symbols: (spans) => spans.flatMap(declaredIn),
  };
}
