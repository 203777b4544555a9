/**
 * Reference renderers: `renderMarkdown` turns a `planCall` result into the
 * response an explore tool returns — its number, a header line per file
 * (`` **`path`** ``), fenced source numbered `<line>\t<text>`, and the pointer
 * for covered spans — and `renderRead` turns a `planRead` result into what a
 * read tool prints (`cat -n` numbering, the pointer above the new lines).
 * Both tell an emission recorder about every span at the moment it is pushed.
 *
 * They are one way to render, written to show the reporting pattern and to
 * give tests, the demo and the replay a real render loop. Tools with their own
 * layout keep it and call the recorder the same way. Their inputs are read
 * once, in `read-options.ts`; what is rendered here is trusted data.
 */

import { positiveOrNull, stringOf } from '../boundary/read.js';
import type { FileRender } from '../dedup/plan-file.js';
import {
  type PointerInput,
  type PointerWriter,
  refreshOffer,
  responseLabel,
  symbolList,
} from '../dedup/pointer.js';
import { choosePointer } from '../dedup/policy.js';
import { type LineSymbolNode, type SymbolNode, symbolNames } from '../dedup/symbols.js';
import type { DedupThresholds } from '../dedup/thresholds.js';
import type { LineRange } from '../ranges/range.js';
import {
  charsOf,
  charsOfLines,
  clipToLines,
  indexLines,
  type LineIndex,
  lineText,
} from '../text/lines.js';
import {
  type PlannedFile,
  type Reporter,
  type ResponseHeader,
  readMarkdownOptions,
  readReadOptions,
  readResponseHeader,
  type SourceFile,
} from './read-options.js';
import type { EmissionRecorder } from './recorder.js';

/**
 * What the renderer reads of a planned file (a `FilePlan` fits).
 */
export interface RenderablePlan {
  readonly path: string;
  readonly fingerprint: string;
  readonly render: FileRender;
  readonly emit: readonly LineRange[];
  readonly covered: readonly LineRange[];
  /** The responses that served `covered`, most recent first: the pointer cites them. */
  readonly coveredBy?: readonly number[] | undefined;
  /** The first line the budget left out: the section ends by saying so. */
  readonly cutAt?: number | null | undefined;
  /** The number of the response (a `planRead` plan's): `renderRead` opens with it. */
  readonly callIndex?: number | null | undefined;
  /** The thresholds the plan was made with: the pointer's span and symbol limits, and when it is compact. */
  readonly thresholds?: Partial<DedupThresholds> | undefined;
}

/**
 * A file's content (the one the plan was made from) and, optionally, its symbols.
 */
export interface RenderSource {
  readonly path: string;
  readonly content: string;
  /** Symbol definitions, to name in the header and the pointer (`extractSymbols` gives some). */
  readonly symbols?: readonly (SymbolNode | LineSymbolNode)[] | undefined;
}

/**
 * What opens a response: its number, and the context token the agent is to echo.
 */
export interface ResponseHeaderInput {
  /**
   * The number of this response (`planCall(…).callIndex`, or
   * `describeSession(prior).callIndex`); none is printed when absent or null
   * (an untracked call has no number to cite).
   */
  readonly callIndex?: number | null | undefined;
  /**
   * The numbering tag printed beside the number (`Response #4/kqfz`):
   * `planCall(…).generation` or `describeSession(prior).generation`; none
   * when absent, null, or not 1 to 8 lower-case letters.
   */
  readonly generation?: string | null | undefined;
  /**
   * A context token (6–64 chars of `A-Za-z0-9_-`, as `mintContextToken`
   * makes) to print with the instruction to pass it back as `context`; other
   * values print nothing.
   */
  readonly context?: string | null | undefined;
  /**
   * The `refresh` argument as the client sent it (`args.refresh`): when it
   * was sent but `readRefresh` cannot read it, a line under the number says
   * so, and how to pass it.
   */
  readonly refreshArgument?: unknown;
  /**
   * The `context` argument as the client sent it (`args.context`): when it
   * was sent but is not the token printed (junk, or one this host does not
   * accept), a line under the number says a new context started.
   */
  readonly contextArgument?: unknown;
}

/**
 * Options of {@link renderMarkdown}.
 */
export interface RenderMarkdownOptions extends ResponseHeaderInput {
  /** The call plan (`planCall(…)`), files in rank order; its `callIndex` numbers the response. */
  readonly plan: {
    readonly files: readonly RenderablePlan[];
    readonly callIndex?: number | null | undefined;
    readonly generation?: string | null | undefined;
  };
  /** The contents the plan was made from, by path. */
  readonly sources: readonly RenderSource[];
  /** Told about every span the moment it is pushed. */
  readonly recorder: EmissionRecorder;
  /** Writes the pointer for covered spans (quoted with `>`). Default `formatPointer`. */
  readonly pointer?: ((input: PointerInput) => string) | undefined;
  /** Hard cap on the whole response: sections that would cross it are dropped whole. */
  readonly maxResponseChars?: number | undefined;
  /** A line after the response number (e.g. what the call looked for). */
  readonly title?: string | undefined;
  /** The tool takes `refresh`: pointers end with how to get their lines back. */
  readonly refresh?: boolean | undefined;
}

