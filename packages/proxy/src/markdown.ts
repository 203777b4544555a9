/**
 * Re-rendering a text result made of file sections (Codegraph's explore and
 * node answers, any tool the generic profile reads): each section proved from
 * disk is planned with the others of its response, and its block is written
 * again from the plan — in full as the upstream wrote it, or as the library's
 * pointer followed by the lines not sent before, in the upstream's own fence.
 * Every byte outside the blocks it rewrites (headings, call paths, blast
 * radius, notes) stays as it was.
 */
import {
  type CallPlan,
  type FilePlan,
  type LineRange,
  mergeRanges,
  rangesCover,
} from 'span-ledger';
import type { EmissionRecorder } from 'span-ledger/adapter';
import { type DiskFile, lastLine } from './disk.js';
import { formatCut, pointerFor, refreshOfferFor } from './library.js';
import { findSections, type HeadingRule, type NumberedLine, type Section } from './sections.js';

/**
 * A section with the file it was proved against (`null`: not proven).
 */
export interface FoundSection {
  /** Which text block of the result it is in. */
  readonly text: number;
  readonly section: Section;
  readonly file: DiskFile | null;
}

/** Whether every numbered line of the section is the file's line of that number. */
function matches(section: Section, file: DiskFile): boolean {
  return section.block.lines.every((line) => file.segments[line.n - 1] === line.text);
}

/** Runs of consecutive numbers as ranges (input sorted, distinct). */
function runsOf(numbers: readonly number[]): LineRange[] {
  const runs: LineRange[] = [];
  for (const n of numbers) {
    const last = runs[runs.length - 1];
    if (last !== undefined && n === last.end + 1)
      runs[runs.length - 1] = { start: last.start, end: n };
    else runs.push({ start: n, end: n });
  }
  return runs;
}

/** Source chars of line `n` of `file`: its text and its newline, when it has one. */
function lineChars(file: DiskFile, n: number): number {
  return file.segments[n - 1]!.length + (n < file.segments.length ? 1 : 0);
}

/**
 * Finds the sections of each text block and proves each against the disk.
 * A section whose file cannot be read, or whose lines differ from the file's,
 * has `file: null`.
 *
 * @example
 * ```ts
 * const found = await findProven([text], exploreHeading, diskReader(root));
 * ```
 */
export async function findProven(
  texts: readonly string[],
  heading: HeadingRule,
  read: (path: string) => Promise<DiskFile | null>,
): Promise<FoundSection[]> {
  const found = texts.flatMap((text, index) =>
    findSections(text, heading).map((section) => ({ text: index, section })),
  );
  return Promise.all(
    found.map(async ({ text, section }) => {
      const file = await read(section.path);
      return { text, section, file: file !== null && matches(section, file) ? file : null };
    }),
  );
}

/**
 * The files to plan, one per path in order of first appearance, each with the
 * union of its sections' lines as the intended spans.
 *
 * @example
 * ```ts
 * planCall({ files: filesToPlan(found), prior });
 * ```
 */
export function filesToPlan(found: readonly FoundSection[]) {
  const files = new Map<string, { file: DiskFile; spans: LineRange[] }>();
  for (const { section, file } of found) {
    if (file === null) continue;
    let entry = files.get(file.name);
    if (entry === undefined) {
      entry = { file, spans: [] };
      files.set(file.name, entry);
    }
    // A block's numbers climb, so its runs are ranges as they stand; `mergeRanges` unions the blocks.
    for (const run of runsOf(section.block.lines.map((line) => line.n))) entry.spans.push(run);
  }
  return [...files.values()].map(({ file, spans }) => ({
    path: file.name,
    content: file.content,
    fingerprint: file.fingerprint,
    intended: mergeRanges(spans),
  }));
}

/** What writing a block needs beyond the section. */
interface Writing {
  readonly plan: FilePlan;
  readonly file: DiskFile;
  /** Lines of this file already shown earlier in this response. */
  readonly shown: Set<number>;
  readonly recorder: EmissionRecorder;
  /** The numbering tag the cited responses carry (the call's own), or `null`. */
  readonly generation: string | null;
  /** Told of each pointer written, with the responses it cites. */
  readonly countPointer: (calls: readonly number[]) => void;
}

