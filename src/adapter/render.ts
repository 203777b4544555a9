/**
 * A reference markdown renderer: turns a `planCall` result into the response
 * an explore tool returns — a header line per file (`` **`path`** ``), fenced
 * source numbered `<line>\t<text>`, and the pointer for covered spans — and
 * tells an emission recorder about every span at the moment it is pushed.
 *
 * It is one way to render, written to show the reporting pattern and to give
 * tests, the demo and the replay a real render loop. Tools with their own
 * layout keep it and call the recorder the same way.
 */

import { at, listOf, prop } from '../boundary/_read.js';
import { formatBackReference } from '../dedup/pointer.js';
import { type SymbolNode, symbolsInSpans } from '../dedup/symbols.js';
import { mergeRanges } from '../ranges/merge.js';
import type { LineRange } from '../ranges/range.js';
import { fileLines, lineChars } from './_lines.js';
import type { EmissionRecorder } from './recorder.js';

/**
 * What the renderer reads of a planned file (a `FilePlan` fits).
 *
 * @example
 * ```ts
 * const file: RenderablePlan = {
 *   path: 'src/a.ts', fingerprint: fp, render: 'partial',
 *   covered: [{ start: 1, end: 40 }], emit: [{ start: 41, end: 60 }],
 * };
 * ```
 */
export interface RenderablePlan {
  readonly path: string;
  readonly fingerprint: string;
  readonly render: 'full' | 'partial' | 'backref' | 'skipped';
  readonly emit: readonly LineRange[];
  readonly covered: readonly LineRange[];
}

/**
 * A file's content (the one the plan was made from) and, optionally, its symbols.
 *
 * @example
 * ```ts
 * const source: RenderSource = {
 *   path: 'src/a.ts', content, symbols: [{ name: 'Cart', kind: 'class', start: 27, end: 73 }],
 * };
 * ```
 */
export interface RenderSource {
  readonly path: string;
  readonly content: string;
  /** Symbol definitions, to name in the header and the pointer. */
  readonly symbols?: readonly SymbolNode[] | undefined;
}

/**
 * What a pointer is written from (the argument of `formatBackReference`).
 *
 * @example
 * ```ts
 * const input: PointerInput = {
 *   path: 'src/a.ts', covered: [{ start: 1, end: 40 }], symbols: ['Cart'], partial: true,
 * };
 * ```
 */
export interface PointerInput {
  readonly path: string;
  readonly covered: readonly LineRange[];
  readonly symbols: readonly string[];
  readonly partial: boolean;
}

/**
 * Options of {@link renderMarkdown}.
 *
 * @example
 * ```ts
 * const options: RenderMarkdownOptions = {
 *   plan, sources: files, recorder, maxResponseChars: 20_000, title: 'Results for "cart"',
 * };
 * ```
 */
export interface RenderMarkdownOptions {
  /** The call plan (`planCall(…)`), files in rank order. */
  readonly plan: { readonly files: readonly RenderablePlan[] };
  /** The contents the plan was made from, by path. */
  readonly sources: readonly RenderSource[];
  /** Told about every span the moment it is pushed. */
  readonly recorder: EmissionRecorder;
  /** Writes the pointer for covered spans (quoted with `>`). Default `formatBackReference`. */
  readonly pointer?: ((input: PointerInput) => string) | undefined;
  /** Hard cap on the whole response: sections that would cross it are dropped whole. */
  readonly maxResponseChars?: number | undefined;
  /** A first line (e.g. what the call looked for). */
  readonly title?: string | undefined;
}

/**
 * The rendered response and the paths the hard cap dropped.
 *
 * @example
 * ```ts
 * const { text, dropped }: RenderedMarkdown = renderMarkdown(options);
 * // dropped: ['src/huge.ts'] when that section would have crossed maxResponseChars
 * ```
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

/**
 * Renders a planned call as markdown and reports each span to `recorder` as it
 * is pushed: `source` for every fence (chars counted as the content slice:
 * each line with its `'\n'`, the last line's only when the file ends with one;
 * POSIX lines, so a final `'\n'` never shows as an empty extra line), `backref` for
 * every pointer. A section that would take the response past
 * `maxResponseChars` is left out whole and reported with `drop`. `skipped`
 * files render nothing. Call `recorder.finish(text.length)` afterwards.
 *
 * @example
 * ```ts
 * const plan = planCall({ files, prior, budget: { maxChars: 8000 } });
 * const recorder = createEmissionRecorder({ projectRoot: '/repo', query });
 * const { text } = renderMarkdown({
 *   plan, sources: files, recorder, pointer: formatBackReference, maxResponseChars: 20000,
 * });
 * const emission = recorder.finish(text.length);
 * // **`src/cart.ts`** — Cart, discountFor
 * // ```ts
 * // 27\texport class Cart {
 * // …
 * ```
 */
export function renderMarkdown(options: RenderMarkdownOptions): RenderedMarkdown {
  const empty: RenderedMarkdown = { text: '', dropped: [] };
  const recorder = readRecorder(prop(options, 'recorder'));
  if (recorder === null) return empty;
  const plan = prop(options, 'plan');
  const given = prop(options, 'pointer');
  const pointer = typeof given === 'function' ? (given as PointerWriter) : formatBackReference;
  const sources = readSources(prop(options, 'sources'));
  const maxResponseChars = prop(options, 'maxResponseChars');
  const cap =
    typeof maxResponseChars === 'number' && maxResponseChars >= 0
      ? maxResponseChars
      : Number.POSITIVE_INFINITY;
  const title = prop(options, 'title');
  let text = typeof title === 'string' && title !== '' ? `${title}\n` : '';
  const dropped: string[] = [];

  const { list, length } = listOf(prop(plan, 'files'));
  for (let i = 0; i < length; i++) {
    const file = readPlan(at(list, i));
    if (file === null || file.render === 'skipped') continue;
    const source = sources.get(file.path);
    if (source === undefined) continue;
    const section = renderSection(file, source, recorder, pointer);
    if (section === '') continue;
    const next = text === '' ? section : `${text}\n${section}`;
    if (next.length > cap) {
      recorder.drop(file.path);
      dropped.push(file.path);
      continue;
    }
    text = next;
  }
  return { text, dropped };
}