/**
 * The rendered response and the paths the hard cap dropped.
 */
export interface RenderedMarkdown {
  readonly text: string;
  readonly dropped: readonly string[];
}

const LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'ts',
  tsx: 'tsx',
  mts: 'ts',
  cts: 'ts',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  py: 'python',
  go: 'go',
  rs: 'rust',
};

function languageOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : (LANGUAGES[path.slice(dot + 1).toLowerCase()] ?? '');
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.startsWith('>') ? line : line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** The lines that open a response: its number and token, a `refresh` it could not read; none when there is nothing to say. */
function headerLines({
  callIndex,
  generation,
  context,
  unread,
  unknownCalls,
  strayContext,
}: ResponseHeader): string[] {
  const token =
    context === null
      ? ''
      : `${context} (send "context": "${context}" with your later calls to this tool)`;
  const lines =
    callIndex === null
      ? [token === '' ? '' : `Context ${token}`]
      : [
          token === ''
            ? `Response #${responseLabel(callIndex, generation)}`
            : `Response #${responseLabel(callIndex, generation)} · context ${token}`,
        ];
  if (unread) {
    lines.push(
      '`refresh` was not understood, so nothing was sent again: pass true, or the numbers of the responses to send again, e.g. [3].',
    );
  }
  if (unknownCalls.length > 0 && callIndex !== null) {
    const named = unknownCalls.map((n) => `#${n}`).join(', ');
    lines.push(
      `\`refresh\` named ${named}, which this context has not sent (this is #${callIndex}): nothing was sent again for ${unknownCalls.length === 1 ? 'it' : 'them'}.`,
    );
  }
  if (strayContext !== null) {
    lines.push(
      `\`context\` ${strayContext} is not a token a response of this tool gave${context === null ? '' : `, so this response starts a new context: send ${context}`}.`,
    );
  }
  return lines.filter((line) => line !== '');
}

/** The line after the sections that names the files the budget left out whole. */
const leftOut = (paths: readonly string[]) =>
  `Not in this response (its budget): ${paths.map((p) => `\`${p}\``).join(', ')}; ask again for them, or more narrowly.`;

/**
 * The line that ends a section the budget cut (a plan's `cutAt`): the first
 * line not sent, and how to get the rest. `renderMarkdown` and `renderRead`
 * write it themselves; it is for tools with their own layout.
 *
 * @example
 * ```ts
 * formatCut('src/a.ts', 412);
 * // → '`src/a.ts` from L412 on is not in this response (its budget): ask again for it, or more narrowly.'
 * ```
 */
export function formatCut(path: string, firstNotSent: number): string {
  return `\`${stringOf(path)}\` from L${positiveOrNull(firstNotSent) ?? 1} on is not in this response (its budget): ask again for it, or more narrowly.`;
}

/**
 * The line that opens a response: its number, so pointers in later responses
 * can cite it, and (when given) the context token the agent is to send back
 * as `context`; then, when the client's `refreshArgument` could not be read,
 * a line that says so. `''` when there is nothing to say. For tools with
 * their own layout; `renderMarkdown` and `renderRead` write it themselves.
 *
 * @example
 * ```ts
 * formatResponseHeader({ callIndex: 4 }); // 'Response #4'
 * formatResponseHeader({ callIndex: 1, context: 'k7f3q2ab' });
 * // → 'Response #1 · context k7f3q2ab (send "context": "k7f3q2ab" with your later calls to this tool)'
 * formatResponseHeader({ callIndex: 5, refreshArgument: 'yes' }).split('\n');
 * // → ['Response #5', '`refresh` was not understood, so nothing was sent again: pass true, or the numbers of the responses to send again, e.g. [3].']
 * ```
 */
export function formatResponseHeader(input: ResponseHeaderInput): string {
  return headerLines(readResponseHeader(input)).join('\n');
}

