/**
 * Reading what a renderer is handed — the plan, the sources and their
 * symbols, the recorder, the pointer writer, the header fields —, what a
 * render loop reports to the emission recorder, and the rendered responses
 * handed back to be measured. Read once here, into plain data the adapter
 * trusts; a getter that throws, a proxy or a revoked proxy reads as "absent",
 * and a host callback that throws is contained.
 *
 * Under-reports, never invents: a plan file that cannot be read is not
 * rendered (nothing is recorded for it), ranges that cannot be read are
 * dropped, and a recorder that fails loses what it failed to record.
 */
import {
  contained,
  isNonEmptyString,
  limitOr,
  listOf,
  positiveOrNull,
  prop,
  readEach,
  readOr,
  stringOf,
} from '../boundary/read.js';
import { type PointerWriter, readPointerWriter } from '../dedup/pointer.js';
import {
  readCalls,
  readSymbolNodes,
  readThresholds,
  type SymbolExtent,
} from '../dedup/read-input.js';
import type { DedupThresholds } from '../dedup/thresholds.js';
import { readGeneration } from '../ledger/random.js';
import type { LineRange } from '../ranges/range.js';
import { readRange, readRanges } from '../ranges/read.js';
import type { Spans } from '../ranges/spans.js';
import { isContextToken, parseRefresh } from '../wire/args.js';
import type { EmissionRecorder } from './recorder.js';
import type { RenderablePlan } from './render.js';

/**
 * A `RenderablePlan` as the renderer trusts it: ranges normalized, the numbers
 * it cites checked (none when unknown).
 */
export type PlannedFile = Omit<
  RenderablePlan,
  'emit' | 'covered' | 'coveredBy' | 'cutAt' | 'thresholds'
> & {
  readonly emit: Spans;
  readonly covered: Spans;
  readonly coveredBy: readonly number[];
  readonly cutAt: number | null;
  readonly thresholds: DedupThresholds;
};

/** A file's content and its symbol nodes, read. */
export interface SourceFile {
  readonly content: string;
  readonly symbols: readonly SymbolExtent[];
}

/** The recorder calls a render loop makes, each one contained: a throw loses that report. */
export type Reporter = Pick<EmissionRecorder, 'source' | 'pointer' | 'drop' | 'numbered'>;

/** What opens a response: its number and the context token to echo, when known. */
export interface ResponseHeader {
  readonly callIndex: number | null;
  /** The numbering tag beside the number, or `null`. */
  readonly generation: string | null;
  readonly context: string | null;
  /** Pointers end with how to ask for lines back with `refresh`. */
  readonly refresh: boolean;
  /** The client sent a `refresh` that could not be read: the response says so. */
  readonly unread: boolean;
  /** Numbers a readable `refresh` named that this context has not printed yet (at or after `callIndex`). */
  readonly unknownCalls: readonly number[];
  /** The `context` the client sent when it is not the token printed (junk, or another's): shown quoted, cut to 24 chars. */
  readonly strayContext: string | null;
}

/** `renderMarkdown`'s options, read. */
export interface MarkdownInput {
  readonly files: readonly PlannedFile[];
  readonly sources: ReadonlyMap<string, SourceFile>;
  readonly reporter: Reporter;
  readonly pointer: PointerWriter;
  readonly cap: number;
  readonly title: string;
  readonly header: ResponseHeader;
}

/** `renderRead`'s options, read. */
export interface ReadInput {
  readonly file: PlannedFile;
  readonly source: SourceFile;
  readonly reporter: Reporter;
  readonly pointer: PointerWriter;
  readonly header: ResponseHeader;
}

const RENDERS: ReadonlySet<unknown> = /* @__PURE__ */ new Set([
  'full',
  'partial',
  'pointer',
  'skipped',
]);

/**
 * What a render loop reported to the recorder as ranges — one range or a
 * list — as valid copies; unreadable members are dropped.
 */
export function readReportedRanges(raw: unknown): LineRange[] {
  if (listOf(raw).length > 0) return readRanges(raw);
  const one = readRange(raw);
  return one === null ? [] : [one];
}

/** A planned file copied into plain data, or null when its path or render kind is unusable. */
function readPlanned(raw: unknown): PlannedFile | null {
  const path = prop(raw, 'path');
  const render = prop(raw, 'render');
  if (!isNonEmptyString(path) || !RENDERS.has(render)) return null;
  return {
    path,
    fingerprint: stringOf(prop(raw, 'fingerprint')),
    render: render as PlannedFile['render'],
    emit: readRanges(prop(raw, 'emit')),
    covered: readRanges(prop(raw, 'covered')),
    coveredBy: readCalls(prop(raw, 'coveredBy')),
    cutAt: positiveOrNull(prop(raw, 'cutAt')),
    thresholds: readThresholds(prop(raw, 'thresholds')),
  };
}

/** A source whose content is a string, with its symbol nodes read (unusable ones left out). */
function readSource(raw: unknown): SourceFile | null {
  const content = prop(raw, 'content');
  return typeof content === 'string'
    ? { content, symbols: readSymbolNodes(prop(raw, 'symbols')) }
    : null;
}

