/**
 * Terminal formatting for the CLI: counts, shares, aligned tables and
 * abridged responses. Presentation only: nothing here decides or measures.
 */
import type { DuplicateReport } from '../adapter/parse.js';

/**
 * Groups thousands.
 *
 * @example
 * ```ts
 * formatCount(12345); // '12,345'
 * ```
 */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * A share as a percentage with one decimal.
 *
 * @example
 * ```ts
 * formatShare(0.1234); // '12.3%'
 * ```
 */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * An aligned plain-text table: first column left-aligned, the others right-aligned.
 *
 * @example
 * ```ts
 * formatTable(['arm', 'chars'], [['baseline', '12,531']]);
 * // 'arm       chars\n--------  ------\nbaseline  12,531'
 * ```
 */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * The four figures of a duplicate report as table cells.
 *
 * @example
 * ```ts
 * reportCells(report); // ['10,748', '6,317', '4,431', '41.2%']
 * ```
 */
export function reportCells(r: DuplicateReport): string[] {
  return [
    formatCount(r.sourceChars),
    formatCount(r.uniqueChars),
    formatCount(r.duplicateChars),
    formatShare(r.duplicateShare),
  ];
}

/**
 * `measure`'s human-readable output: the chars, and the tokens beside them
 * (estimated: `estimateTokens`, line by line).
 *
 * @example
 * ```ts
 * console.log(formatReport(measureDuplicates(texts)));
 * ```
 */
export function formatReport(r: DuplicateReport): string {
  return formatTable(
    [
      'responses',
      'source chars',
      'unique chars',
      'duplicate chars',
      'duplicate share',
      'source tokens (est.)',
      'duplicate tokens (est.)',
    ],
    [
      [
        String(r.responses),
        ...reportCells(r),
        formatCount(r.sourceTokens ?? 0),
        formatCount(r.duplicateTokens ?? 0),
      ],
    ],
  );
}

/**
 * A response with each fence cut to its first `keep` lines and a count of the
 * rest; headers and pointers are kept whole.
 *
 * @example
 * ```ts
 * abridge('**`a.ts`**\n```ts\n1\ta\n2\tb\n3\tc\n4\td\n```');
 * // '**`a.ts`**\n```ts\n1\ta\n2\tb\n3\tc\n… 1 more line\n```'
 * ```
 */
export function abridge(text: string, keep = 3): string {
  const out: string[] = [];
  let inFence = false;
  let shown = 0;
  let hidden = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) {
      if (inFence && hidden > 0) out.push(`… ${hidden} more line${hidden === 1 ? '' : 's'}`);
      inFence = !inFence;
      shown = 0;
      hidden = 0;
      out.push(line);
    } else if (inFence && shown >= keep) {
      hidden++;
    } else {
      if (inFence) shown++;
      out.push(line);
    }
  }
  return out.join('\n').trimEnd();
}

/**
 * Indents every non-empty line (for nesting a response under a heading).
 *
 * @example
 * ```ts
 * indent('a\n\nb'); // '  a\n\n  b'
 * ```
 */
export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : by + l))
    .join('\n');
}