/**
 * Renders a planned call as markdown and reports each span to `recorder` as it
 * is pushed: `source` for every fence (chars counted as the content slice:
 * each line with its `'\n'`, the last line's only when the file ends with one;
 * POSIX lines, so a final `'\n'` never shows as an empty extra line), `pointer` for
 * every pointer. The response opens with its number (the plan's `callIndex`,
 * or the `callIndex` option) and the context token when one is passed; each
 * pointer cites the responses in its file's `coveredBy`. A section that would
 * take the response past `maxResponseChars` is left out whole and reported
 * with `drop`. `skipped` files render nothing. Call
 * `recorder.finish(text.length)` afterwards.
 *
 * @example
 * ```ts
 * import { createSessionStore, planCall } from 'span-ledger';
 *
 * const spans = createSessionStore();
 * const files = [{ path: 'a.ts', content: 'export const a = 1;\n', intended: [{ start: 1, end: 1 }] }];
 * const plan = planCall({ files, prior: spans.project('/repo'), budget: { maxChars: 8000 } });
 * const recorder = createEmissionRecorder({ projectRoot: '/repo', query: 'a' });
 * const { text } = renderMarkdown({ plan, sources: files, recorder, maxResponseChars: 20000 });
 * text; // → 'Response #1\n\n**`a.ts`**\n```ts\n1\texport const a = 1;\n```\n'
 * spans.record(recorder.finish(text.length))?.files;
 * // → [{ path: 'a.ts', ranges: [{ start: 1, end: 1 }], chars: 20, fingerprint: '20:a66eb63a9887764f' }]
 * ```
 */
export function renderMarkdown(options: RenderMarkdownOptions): RenderedMarkdown {
  const input = readMarkdownOptions(options);
  if (input === null) return Object.freeze({ text: '', dropped: Object.freeze([]) });
  const { reporter, pointer, header } = input;
  // The number printed is the number the record goes under (or nowhere).
  reporter.numbered(header.callIndex, header.generation);
  const opening = [...headerLines(header), input.title].filter((line) => line !== '');
  let text = opening.map((line) => `${line}\n`).join('');
  const dropped: string[] = [];
  const cut = input.files.filter((f) => f.render === 'skipped' && f.cutAt !== null);
  const cutLine = cut.length > 0 ? `\n${leftOut(cut.map((f) => f.path))}` : '';
  let cited: number[] | null = null;
  // What follows the sections: the files the budget left out, and the refresh offer once.
  const tail = (calls: number[] | null) =>
    cutLine +
    (header.refresh && calls !== null ? `\n${refreshOffer(calls, header.generation)}` : '');
  for (const file of input.files) {
    if (file.render === 'skipped') continue;
    const source = input.sources.get(file.path);
    if (source === undefined) continue;
    const section = renderSection(file, source, reporter, pointer, header.generation);
    if (section === null) continue;
    const next = text === '' ? section.text : `${text}\n${section.text}`;
    const calls: number[] | null =
      section.calls === null
        ? cited
        : [...new Set([...(cited ?? []), ...section.calls])].sort((a, b) => b - a);
    if (next.length + tail(calls).length > input.cap) {
      reporter.drop(file.path);
      dropped.push(file.path);
      continue;
    }
    text = next;
    cited = calls;
  }
  text += tail(cited);
  return Object.freeze({ text, dropped: Object.freeze(dropped) });
}

/** What a file's section shows: the spans within the file, and the pointer when there is one. */
interface Shown {
  readonly lines: LineIndex;
  readonly emit: readonly LineRange[];
  readonly covered: readonly LineRange[];
  /** The pointer text (unquoted), '' when nothing is covered. */
  readonly pointer: string;
}

/**
 * Clips a planned file to its content and writes its pointer (the pointer
 * policy picks its form and whether it names symbols), and reports the
 * pointer's spans.
 */
function show(
  file: PlannedFile,
  source: SourceFile,
  reporter: Reporter,
  pointer: PointerWriter,
  refresh: boolean,
  generation: string | null,
): Shown {
  const lines = indexLines(source.content);
  const emit = clipToLines(file.emit, lines.lineCount);
  const covered = file.render === 'full' ? [] : clipToLines(file.covered, lines.lineCount);
  if (covered.length === 0) return { lines, emit, covered, pointer: '' };
  const text = choosePointer(
    {
      path: file.path,
      covered,
      chars: charsOf(lines, covered),
      whole: true,
      symbols: symbolNames(source.symbols, covered),
      partial: emit.length > 0,
      calls: file.coveredBy,
      generation,
      refresh,
      thresholds: file.thresholds,
      planned: true,
    },
    pointer,
  );
  reporter.pointer(file.path, covered, file.fingerprint);
  return { lines, emit, covered, pointer: text ?? '' };
}