/** Readable sources by path (the last one for a path wins). */
function readSources(raw: unknown): Map<string, SourceFile> {
  return new Map(
    readEach(raw, (s) => {
      const path = prop(s, 'path');
      if (!isNonEmptyString(path)) return null;
      const source = readSource(s);
      return source === null ? null : ([path, source] as const);
    }),
  );
}

/** The recorder's four reporting methods, each contained; null when `raw` lacks any of them. */
function readReporter(raw: unknown): Reporter | null {
  const source = prop(raw, 'source');
  const pointer = prop(raw, 'pointer');
  const drop = prop(raw, 'drop');
  const numbered = prop(raw, 'numbered');
  if ([source, pointer, drop, numbered].some((f) => typeof f !== 'function')) return null;
  const report =
    (f: unknown) =>
    (...args: unknown[]): void => {
      contained(f, raw, args);
    };
  return {
    source: report(source),
    pointer: report(pointer),
    drop: report(drop),
    numbered: report(numbered),
  };
}

/**
 * The header fields of a renderer's options: `callIndex` (else the plan's, when
 * given) as a positive safe integer, `context` as a token, `refresh` as `true`;
 * anything else reads as absent.
 */
export function readResponseHeader(
  options: unknown,
  planIndex?: unknown,
  planGeneration?: unknown,
): ResponseHeader {
  const given = prop(options, 'callIndex');
  const callIndex = given === undefined ? planIndex : given;
  const tag = prop(options, 'generation');
  const context = prop(options, 'context');
  const index = positiveOrNull(callIndex);
  const token = isContextToken(context) ? context : null;
  const refresh = parseRefresh(prop(options, 'refreshArgument'));
  const sent = prop(options, 'contextArgument');
  return {
    callIndex: index,
    generation: readGeneration(tag === undefined ? planGeneration : tag) ?? null,
    context: token,
    refresh: prop(options, 'refresh') === true,
    unread: refresh === null,
    unknownCalls: index === null ? [] : (refresh?.calls ?? []).filter((n) => n >= index),
    strayContext:
      sent === undefined || sent === null || sent === '' || sent === token ? null : shown(sent),
  };
}

/** A value a client sent, as a line may quote it: JSON, at most 24 chars. */
function shown(value: unknown): string {
  const text = readOr(() => JSON.stringify(value) ?? typeof value, typeof value);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

/**
 * `renderMarkdown`'s options read once, or null without a usable recorder
 * (nothing can be reported, so nothing is rendered). A cap that is not a
 * non-negative number is no cap; a title that is not a string is none.
 */
export function readMarkdownOptions(options: unknown): MarkdownInput | null {
  const reporter = readReporter(prop(options, 'recorder'));
  if (reporter === null) return null;
  const plan = prop(options, 'plan');
  const files = readEach(prop(plan, 'files'), readPlanned);
  return {
    files,
    sources: readSources(prop(options, 'sources')),
    reporter,
    pointer: readPointerWriter(prop(options, 'pointer')),
    cap: limitOr(prop(options, 'maxResponseChars'), Number.POSITIVE_INFINITY),
    title: stringOf(prop(options, 'title')),
    header: readResponseHeader(options, prop(plan, 'callIndex'), prop(plan, 'generation')),
  };
}

/**
 * `renderRead`'s options read once, or null without a usable recorder, plan
 * or content (nothing is rendered or recorded then).
 */
export function readReadOptions(options: unknown): ReadInput | null {
  const reporter = readReporter(prop(options, 'recorder'));
  const file = readPlanned(prop(options, 'plan'));
  const source = readSource(options);
  if (reporter === null || file === null || source === null) return null;
  return {
    file,
    source,
    reporter,
    pointer: readPointerWriter(prop(options, 'pointer')),
    header: readResponseHeader(
      options,
      prop(prop(options, 'plan'), 'callIndex'),
      prop(prop(options, 'plan'), 'generation'),
    ),
  };
}

/** The options of `createEmissionRecorder`, read: a usable root, else an inert recorder (''). */
export function readRecorderOptions(options: unknown): { projectRoot: string; query: string } {
  const root = prop(options, 'projectRoot');
  // Without a usable root the ledger would ignore the emission anyway: read nothing more.
  if (!isNonEmptyString(root)) return { projectRoot: '', query: '' };
  return { projectRoot: root, query: stringOf(prop(options, 'query')) };
}

/**
 * The responses of a list, in order: strings, and `{ text, path? }` whose
 * text is a string (a path that is not a non-empty string is none); anything
 * but a readable array holds none.
 */
export function readResponses(raw: unknown): { text: string; path: string }[] {
  return readEach(raw, (entry) => {
    const text = typeof entry === 'string' ? entry : prop(entry, 'text');
    const path = prop(entry, 'path');
    return typeof text === 'string' ? { text, path: isNonEmptyString(path) ? path : '' } : null;
  });
}
