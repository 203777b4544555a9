/**
 * The section grammar: file sections in a tool's text result — a heading
 * that names a path, then a block of numbered source lines (`<line>\t<text>`)
 * in a fence, or (where the heading allows it) a bare run of numbered lines —
 * found, proved against the files they name, and written again from a call
 * plan: the response header first, each block as it stood or as the pointer
 * and the lines not sent before, the cut line where the budget cut, and the
 * refresh offer once, after the result's last byte. Every byte outside the
 * blocks it rewrites stays as it was.
 *
 * Finding decides nothing: a fence with any line that is neither numbered,
 * nor blank, nor a gap marker (`... (gap) ...`, `… lines 40-60 elided`) is
 * not a section, and neither is one whose numbers do not climb; such text
 * passes through as it is. `measureDuplicates` reads responses with the same
 * fences, numbered lines and headings.
 */
import { readOr } from '../boundary/read.js';
import type { PlanCallFile } from '../dedup/plan-call.js';
import type { FilePlan } from '../dedup/plan-file.js';
import { refreshOffer, writePointer } from '../dedup/pointer.js';
import { choosePointer } from '../dedup/policy.js';
import { symbolNames } from '../dedup/symbols.js';
import { rangesCover } from '../ranges/cover.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import type { FileSource } from './file-source.js';
import type { EmissionRecorder } from './recorder.js';
import { formatCut, renderRead } from './render.js';

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
export interface SectionBlock {
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
 * A heading and the block it claims, in one text of a result.
 */
export interface Section {
  /** Which text of the result it is in. */
  readonly text: number;
  /** The path as the heading spells it. */
  readonly path: string;
  /** Offsets of the heading line (start, and just past its last char). */
  readonly heading: { readonly start: number; readonly end: number };
  readonly block: SectionBlock;
}

/**
 * A section with the file it was proved against (`null`: not proven).
 */
export interface ProvenSection extends Section {
  readonly file: FileSource | null;
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

/** An opening fence: three or more backticks, an info string without one. */
export const FENCE_OPEN = /^(`{3,})[^`]*$/;
/** A numbered line: the number (right-aligned or not), a tab, the text. */
export const NUMBERED = /^ *(\d+)\t/;
/** `` **`src/a.ts`** ``, alone or followed by a space and more (`— Cart(class)`). */
const EXPLORE = /^\*\*`([^`]+)`\*\*(?: .*)?$/;
/** Lines a fence of numbered source may hold between its runs: blank lines and gap markers. */
const MARKER = /^(?:\.\.\.|…)/;

/** Whether `line` closes a fence opened by `fence` (its backticks): backticks alone, at least as many. */
export function closesFence(line: string, fence: string): boolean {
  if (line.charCodeAt(0) !== 96) return false;
  const closing = line.trimEnd();
  return closing.length >= fence.length && /^`+$/.test(closing);
}

/** `line` read as a numbered line (a number from 1 up to the safe integers), else `null`. */
export function numberedLine(line: string): NumberedLine | null {
  const m = NUMBERED.exec(line);
  if (m === null) return null;
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n) || n < 1) return null;
  return { n, text: line.slice(m[0].length), raw: line };
}

/**
 * The explore heading, as `renderMarkdown` writes it and Codegraph's explore
 * answers carry it: `` **`path`** ``, alone or followed by a space and more.
 *
 * @example
 * ```ts
 * exploreHeading('**`src/cart.ts`** — Cart(class)'); // { path: 'src/cart.ts', bare: false }
 * exploreHeading('see **`src/cart.ts`**'); // null
 * ```
 */
export function exploreHeading(line: string): Heading | null {
  const m = typeof line === 'string' ? EXPLORE.exec(line) : null;
  return m === null ? null : { path: m[1]!, bare: false };
}

/** The numbered lines of a fence's inside, or `null` when it is not numbered source. */
function fenceLines(inner: readonly string[]): NumberedLine[] | null {
  const lines: NumberedLine[] = [];
  for (const line of inner) {
    const got = numberedLine(line);
    if (got !== null) {
      if (lines.length > 0 && got.n <= lines[lines.length - 1]!.n) return null;
      lines.push(got);
    } else if (line.trim() !== '' && !MARKER.test(line)) {
      return null;
    }
  }
  return lines.length > 0 ? lines : null;
}