/** A file's section and the responses its pointer cites (`null`: no pointer); `null` when it shows nothing. */
function renderSection(
  file: PlannedFile,
  source: SourceFile,
  reporter: Reporter,
  pointer: PointerWriter,
  generation: string | null,
): { text: string; calls: readonly number[] | null } | null {
  const shown = show(file, source, reporter, pointer, false, generation);
  const { lines, emit, covered } = shown;
  if (emit.length === 0 && covered.length === 0) return null;
  // The header names what the fences show; the pointer, what it stands for.
  const names = symbolList(symbolNames(source.symbols, emit), file.thresholds.maxSymbolsInPointer);
  const header = `**\`${file.path}\`**`;
  const parts = [names !== '' ? `${header} — ${names}` : header];
  if (covered.length > 0) parts.push(quote(shown.pointer));
  const lang = languageOf(file.path);
  for (const span of emit) {
    const body: string[] = [];
    for (let n = span.start; n <= span.end; n++) body.push(`${n}\t${lineText(lines, n)}`);
    parts.push(`\`\`\`${lang}\n${body.join('\n')}\n\`\`\``);
    reporter.source(file.path, span, charsOfLines(lines, span.start, span.end), file.fingerprint);
  }
  if (file.cutAt !== null) parts.push(formatCut(file.path, file.cutAt));
  return { text: `${parts.join('\n')}\n`, calls: covered.length > 0 ? file.coveredBy : null };
}

/**
 * Options of {@link renderRead}.
 */
export interface RenderReadOptions extends ResponseHeaderInput {
  /** The read's plan (`planRead(…)`, a `FilePlan`). */
  readonly plan: RenderablePlan;
  /** The content the plan was made from. */
  readonly content: string;
  /** Symbol definitions, to name in the pointer (`extractSymbols(content, path)` gives some). */
  readonly symbols?: readonly (SymbolNode | LineSymbolNode)[] | undefined;
  /** Told about every span the moment it is pushed. */
  readonly recorder: EmissionRecorder;
  /** Writes the pointer for covered spans. Default `formatPointer`. */
  readonly pointer?: ((input: PointerInput) => string) | undefined;
  /** The tool takes `refresh`: the pointer ends with how to get its lines back. */
  readonly refresh?: boolean | undefined;
}

/**
 * The rendered read.
 */
export interface RenderedRead {
  readonly text: string;
}

/** Width of a `cat -n` line number: right-aligned in six columns, wider numbers as they are. */
const NUMBER_WIDTH = 6;

/**
 * Renders one read the way agent harnesses print a file: the response number
 * (and context token) when given, the pointer for covered lines, then the new
 * lines `cat -n` style — the line number right-aligned, a tab, the text (POSIX
 * lines, as `renderMarkdown`). Reports to `recorder` as it goes: `pointer` for
 * the pointer, `source` for each run of lines. An unchanged re-read (`pointer`)
 * prints the pointer alone; a `skipped` plan, or one with nothing inside the
 * content, prints `''` and records nothing (the host says why, e.g. the file
 * is shorter than the offset). Call `recorder.finish(text.length)` afterwards.
 *
 * @example
 * ```ts
 * import { createSessionStore, describeSession, planRead, READ_TOOL_LIMITS } from 'span-ledger';
 *
 * const spans = createSessionStore(READ_TOOL_LIMITS);
 * const content = 'export function add(a, b) {\n  return a + b;\n}\n'.repeat(4); // 12 lines
 * const read = () => {
 *   const prior = spans.project('/repo');
 *   const plan = planRead({ path: 'add.js', content, prior });
 *   const recorder = createEmissionRecorder({ projectRoot: '/repo', query: 'add.js' });
 *   const callIndex = describeSession(prior)?.callIndex;
 *   const { text } = renderRead({ plan, content, recorder, callIndex, refresh: true });
 *   spans.record(recorder.finish(text.length));
 *   return text;
 * };
 * read().split('\n').slice(0, 3); // ['Response #1', '     1\texport function add(a, b) {', '     2\t  return a + b;']
 * read(); // → 'Response #2\n'
 * //   + 'Sent in response #1 of this conversation: `add.js` L1-12. The file is unchanged since.'
 * //   + ' If response #1 is no longer in your context, call this tool again with `refresh: [1]`.\n'
 * ```
 */
export function renderRead(options: RenderReadOptions): RenderedRead {
  const input = readReadOptions(options);
  if (input === null || input.file.render === 'skipped') return Object.freeze({ text: '' });
  const { file, reporter } = input;
  const { refresh, generation } = input.header;
  const shown = show(file, input.source, reporter, input.pointer, refresh, generation);
  const { lines, emit, covered } = shown;
  if (emit.length === 0 && covered.length === 0) return Object.freeze({ text: '' });
  reporter.numbered(input.header.callIndex, generation);
  const parts = [...headerLines(input.header), shown.pointer].filter((part) => part !== '');
  for (const span of emit) {
    for (let n = span.start; n <= span.end; n++) {
      parts.push(`${String(n).padStart(NUMBER_WIDTH)}\t${lineText(lines, n)}`);
    }
    reporter.source(file.path, span, charsOfLines(lines, span.start, span.end), file.fingerprint);
  }
  if (file.cutAt !== null) parts.push(formatCut(file.path, file.cutAt));
  return Object.freeze({ text: `${parts.join('\n')}\n` });
}
