/**
 * Reading rendered responses back: the file sections (`` **`path`** ``
 * headers), the numbered source lines in their fences (`<line>\t<text>`), and
 * whether a section carries a pointer (a `>` block quote) instead of or before
 * its source.
 *
 * It is for measuring what an agent actually received (the `measure` command,
 * the replay, tests that check a recorder against the text); it is not a
 * general markdown parser. Text outside sections, fences without numbered
 * lines and lines that are not numbered are ignored, never guessed at.
 */

import { frozenEach } from '../boundary/freeze.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { readResponseTexts } from './read-options.js';

/**
 * One numbered source line as the response shows it.
 */
export interface RenderedLine {
  readonly line: number;
  readonly text: string;
}

/**
 * One file section of a response.
 */
export interface RenderedSection {
  readonly path: string;
  /** Numbered source lines in the section's fences, in the order shown. */
  readonly lines: readonly RenderedLine[];
  /** Whether the section has a pointer (block quote) to source sent earlier. */
  readonly pointer: boolean;
  /** The `L12-40` spans the pointer names (may be fewer than it covers: `+N more`). */
  readonly pointed: readonly LineRange[];
}

/**
 * A parsed response: its sections in order.
 */
export interface RenderedResponse {
  readonly sections: readonly RenderedSection[];
}

const HEADER = /^\*\*`([^`]+)`\*\*/;
const FENCE_OPEN = /^(`{3,})[^`]*$/;
// The text is the rest of the line, read with slice: a `.` would stop at a lone CR or a U+2028
// inside the source line, and the line would go uncounted.
const NUMBERED = /^(\d+)\t/;
const SPAN = /\bL(\d+)(?:-(\d+))?\b/g;

interface Building {
  path: string;
  lines: RenderedLine[];
  pointer: boolean;
  pointed: LineRange[];
}

/**
 * Parses a response rendered with file headers and numbered fences. Never
 * throws; a non-string gives no sections.
 *
 * @example
 * ```ts
 * parseRenderedResponse('**`src/a.ts`**\n```ts\n3\tconst a = 1;\n4\t\n```\n');
 * // → { sections: [{ path: 'src/a.ts', pointer: false, pointed: [],
 * //      lines: [{ line: 3, text: 'const a = 1;' }, { line: 4, text: '' }] }] }
 * ```
 */
export function parseRenderedResponse(text: string): RenderedResponse {
  const sections: Building[] = [];
  if (typeof text !== 'string') return Object.freeze({ sections: Object.freeze([]) });
  let current: Building | null = null;
  let fence = '';
  for (const raw of text.split('\n')) {
    if (fence !== '') {
      const m = NUMBERED.exec(raw);
      const n = m ? Number(m[1]) : 0;
      if (m && Number.isSafeInteger(n) && n >= 1) {
        // A '\r' stays part of its line (a CRLF file's lines end in one): never trimmed here.
        current?.lines.push({ line: n, text: raw.slice(m[0].length) });
        continue;
      }
      const closing = raw.trimEnd();
      if (closing.length >= fence.length && /^`+$/.test(closing)) fence = '';
      continue;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = HEADER.exec(line);
    if (header) {
      current = { path: header[1]!, lines: [], pointer: false, pointed: [] };
      sections.push(current);
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = open[1]!;
      continue;
    }
    if (current && line.startsWith('>')) {
      current.pointer = true;
      for (const m of line.matchAll(SPAN)) {
        const start = Number(m[1]);
        current.pointed.push({ start, end: m[2] === undefined ? start : Number(m[2]) });
      }
    }
  }
  return Object.freeze({ sections: Object.freeze(sections.map(freezeSection)) });
}

/** A finished section, frozen through (its pointed spans merged). */
function freezeSection(s: Building): RenderedSection {
  return Object.freeze({
    path: s.path,
    lines: frozenEach(s.lines),
    pointer: s.pointer,
    pointed: frozenEach(mergeRanges(s.pointed)),
  });
}

/**
 * The duplicate share of a sequence of responses (the fields of `measure --json`).
 */
export interface DuplicateReport {
  /** Responses read. */
  readonly responses: number;
  /** Characters of all responses, whole (headers, fences, pointers and prose included). */
  readonly responseChars: number;
  /** Source characters over all responses: each numbered line counts its text plus a newline. */
  readonly sourceChars: number;
  /** Chars of lines no earlier response (or earlier part of the same one) delivered. */
  readonly uniqueChars: number;
  /** Chars of lines already delivered: same path, same line number, same text. */
  readonly duplicateChars: number;
  /** `duplicateChars / sourceChars`, 0 when there is no source. */
  readonly duplicateShare: number;
}

/**
 * Measures how much of the source in a sequence of responses (in call order)
 * the agent had already received. A line counts as duplicate when an earlier
 * response, or an earlier section of the same one, delivered the same path and
 * line number with the same text; an edited line is new source. Never throws:
 * entries that are not strings (or cannot be read) are not responses and are
 * skipped, and anything but an array reads as no responses.
 *
 * @example
 * ```ts
 * const a = '**`a.ts`**\n```ts\n1\tx\n2\ty\n```';
 * measureDuplicates([a, a]);
 * // → { responses: 2, responseChars: 56, sourceChars: 8, uniqueChars: 4, duplicateChars: 4, duplicateShare: 0.5 }
 * ```
 */
export function measureDuplicates(texts: readonly string[]): DuplicateReport {
  const seen = new Map<string, Set<string>>();
  let sourceChars = 0;
  let duplicateChars = 0;
  let responseChars = 0;
  const responses = readResponseTexts(texts);
  for (const text of responses) {
    responseChars += text.length;
    for (const section of parseRenderedResponse(text).sections) {
      let held = seen.get(section.path);
      if (!held) {
        held = new Set();
        seen.set(section.path, held);
      }
      for (const { line, text: body } of section.lines) {
        const chars = body.length + 1;
        const key = `${line}\t${body}`;
        sourceChars += chars;
        if (held.has(key)) duplicateChars += chars;
        else held.add(key);
      }
    }
  }
  const uniqueChars = sourceChars - duplicateChars;
  return Object.freeze({
    responses: responses.length,
    responseChars,
    sourceChars,
    uniqueChars,
    duplicateChars,
    duplicateShare: sourceChars === 0 ? 0 : duplicateChars / sourceChars,
  });
}