/** A heading rule read once: a host's function, whose answer is read as a heading only when it names a path. */
function readHeadingRule(raw: unknown): HeadingRule {
  if (typeof raw !== 'function') return exploreHeading;
  return (line) => {
    const got = (raw as HeadingRule)(line);
    const path = got?.path;
    return typeof path === 'string' && path !== '' ? { path, bare: got!.bare === true } : null;
  };
}

/** A bare run of climbing numbered lines from line `i`: its lines and the index past it. */
function bareRun(lines: readonly string[], i: number): { run: NumberedLine[]; next: number } {
  const run = [numberedLine(lines[i]!)!];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const next = numberedLine(lines[j]!);
    if (next === null || next.n !== run[run.length - 1]!.n + 1) break;
    run.push(next);
  }
  return { run, next: j };
}

/** The sections of one text (see {@link findSections}). */
function sectionsOf(text: string, index: number, heading: HeadingRule): Section[] {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  const sections: Section[] = [];
  let current: (Heading & { at: number }) | null = null;
  const claim = (block: SectionBlock) => {
    const start = offsets[current!.at]!;
    const head = { start, end: start + lines[current!.at]!.length };
    sections.push({ text: index, path: current!.path, heading: head, block });
    current = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE_OPEN.exec(line);
    if (fence !== null) {
      let close = i + 1;
      while (close < lines.length && !closesFence(lines[close]!, fence[1]!)) close++;
      if (close >= lines.length) break;
      const got = current === null ? null : fenceLines(lines.slice(i + 1, close));
      const end = offsets[close]! + lines[close]!.length;
      if (got !== null)
        claim({ start: offsets[i]!, end, opener: line, closer: lines[close]!, lines: got });
      current = null;
      i = close;
      continue;
    }
    const named = heading(line);
    if (named !== null) {
      current = { ...named, at: i };
    } else if (current?.bare === true && numberedLine(line) !== null) {
      const { run, next } = bareRun(lines, i);
      const end = offsets[next - 1]! + lines[next - 1]!.length;
      claim({ start: offsets[i]!, end, opener: null, closer: null, lines: run });
      i = next - 1;
    }
  }
  return sections;
}

/**
 * The sections of each text, in order: a heading (`heading` reads a line as
 * one; default {@link exploreHeading}) claims the next block after it — one
 * block; another heading first takes its place — and a block with no heading
 * before it is not a section. A fence closes on a line of at least as many
 * backticks alone. Never throws: what is not a list of strings holds no
 * sections, and a heading rule that throws finds none.
 *
 * @example
 * ```ts
 * const [section] = findSections(['**`a.ts`**\n\n```ts\n1\tx\n2\ty\n```\n']);
 * section?.path; // 'a.ts'
 * section?.block.lines.map((line) => line.n); // [1, 2]
 * ```
 */
export function findSections(texts: readonly string[], heading?: HeadingRule): Section[] {
  const rule = readHeadingRule(heading);
  return readOr(() => {
    if (!Array.isArray(texts)) return [];
    return texts.flatMap((text, i) => (typeof text === 'string' ? sectionsOf(text, i, rule) : []));
  }, []);
}

/**
 * Whether every numbered line of the section is the file's line of that
 * number. An empty line numbered just past the last one, in a file that ends
 * with a newline, is the empty piece a split on `'\n'` leaves after it (some
 * upstreams number it): it is proved, and never sent or planned.
 */
function proves(section: Section, file: FileSource): boolean {
  const { content, lineCount } = file;
  const piece = content === '' || content.endsWith('\n');
  return section.block.lines.every((line) =>
    line.n <= lineCount
      ? file.line(line.n) === line.text
      : piece && line.n === lineCount + 1 && line.text === '',
  );
}

/**
 * Each section with the file read for it (`files[i]` for `sections[i]`,
 * `null` when it could not be read), kept only when every numbered line of
 * the section is that file's line of that number; otherwise `file: null`
 * and the section passes through as it is. Never throws.
 *
 * @example
 * ```ts
 * const sections = findSections(['**`a.ts`**\n```ts\n1\tx\n```']);
 * const a = fileSource('a.ts', 'x\n', '2:0123456789abcdef');
 * proveSections(sections, [a])[0]?.file === a; // true
 * proveSections(sections, [fileSource('a.ts', 'y\n', '2:fedcba9876543210')])[0]?.file; // null
 * ```
 */
