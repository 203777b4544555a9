/**
 * Reading rendered responses back: the file sections (`` **`path`** ``
 * headers), the numbered source lines in their fences (`<line>\t<text>`), and
 * whether a section carries a pointer (a `>` block quote) instead of or before
 * its source; and read-tool responses as `renderRead` prints them (`cat -n`
 * lines, the pointer above them, a `path:` line before each file of a
 * several-file read).
 *
 * It is for measuring what an agent actually received (the `measure` command,
 * the replay, tests that check a recorder against the text); it is not a
 * general markdown parser. Text outside sections, fences without numbered
 * lines and lines that are not numbered are ignored, never guessed at.
 * Headings, fences and numbered lines are read by the section grammar's
 * rules (`sections.ts`), the ones a proxy rewrites responses by; it only
 * reads more leniently (every numbered line of a fence counts, whatever else
 * the fence holds), since it measures what was received.
 */

import { frozenEach } from '../boundary/freeze.js';
import { isNonNegativeInteger, readOr, stringOf } from '../boundary/read.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { readResponses } from './read-options.js';
import { closesFence, exploreHeading, FENCE_OPEN, NUMBERED, numberedLine } from './sections.js';

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

/** The `path:` line before each file of a several-file read. */
const READ_PATH = /^([^\s`*>#:][^\s`]*):$/;
/** A read's pointer: a path in backticks followed by the spans it names. */
const READ_POINTER = /`([^`]+)` L\d/;
const SPAN = /\bL(\d+)(?:-(\d+))?\b/g;

interface Building {
  path: string;
  lines: RenderedLine[];
  pointer: boolean;
  pointed: LineRange[];
  /** A read's section (`cat -n` lines, no header). */
  read: boolean;
}

/** The spans a pointer line names, into `section`. */
function point(section: Building, line: string): void {
  section.pointer = true;
  for (const m of line.matchAll(SPAN)) {
    const start = Number(m[1]);
    section.pointed.push({ start, end: m[2] === undefined ? start : Number(m[2]) });
  }
}

/**
 * Parses a response rendered with file headers and numbered fences, or a
 * read tool's response (`cat -n` lines; its file named by its pointer, or by
 * a `path:` line before it, else `readPath`, else `''`). Never throws; a
 * non-string gives no sections.
 *
 * @example
 * ```ts
 * parseRenderedResponse('**`src/a.ts`**\n```ts\n3\tconst a = 1;\n4\t\n```\n');
 * // → { sections: [{ path: 'src/a.ts', pointer: false, pointed: [],
 * //      lines: [{ line: 3, text: 'const a = 1;' }, { line: 4, text: '' }] }] }
 * parseRenderedResponse('Response #2\n`a.ts` L1-5: unchanged, sent in #1.\n     6\tx\n');
 * // → { sections: [{ path: 'a.ts', pointer: true, pointed: [{ start: 1, end: 5 }],
 * //      lines: [{ line: 6, text: 'x' }] }] }
 * ```
 */
export function parseRenderedResponse(text: string, readPath = ''): RenderedResponse {
  const sections: Building[] = [];
  if (typeof text !== 'string') return Object.freeze({ sections: Object.freeze([]) });
  let current: Building | null = null;
  let fence = '';
  let path = stringOf(readPath);
  const open = (p: string, read: boolean): Building => {
    const section = { path: p, lines: [], pointer: false, pointed: [], read };
    sections.push(section);
    return section;
  };
  for (const raw of text.split('\n')) {
    if (fence !== '') {
      // A '\r' stays part of its line (a CRLF file's lines end in one): never trimmed here.
      const numbered = numberedLine(raw);
      if (numbered !== null) current?.lines.push({ line: numbered.n, text: numbered.text });
      else if (closesFence(raw, fence)) fence = '';
      continue;
    }
    if (NUMBERED.test(raw) && (current === null || current.read)) {
      current ??= open(path, true);
      const numbered = numberedLine(raw);
      if (numbered !== null) current.lines.push({ line: numbered.n, text: numbered.text });
      continue;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = exploreHeading(line);
    if (header !== null) {
      current = open(header.path, false);
      continue;
    }
    const fenced = FENCE_OPEN.exec(line);
    if (fenced) {
      fence = fenced[1]!;
      continue;
    }
    if (current !== null && !current.read) {
      if (line.startsWith('>')) point(current, line);
      continue;
    }
    const named = READ_PATH.exec(line);
    if (named !== null || line === '---') {
      path = named?.[1] ?? '';
      current = null;
      continue;
    }
    const pointer = READ_POINTER.exec(line);
    if (pointer !== null) {
      path = pointer[1]!;
      current = open(path, true);
      point(current, line.slice(pointer.index));
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
  /** Tokens of that source, counted line by line with the `countTokens` given (absent without). */
  readonly sourceTokens?: number;
  /** Tokens of the duplicate lines, counted the same way. */
  readonly duplicateTokens?: number;
}

/**
 * A response to measure: its text, and the file a read response is of when
 * the text does not name it (a first read prints no path), as in
 * `{ text: '     1\texport const a = 1;\n', path: 'src/a.ts' }`.
 */
export interface MeasuredResponse {
  readonly text: string;
  readonly path?: string | undefined;
}

/**
 * Measures how much of the source in a sequence of responses (in call order)
 * the agent had already received. A line counts as duplicate when an earlier
 * response, or an earlier section of the same one, delivered the same path and
 * line number with the same text; an edited line is new source. Reads
 * `renderMarkdown` responses and `renderRead` ones alike. With `countTokens`
 * (a model's tokenizer, or `estimateTokens`) tokens are counted too, line by
 * line; without it the report has no token fields. Never throws: entries that
 * are neither strings nor `{ text }` (or cannot be read) are not responses and
 * are skipped, and anything but an array reads as no responses; a
 * `countTokens` that throws or returns anything but a non-negative integer for
 * any line counts nothing: the report then has no token fields either (a
 * count it cannot vouch for is not given as one).
 *
 * @example
 * ```ts
 * import { estimateTokens } from 'span-ledger';
 *
 * const a = '**`a.ts`**\n```ts\n1\tx\n2\ty\n```';
 * measureDuplicates([a, a]);
 * // → { responses: 2, responseChars: 56, sourceChars: 8, uniqueChars: 4, duplicateChars: 4, duplicateShare: 0.5 }
 * measureDuplicates([a, a], estimateTokens).duplicateTokens; // 6
 * ```
 */
export function measureDuplicates(
  texts: readonly (string | MeasuredResponse)[],
  countTokens?: (text: string) => number,
): DuplicateReport {
  const seen = new Map<string, Set<string>>();
  let sourceChars = 0;
  let duplicateChars = 0;
  let responseChars = 0;
  /** Each source line as counted (its text and a newline), and whether it was a duplicate. */
  const counted: { text: string; duplicate: boolean }[] = [];
  const responses = readResponses(texts);
  for (const { text, path } of responses) {
    responseChars += text.length;
    for (const section of parseRenderedResponse(text, path).sections) {
      let held = seen.get(section.path);
      if (!held) {
        held = new Set();
        seen.set(section.path, held);
      }
      for (const { line, text: body } of section.lines) {
        const chars = body.length + 1;
        const key = `${line}\t${body}`;
        const duplicate = held.has(key);
        sourceChars += chars;
        if (duplicate) duplicateChars += chars;
        else held.add(key);
        counted.push({ text: `${body}\n`, duplicate });
      }
    }
  }
  const uniqueChars = sourceChars - duplicateChars;
  const report = {
    responses: responses.length,
    responseChars,
    sourceChars,
    uniqueChars,
    duplicateChars,
    duplicateShare: sourceChars === 0 ? 0 : duplicateChars / sourceChars,
  };
  if (typeof countTokens !== 'function') return Object.freeze(report);
  const tokens = readOr(() => countLines(counted, countTokens), undefined);
  // Spreading no count adds no fields.
  return Object.freeze({ ...report, ...tokens });
}

/** The tokens of the lines and of their duplicates, or `undefined` when `count` gives a non-count. */
function countLines(
  lines: readonly { text: string; duplicate: boolean }[],
  count: (text: string) => number,
): { sourceTokens: number; duplicateTokens: number } | undefined {
  let sourceTokens = 0;
  let duplicateTokens = 0;
  for (const { text, duplicate } of lines) {
    const n = count(text);
    if (!isNonNegativeInteger(n)) return undefined;
    sourceTokens += n;
    if (duplicate) duplicateTokens += n;
  }
  return { sourceTokens, duplicateTokens };
}