type PointerWriter = (input: PointerInput) => string;

/** What the renderer reads of a source, copied out of whatever was passed. */
interface ReadSource {
  readonly content: string;
  readonly symbols: unknown;
}

const RENDERS: ReadonlySet<unknown> = /* @__PURE__ */ new Set([
  'full',
  'partial',
  'backref',
  'skipped',
]);

/**
 * The recorder's three reporting methods, each guarded so a recorder that
 * throws never fails the render (what it failed to record is under-reported,
 * the safe direction); null when `raw` lacks any of them.
 */
function readRecorder(raw: unknown): Pick<EmissionRecorder, 'source' | 'backref' | 'drop'> | null {
  const source = prop(raw, 'source');
  const backref = prop(raw, 'backref');
  const drop = prop(raw, 'drop');
  if (typeof source !== 'function' || typeof backref !== 'function' || typeof drop !== 'function')
    return null;
  const guard =
    (f: unknown) =>
    (...args: unknown[]): void => {
      try {
        Reflect.apply(f as (...a: unknown[]) => unknown, raw, args);
      } catch {
        // a failing recorder under-reports; the response still goes out
      }
    };
  return { source: guard(source), backref: guard(backref), drop: guard(drop) };
}

/** Readable sources by path (the last one for a path wins); unreadable ones are left out. */
function readSources(raw: unknown): Map<string, ReadSource> {
  const byPath = new Map<string, ReadSource>();
  const { list, length } = listOf(raw);
  for (let i = 0; i < length; i++) {
    const s = at(list, i);
    const path = prop(s, 'path');
    const content = prop(s, 'content');
    if (typeof content !== 'string') continue;
    if (typeof path !== 'string' || path === '') continue;
    byPath.set(path, { content, symbols: prop(s, 'symbols') });
  }
  return byPath;
}

/** A planned file copied into plain data, or null when its path or render kind is unusable. */
function readPlan(raw: unknown): RenderablePlan | null {
  const path = prop(raw, 'path');
  const render = prop(raw, 'render');
  if (!RENDERS.has(render)) return null;
  if (typeof path !== 'string' || path === '') return null;
  const fingerprint = prop(raw, 'fingerprint');
  return {
    path,
    fingerprint: typeof fingerprint === 'string' ? fingerprint : '',
    render: render as RenderablePlan['render'],
    emit: mergeRanges(prop(raw, 'emit') as readonly LineRange[]),
    covered: mergeRanges(prop(raw, 'covered') as readonly LineRange[]),
  };
}

/** `symbolsInSpans`, with symbols that cannot be read naming nothing. */
function namesIn(nodes: unknown, spans: readonly LineRange[]): string[] {
  try {
    return symbolsInSpans((nodes ?? []) as readonly SymbolNode[], spans);
  } catch {
    return [];
  }
}

/** The pointer text: the caller's writer, or the default when it throws or returns no string. */
function writePointer(pointer: PointerWriter, input: PointerInput): string {
  try {
    const out = pointer(input);
    if (typeof out === 'string') return out;
  } catch {
    // fall back to the default wording below
  }
  return formatBackReference(input);
}

function renderSection(
  file: RenderablePlan,
  source: ReadSource,
  recorder: Pick<EmissionRecorder, 'source' | 'backref'>,
  pointer: PointerWriter,
): string {
  const lines = fileLines(source.content);
  const lineCount = lines.text.length;
  const clip = (set: readonly LineRange[]) =>
    set
      .filter((r) => r.start <= lineCount)
      .map((r) => ({ start: r.start, end: Math.min(r.end, lineCount) }));
  const emit = clip(file.emit);
  const covered = file.render === 'full' ? [] : clip(file.covered);
  if (emit.length === 0 && covered.length === 0) return '';

  const named = namesIn(source.symbols, [...covered, ...emit]);
  const shown = named.length > 5 ? [...named.slice(0, 5), `+${named.length - 5} more`] : named;
  const header = `**\`${file.path}\`**`;
  const parts = [shown.length > 0 ? `${header} — ${shown.join(', ')}` : header];
  if (covered.length > 0) {
    const coveredSymbols = namesIn(source.symbols, covered);
    parts.push(
      quote(
        writePointer(pointer, {
          path: file.path,
          covered,
          symbols: coveredSymbols,
          partial: emit.length > 0,
        }),
      ),
    );
    recorder.backref(file.path, covered, file.fingerprint);
  }
  const lang = languageOf(file.path);
  for (const span of emit) {
    const body: string[] = [];
    let chars = 0;
    for (let n = span.start; n <= span.end; n++) {
      body.push(`${n}\t${lines.text[n - 1]!}`);
      chars += lineChars(lines, n);
    }
    parts.push(`\`\`\`${lang}\n${body.join('\n')}\n\`\`\``);
    recorder.source(file.path, span, chars, file.fingerprint);
  }
  return `${parts.join('\n')}\n`;
}