export function proveSections(
  sections: readonly Section[],
  files: readonly (FileSource | null)[],
): ProvenSection[] {
  return readOr(() => {
    if (!Array.isArray(sections) || !Array.isArray(files)) return [];
    return sections.map((section, i) => {
      const file = files[i] ?? null;
      return { ...section, file: file !== null && proves(section, file) ? file : null };
    });
  }, []);
}

/**
 * The files to plan (`planCall`'s `files`), one per proved file in order of
 * first appearance, each with the union of its sections' lines as the
 * intended spans. Never throws.
 *
 * @example
 * ```ts
 * const a = fileSource('a.ts', 'x\ny\nz\n', '6:0123456789abcdef');
 * const sections = findSections(['**`a.ts`**\n```\n1\tx\n```\n**`a.ts`**\n```\n2\ty\n```']);
 * filesToPlan(proveSections(sections, [a, a]));
 * // → [{ path: 'a.ts', content: 'x\ny\nz\n', fingerprint: '6:0123456789abcdef', intended: [{ start: 1, end: 2 }] }]
 * ```
 */
export function filesToPlan(proven: readonly ProvenSection[]): PlanCallFile[] {
  return readOr(() => {
    if (!Array.isArray(proven)) return [];
    const files = new Map<string, { file: FileSource; lines: LineRange[] }>();
    for (const { block, file } of proven) {
      if (file === null) continue;
      let entry = files.get(file.path);
      if (entry === undefined) {
        entry = { file, lines: [] };
        files.set(file.path, entry);
      }
      for (const span of spansOf(block.lines)) entry.lines.push(span);
    }
    return [...files.values()].map(({ file, lines }) => ({
      path: file.path,
      content: file.content,
      fingerprint: file.fingerprint,
      intended: mergeRanges(lines),
    }));
  }, []);
}

/**
 * The pointer the plan chose for `covered` lines of a section, in the one
 * pointer policy's form; it cites the plan's `coveredBy` with the call's
 * generation and makes no refresh offer (the response makes it once, after
 * its pointers).
 */
function pointerFor(
  plan: FilePlan,
  path: string,
  covered: readonly LineRange[],
  symbols: readonly string[],
  partial: boolean,
  chars: number,
  generation: string | null,
): string {
  const choice = {
    path,
    covered,
    chars,
    whole: true,
    symbols,
    partial,
    calls: plan.coveredBy,
    generation,
    refresh: false,
    thresholds: plan.thresholds,
    planned: true,
  };
  return choosePointer(choice, writePointer) ?? '';
}

/** What writing a block needs beyond the section. */
interface Writing {
  readonly plan: FilePlan;
  readonly file: FileSource;
  /** Lines of this file already shown earlier in this response. */
  readonly shown: Set<number>;
  readonly recorder: EmissionRecorder;
  /** The numbering tag the cited responses carry (the call's own), or `null`. */
  readonly generation: string | null;
  /** Told of each pointer written, with the responses it cites. */
  readonly countPointer: (calls: readonly number[]) => void;
}

/** The spans numbered lines (climbing) stand for: one per run of consecutive numbers. */
function spansOf(lines: readonly NumberedLine[]): LineRange[] {
  const spans: LineRange[] = [];
  for (const { n } of lines) {
    const last = spans[spans.length - 1];
    if (last !== undefined && n === last.end + 1)
      spans[spans.length - 1] = { start: last.start, end: n };
    else spans.push({ start: n, end: n });
  }
  return spans;
}

/** The chars of a set of spans of `file`. */
function charsOf(file: FileSource, spans: readonly LineRange[]): number {
  let chars = 0;
  for (const span of spans) chars += file.chars(span.start, span.end);
  return chars;
}

