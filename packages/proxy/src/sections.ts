/**
 * Finding file sections in a tool's text result: a heading that names a path,
 * then a block of numbered source lines (`<line>\t<text>`) — a fenced block,
 * or (where a profile allows it) a bare run of numbered lines. What a profile
 * counts as a heading is its own (see `codegraph.ts`, `generic.ts`).
 *
 * It reads; it decides nothing. A fence with any line that is neither
 * numbered, nor blank, nor a gap marker (`... (gap) ...`, `… lines 40-60 …
 * elided`) is not a section, and neither is one whose numbers do not climb:
 * such text passes through as it is. Offsets let the caller put the response
 * back together around the blocks it rewrites, leaving every other byte.
 */

/**
 * One numbered line of a block.
 */
export interface NumberedLine {
  /** The line number. */
  readonly n: number;
  /** The source text after the tab. */
  readonly text: string;
  /** The whole line as the upstream wrote it. */
  readonly raw: string;
}

/**
 * A block of numbered lines in a text.
 */
export interface Block {
  /** Offset of the block's first char (its opening fence, or its first numbered line). */
  readonly start: number;
  /** Offset just past its last char (the closing fence, or the last numbered line), before the newline. */
  readonly end: number;
  /** The opening fence line (`` ```ts ``); `null` for a bare run of numbered lines. */
  readonly opener: string | null;
  /** The closing fence line; `null` for a bare run. */
  readonly closer: string | null;
  /** The numbered lines, in order (their numbers climb). */
  readonly lines: readonly NumberedLine[];
}

/**
 * A path and its block.
 */
export interface Section {
  /** The path as the heading spells it. */
  readonly path: string;
  readonly block: Block;
}

/**
 * What a heading line says: the path of the block that follows, and whether
 * that block may be a bare run of numbered lines (no fence).
 */
export interface Heading {
  readonly path: string;
  readonly bare: boolean;
}

/**
 * Reads a line as a heading, or `null`.
 */
export type HeadingRule = (line: string) => Heading | null;

const FENCE = /^(`{3,})[^`]*$/;
const NUMBERED = /^ *(\d+)\t/;
/** Lines a fence of numbered source may hold between its runs: blank lines and gap markers. */
const MARKER = /^(?:\.\.\.|…)/;

function numbered(line: string): NumberedLine | null {
  const m = NUMBERED.exec(line);
  if (m === null) return null;
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n) || n < 1) return null;
  return { n, text: line.slice(m[0].length), raw: line };
}

/** The numbered lines of a fence's inside, or `null` when it is not numbered source. */
function fenceLines(inner: readonly string[]): NumberedLine[] | null {
  const lines: NumberedLine[] = [];
  for (const line of inner) {
    const got = numbered(line);
    if (got !== null) {
      if (lines.length > 0 && got.n <= lines[lines.length - 1]!.n) return null;
      lines.push(got);
    } else if (line.trim() !== '' && !MARKER.test(line)) {
      return null;
    }
  }
  return lines.length > 0 ? lines : null;
}

/**
 * The sections of `text`, in order. A heading claims the next block after it
 * (one block; another heading first takes its place); a block with no heading
 * before it is not a section.
 *
 * @example
 * ```ts
 * findSections('**`a.ts`**\n\n```ts\n1\tx\n2\ty\n```\n', exploreHeading);
 * // [{ path: 'a.ts', block: { start: 12, end: 32, opener: '```ts', closer: '```', lines: [ …2 ] } }]
 * ```
 */
export function findSections(text: string, heading: HeadingRule): Section[] {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  const sections: Section[] = [];
  let current: Heading | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      let close = i + 1;
      while (close < lines.length && lines[close]!.trimEnd() !== fence[1]) close++;
      if (close >= lines.length) break;
      const got = current === null ? null : fenceLines(lines.slice(i + 1, close));
      if (current !== null && got !== null) {
        sections.push({
          path: current.path,
          block: {
            start: offsets[i]!,
            end: offsets[close]! + lines[close]!.length,
            opener: line,
            closer: lines[close]!,
            lines: got,
          },
        });
      }
      current = null;
      i = close;
      continue;
    }
    const named = heading(line);
    if (named !== null) {
      current = named;
      continue;
    }
    if (current?.bare === true) {
      const first = numbered(line);
      if (first === null) continue;
      const run = [first];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const next = numbered(lines[j]!);
        if (next === null || next.n !== run[run.length - 1]!.n + 1) break;
        run.push(next);
      }
      sections.push({
        path: current.path,
        block: {
          start: offsets[i]!,
          end: offsets[j - 1]! + lines[j - 1]!.length,
          opener: null,
          closer: null,
          lines: run,
        },
      });
      current = null;
      i = j - 1;
    }
  }
  return sections;
}