/** The block rewritten from the plan, or `null` to keep it as the upstream wrote it. */
function writeBlock(section: Section, w: Writing): string | null {
  const { plan, file, shown, recorder } = w;
  const last = lastLine(file);
  const own = section.block.lines.filter((line) => line.n <= last && !shown.has(line.n));
  const emit = own.filter((line) => rangesCover(plan.emit, line.n));
  const covered =
    plan.render === 'full' ? [] : own.filter((line) => rangesCover(plan.covered, line.n));
  const whole = own.length === section.block.lines.filter((line) => line.n <= last).length;
  for (const run of runsOf(emit.map((line) => line.n))) {
    let chars = 0;
    for (let n = run.start; n <= run.end; n++) chars += lineChars(file, n);
    recorder.source(file.name, run, chars, file.fingerprint);
  }
  for (const line of own) shown.add(line.n);
  if (covered.length === 0 && emit.length === own.length && whole) return null;

  const parts: string[] = [];
  if (covered.length > 0) {
    const spans = runsOf(covered.map((line) => line.n));
    let chars = 0;
    for (const line of covered) chars += lineChars(file, line.n);
    const symbols = file.symbolsIn(spans);
    const pointer = pointerFor(
      plan,
      section.path,
      spans,
      symbols,
      emit.length > 0,
      chars,
      w.generation,
    );
    recorder.pointer(file.name, spans, file.fingerprint);
    w.countPointer(plan.coveredBy);
    parts.push(
      pointer
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
    );
  }
  const byNumber = new Map<number, NumberedLine>(own.map((line) => [line.n, line]));
  for (const run of runsOf(emit.map((line) => line.n))) {
    const raws: string[] = [];
    for (let n = run.start; n <= run.end; n++) raws.push(byNumber.get(n)!.raw);
    const { opener, closer } = section.block;
    parts.push(opener === null ? raws.join('\n') : `${opener}\n${raws.join('\n')}\n${closer}`);
  }
  const missing = own.find(
    (line) => !rangesCover(plan.emit, line.n) && !rangesCover(plan.covered, line.n),
  );
  if (missing !== undefined && plan.foldedChars === 0)
    parts.push(`> ${formatCut(section.path, missing.n)}`);
  return parts.join('\n');
}

/**
 * Writes every text block again from the call's plan: proved sections
 * rewritten, the rest as it was, the response header (when not `''`) as the
 * first line of the first block, and — when a pointer was written — the
 * refresh offer once, as the last line of the last block. Reports every span
 * sent to `recorder` as it is written. Returns the new texts and the number
 * of pointers written.
 *
 * @example
 * ```ts
 * const { texts } = writeSections(texts, found, plan, { header, recorder });
 * ```
 */
export function writeSections(
  texts: readonly string[],
  found: readonly FoundSection[],
  plan: CallPlan,
  out: { readonly header: string; readonly recorder: EmissionRecorder },
): { texts: string[]; pointers: number } {
  const plans = new Map(plan.files.map((file) => [file.path, file]));
  const shown = new Map<string, Set<number>>();
  let pointers = 0;
  const cited = new Set<number>();
  const edits = texts.map(() => [] as { start: number; end: number; text: string }[]);
  for (const { text, section, file } of found) {
    if (file === null) continue;
    const filePlan = plans.get(file.name);
    if (filePlan === undefined) continue;
    let lines = shown.get(file.name);
    if (lines === undefined) {
      lines = new Set();
      shown.set(file.name, lines);
    }
    const written = writeBlock(section, {
      plan: filePlan,
      file,
      shown: lines,
      recorder: out.recorder,
      generation: plan.generation,
      countPointer: (calls) => {
        pointers++;
        for (const n of calls) cited.add(n);
      },
    });
    if (written !== null)
      edits[text]!.push({ start: section.block.start, end: section.block.end, text: written });
  }
  const result = texts.map((text, i) => {
    let rebuilt = '';
    let at = 0;
    for (const edit of edits[i]!) {
      rebuilt += text.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    return rebuilt + text.slice(at);
  });
  if (out.header !== '' && result.length > 0) result[0] = `${out.header}\n${result[0]}`;
  const last = result.length - 1;
  if (pointers > 0 && last >= 0) {
    // After the upstream's last byte, which stays as it was.
    const offer = refreshOfferFor(cited, plan.generation);
    const text = result[last]!;
    result[last] = text.endsWith('\n') ? `${text}\n${offer}\n` : `${text}\n\n${offer}`;
  }
  return { texts: result, pointers };
}