/** The pointer for a block's covered lines, quoted, reported and counted. */
function quotedPointer(section: Section, w: Writing, covered: LineRange[], partial: boolean) {
  const { plan, file } = w;
  const chars = charsOf(file, covered);
  const symbols = symbolNames(file.symbols(covered), covered);
  const pointer = pointerFor(plan, section.path, covered, symbols, partial, chars, w.generation);
  w.recorder.pointer(file.path, covered, file.fingerprint);
  w.countPointer(plan.coveredBy);
  return pointer
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * The block written from the plan; `null` to keep it as the upstream wrote
 * it; `''` when every line of it was shown earlier in this response (the
 * section goes, heading and all).
 */
function writeBlock(section: Section, w: Writing): string | null {
  const { plan, file, shown } = w;
  const inFile = section.block.lines.filter((line) => line.n <= file.lineCount);
  const own = inFile.filter((line) => !shown.has(line.n));
  const emit = own.filter((line) => rangesCover(plan.emit, line.n));
  const covered =
    plan.render === 'full' ? [] : own.filter((line) => rangesCover(plan.covered, line.n));
  const runs = spansOf(emit);
  for (const run of runs)
    w.recorder.source(file.path, run, file.chars(run.start, run.end), file.fingerprint);
  for (const line of own) shown.add(line.n);
  if (covered.length === 0 && emit.length === own.length && own.length === inFile.length)
    return null;
  if (own.length === 0) return '';

  const parts: string[] = [];
  if (covered.length > 0) parts.push(quotedPointer(section, w, spansOf(covered), emit.length > 0));
  const { opener, closer } = section.block;
  let at = 0;
  for (const run of runs) {
    // `emit` climbs, and each run is the next of its lines.
    const count = run.end - run.start + 1;
    const raws = emit.slice(at, (at += count)).map((line) => line.raw);
    parts.push(opener === null ? raws.join('\n') : `${opener}\n${raws.join('\n')}\n${closer}`);
  }
  const missing = own.find(
    (line) => !rangesCover(plan.emit, line.n) && !rangesCover(plan.covered, line.n),
  );
  if (missing !== undefined && plan.foldedChars === 0)
    parts.push(`> ${formatCut(section.path, missing.n)}`);
  return parts.join('\n');
}

/** An edit of one text: `[start, end)` becomes `text`. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The edit a written block makes: the block replaced; or, when nothing is
 * left of it, the section removed from its heading on, with the blank lines
 * after it, when only blank lines stand between heading and block (what
 * does stand there, a signature, keeps its heading).
 */
function editOf(text: string, section: Section, written: string): Edit {
  const { block, heading } = section;
  if (written !== '' || text.slice(heading.end, block.start).trim() !== '')
    return { start: block.start, end: block.end, text: written };
  let end = block.end;
  while (text[end] === '\n') end++;
  return { start: heading.start, end, text: '' };
}

/** `text` with its edits (in order, not overlapping) made. */
function applied(text: string, edits: readonly Edit[]): string {
  let rebuilt = '';
  let at = 0;
  for (const edit of edits) {
    rebuilt += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return rebuilt + text.slice(at);
}

/**
 * Writes every text again from the call's plan: proved sections rewritten —
 * as they stood, or as the pointer (in a `>` quote) followed by the lines
 * not sent before in the section's own fence, then the cut line where the
 * budget cut — the rest as it was. A file's lines appear once in a response:
 * a section whose lines were all shown above goes, heading and all. The
 * response header (when not `''`) is the first line of the first text, and
 * when a pointer was written the refresh offer follows once, after the last
 * text's last byte. Every span sent and every pointer is reported to
 * `recorder` as it is written. Returns the new texts and how many pointers
 * they carry. Never throws: input it cannot read leaves the texts as they
 * were.
 *
 * @example
 * ```ts
 * import { createSessionStore, fingerprint, planCall } from 'span-ledger';
 *
 * const lines = Array.from({ length: 10 }, (_, i) => `// step ${i + 1}`);
 * const content = `${lines.join('\n')}\n`;
 * const file = fileSource('a.ts', content, fingerprint(content));
 * const text = `**\`a.ts\`**\n\`\`\`ts\n${lines.map((line, i) => `${i + 1}\t${line}`).join('\n')}\n\`\`\`\n`;
 * const store = createSessionStore();
 * const answer = () => {
 *   const proven = proveSections(findSections([text]), [file]);
 *   const prior = store.project('/repo');
 *   const plan = planCall({ files: filesToPlan(proven), prior, holdBack: false });
 *   const recorder = createEmissionRecorder({ projectRoot: '/repo' });
 *   recorder.numbered(plan.callIndex, plan.generation);
 *   const header = formatResponseHeader({ callIndex: plan.callIndex });
 *   const { texts } = rewriteSections([text], proven, plan, { header, recorder });
 *   store.record(recorder.finish(texts[0]?.length ?? 0));
 *   return texts[0] ?? '';
 * };
 * answer() === `Response #1\n${text}`; // true
 * answer().split('\n').slice(0, 3);
 * // → ['Response #2', '**`a.ts`**', '> Sent in response #1 of this conversation: `a.ts` L1-10. The file is unchanged since.']
 * ```
 */
export function rewriteSections(
  texts: readonly string[],
  proven: readonly ProvenSection[],
  plan: { readonly files: readonly FilePlan[]; readonly generation: string | null },
  out: { readonly header: string; readonly recorder: EmissionRecorder },
): { texts: string[]; pointers: number } {
  const fallback = {
    texts: readOr(() => (Array.isArray(texts) ? [...texts] : []), []),
    pointers: 0,
  };
  return readOr(() => rewrite(texts, proven, plan, out), fallback);
}

function rewrite(
  texts: readonly string[],
  proven: readonly ProvenSection[],
  plan: { readonly files: readonly FilePlan[]; readonly generation: string | null },
  out: { readonly header: string; readonly recorder: EmissionRecorder },
): { texts: string[]; pointers: number } {
  const plans = new Map(plan.files.map((file) => [file.path, file]));
  const shown = new Map<string, Set<number>>();
  const cited = new Set<number>();
  let pointers = 0;
  const countPointer = (calls: readonly number[]) => {
    pointers++;
    for (const n of calls) cited.add(n);
  };
  const edits = texts.map(() => [] as Edit[]);
  for (const section of proven) {
    const { file } = section;
    const filePlan = file === null ? undefined : plans.get(file.path);
    if (file === null || filePlan === undefined) continue;
    let lines = shown.get(file.path);
    if (lines === undefined) {
      lines = new Set();
      shown.set(file.path, lines);
    }
    const w = { plan: filePlan, file, shown: lines, recorder: out.recorder, countPointer };
    const written = writeBlock(section, { ...w, generation: plan.generation });
    if (written !== null) edits[section.text]!.push(editOf(texts[section.text]!, section, written));
  }
  const result = texts.map((text, i) => applied(text, edits[i]!));
  const offer = pointers > 0 ? cited : null;
  return { texts: framed(result, out.header, offer, plan.generation), pointers };
}

/**
 * `texts` framed as a response: the header (when not `''`) as the first line
 * of the first, and the refresh offer for the `cited` responses (`null`:
 * none) once, after the last one's last byte, which stays as it was.
 */
function framed(
  texts: string[],
  header: string,
  cited: ReadonlySet<number> | null,
  generation: string | null,
): string[] {
  const result = [...texts];
  if (header !== '' && result.length > 0) result[0] = `${header}\n${result[0]}`;
  const last = result.length - 1;
  if (cited !== null && last >= 0) {
    const offer = refreshOffer(
      [...cited].sort((a, b) => b - a),
      generation,
    );
    const text = result[last]!;
    result[last] = text.endsWith('\n') ? `${text}\n${offer}\n` : `${text}\n\n${offer}`;
  }
  return result;
}

/**
 * One part of a read tool's answer: a file it read, or text it keeps.
 */
export interface ReadPart {
  /** The part as the upstream wrote it: kept when it is not proved, or its file was printed before. */
  readonly text: string;
  /** The file the part was proved against, or `null`. */
  readonly file: FileSource | null;
  /** The path as the client spelled it: the `path:` line of a several-file read, and the cut line's. */
  readonly path: string;
  /** The first line the read asked for: the cut line names it when nothing of the read is printed. */
  readonly first: number;
}

/** A proved read printed from its plan (`renderRead`, with the file's own symbols), and whether it points. */
function printRead(plan: FilePlan, file: FileSource, refresh: boolean, w: ReadWriting) {
  const { text } = renderRead({
    plan,
    content: file.content,
    symbols: plan.render === 'full' ? undefined : file.symbols(plan.covered),
    recorder: w.recorder,
    callIndex: null,
    generation: w.generation,
    refresh,
  });
  return { text, pointer: plan.render !== 'full' && plan.covered.length > 0 };
}

/** What printing the parts of a read needs beyond the parts. */
interface ReadWriting {
  readonly recorder: EmissionRecorder;
  readonly generation: string | null;
}

/**
 * Writes a read tool's answer again from the call's plan, the way agent
 * harnesses print files: each proved part as `renderRead` prints it (the
 * pointer above the lines not sent before, `cat -n` numbering, the cut
 * line), or the cut line alone when nothing of it is left; other parts as
 * they were. A one-file read (`several: false`, one part) is its printed
 * part, its pointer ending with the refresh offer; a several-file read puts
 * `path:` before each part, joins them with `---` lines, prints a file once
 * and makes the refresh offer once, after its last byte. The header (when
 * not `''`) opens the answer. Every span sent is reported to `recorder`.
 * Never throws: input it cannot read leaves the parts as they were.
 *
 * @example
 * ```ts
 * import { createSessionStore, fingerprint, planCall } from 'span-ledger';
 *
 * const content = 'export function add(a, b) {\n  return a + b;\n}\n'.repeat(4); // 12 lines
 * const file = fileSource('add.js', content, fingerprint(content));
 * const store = createSessionStore();
 * const read = () => {
 *   const intended = [{ start: 1, end: 12 }];
 *   const prior = store.project('/repo');
 *   const plan = planCall({ files: [{ ...file, intended }], prior, holdBack: false });
 *   const recorder = createEmissionRecorder({ projectRoot: '/repo' });
 *   recorder.numbered(plan.callIndex, plan.generation);
 *   const header = formatResponseHeader({ callIndex: plan.callIndex });
 *   const parts = [{ text: content, file, path: 'add.js', first: 1 }];
 *   const { text } = rewriteReads(parts, plan, { header, recorder, several: false });
 *   store.record(recorder.finish(text.length));
 *   return text;
 * };
 * read().split('\n').slice(0, 2); // ['Response #1', '     1\texport function add(a, b) {']
 * read(); // → 'Response #2\n'
 * //   + 'Sent in response #1 of this conversation: `add.js` L1-12 (add). The file is unchanged since.'
 * //   + ' If response #1 is no longer in your context, call this tool again with `refresh: [1]`.\n'
 * ```
 */
export function rewriteReads(
  parts: readonly ReadPart[],
  plan: { readonly files: readonly FilePlan[]; readonly generation: string | null },
  out: { readonly header: string; readonly recorder: EmissionRecorder; readonly several: boolean },
): { text: string; pointers: number } {
  const kept = () => parts.map((part) => part.text).join(out.several ? '\n---\n' : '');
  const fallback = { text: readOr(kept, ''), pointers: 0 };
  return readOr(() => rewriteParts(parts, plan, out), fallback);
}

function rewriteParts(
  parts: readonly ReadPart[],
  plan: { readonly files: readonly FilePlan[]; readonly generation: string | null },
  out: { readonly header: string; readonly recorder: EmissionRecorder; readonly several: boolean },
): { text: string; pointers: number } {
  const w = { recorder: out.recorder, generation: plan.generation };
  const cited = new Set<number>();
  const printed = new Set<string>();
  let pointers = 0;
  const written = parts.map((part) => {
    const { file } = part;
    const filePlan = file === null ? undefined : plan.files.find((f) => f.path === file.path);
    if (file === null || filePlan === undefined || printed.has(file.path)) return part.text;
    printed.add(file.path);
    const read = printRead(filePlan, file, !out.several, w);
    if (read.pointer) {
      pointers++;
      for (const n of filePlan.coveredBy) cited.add(n);
    }
    const body = read.text === '' ? `${formatCut(part.path, part.first)}\n` : read.text;
    return out.several ? `${part.path}:\n${body}` : body;
  });
  const text = written.join(out.several ? '\n---\n' : '');
  const offer = out.several && pointers > 0 ? cited : null;
  return { text: framed([text], out.header, offer, plan.generation)[0]!, pointers };
}
