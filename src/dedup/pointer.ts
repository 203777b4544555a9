/**
 * The pointer: the text that stands in for source the reader already
 * holds. It makes that earlier copy usable — which file, which lines, which
 * symbols, and the two facts that make it trustworthy (it came from this
 * conversation; the file has not changed since).
 *
 * Not a gap marker: it never calls the source omitted, unavailable or missing,
 * and never sends the reader to the file.
 */

import { frozen, frozenEach } from '../boundary/freeze.js';
import { contained, prop } from '../boundary/read.js';
import { readGeneration } from '../ledger/random.js';
import { firstThenMore, plural, spansText } from '../ranges/format.js';
import type { LineRange } from '../ranges/range.js';
import { type PointerParts, readCalls, readPointerInput } from './read-input.js';

/**
 * What a pointer is written from: the argument of {@link formatPointer}, and
 * of a renderer's own `pointer` writer (`renderMarkdown` and `renderRead` pass
 * every field).
 */
export interface PointerInput {
  /** The file, as the response's file headers spell it. */
  readonly path: string;
  /** The lines the pointer stands for (a plan's `covered`). */
  readonly covered: readonly LineRange[];
  /** Names of the symbols in those lines (see `symbolsInSpans`); imports are best left out. */
  readonly symbols?: readonly string[] | undefined;
  /** True when new lines of the same file follow the pointer (`render: 'partial'`). */
  readonly partial?: boolean | undefined;
  /** The responses that delivered the lines (a plan's `coveredBy`), most recent first. */
  readonly calls?: readonly number[] | undefined;
  /** The numbering tag of those responses (a plan's `generation`), cited beside each number. */
  readonly generation?: string | null | undefined;
  /** True when the tool takes a `refresh` argument: the pointer says how to get the lines back. */
  readonly refresh?: boolean | undefined;
  /**
   * True for the one-line form of a whole small section (path, spans, the
   * response that sent them): the renderers use it when every covered run is
   * shorter than `minCoveredLines`, as only whole sections can be.
   */
  readonly compact?: boolean | undefined;
  /** Spans named before `+N more spans` (a plan's `thresholds.maxSpansInPointer`; default 4). */
  readonly maxSpansInPointer?: number | undefined;
  /** Symbols named before `+N more` (a plan's `thresholds.maxSymbolsInPointer`; default 5). */
  readonly maxSymbolsInPointer?: number | undefined;
}

/**
 * A host's own wording of the pointer: the sentences it is made of, each a
 * template. Any part left out (or not a string) keeps the default wording
 * shown beside it. In a template, `{what}` is the path in backticks with its
 * spans and symbols (`` `src/a.ts` L10-80 (Session, login) ``), `{path}`,
 * `{spans}` and `{symbols}` those parts alone, `{responses}` the cited
 * responses (`response #3`, `responses #5 and #3`; `that copy` without
 * numbers), `{numbers}` the numbers alone (`#5 and #3`), `{is}` `is` or
 * `are` to agree with them, and `{refresh}` the `refresh` argument to pass
 * (`[5, 3]`, or `true`). Another `{name}` stays as written.
 */
export interface PointerWords {
  /** Opens a pointer that cites numbers. `'Sent in {responses} of this conversation: {what}.'` */
  readonly sent?: string | undefined;
  /** Opens a pointer without numbers. `'Sent earlier in this conversation: {what}.'` */
  readonly sentEarlier?: string | undefined;
  /** Follows the opening when nothing else of the file follows. `'The file is unchanged since.'` */
  readonly unchanged?: string | undefined;
  /** Follows the opening when new lines follow. `'The file is unchanged since; only the lines not sent before follow.'` */
  readonly partial?: string | undefined;
  /** The one-line form, citing numbers. `'{what}: unchanged, sent in {numbers}.'` */
  readonly compact?: string | undefined;
  /** The one-line form without numbers. `'{what}: unchanged, sent earlier in this conversation.'` */
  readonly compactEarlier?: string | undefined;
  /** The refresh offer (`refresh: true`). ``'If {responses} {is} no longer in your context, call this tool again with `refresh: {refresh}`.'`` */
  readonly refresh?: string | undefined;
}

/** What the placeholders of a template stand for (see {@link PointerWords}). */
interface Fills {
  readonly what: string;
  readonly path: string;
  readonly spans: string;
  readonly symbols: string;
  readonly responses: string;
  readonly numbers: string;
  readonly is: string;
  readonly refresh: string;
}

/** Every sentence of a wording, as a template (see {@link PointerWords}). */
type Wording = { readonly [K in keyof PointerWords]-?: string };

/** The default wording: the templates {@link PointerWords} shows, filled as a host's are. */
const WORDS: Wording = /* @__PURE__ */ Object.freeze({
  sent: 'Sent in {responses} of this conversation: {what}.',
  sentEarlier: 'Sent earlier in this conversation: {what}.',
  unchanged: 'The file is unchanged since.',
  partial: 'The file is unchanged since; only the lines not sent before follow.',
  compact: '{what}: unchanged, sent in {numbers}.',
  compactEarlier: '{what}: unchanged, sent earlier in this conversation.',
  refresh:
    'If {responses} {is} no longer in your context, call this tool again with `refresh: {refresh}`.',
});

/** A pointer writer: the pointer's parts, read, to its text. */
export type PointerWriter = (parts: PointerParts) => string;

/** Response numbers named before the rest are counted. */
const MAX_CALLS_SHOWN = 4;

/**
 * @internal How a response number is printed, in the header and in every
 * pointer alike: `4`, or `4/kqfz` with its numbering tag, so that after a
 * lost ledger a new numbering never repeats a label the agent holds.
 */
export function responseLabel(index: number, generation: string | null | undefined): string {
  return generation ? `${index}/${generation}` : `${index}`;
}

/**
 * `#5`, `#5 and #3`, `#5, #3 and #1`, `#9, #8, #7, #6 and 2 earlier ones`;
 * each with its numbering tag when there is one (`#5/kqfz`).
 */
function numbers(calls: readonly number[], generation: string | null): string {
  const shown = firstThenMore(
    calls,
    MAX_CALLS_SHOWN,
    (n) => `#${responseLabel(n, generation)}`,
    (rest) => `${rest} earlier ${plural(rest, 'one')}`,
  );
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** @internal Up to `max` names, then how many more: a pointer's symbols, a section header's. */
export function symbolList(names: readonly string[], max: number): string {
  return firstThenMore(names, max, String, (rest) => `+${rest} more`).join(', ');
}

/**
 * The sentence that tells the reader how to get lines back through the tool:
 * which responses to name in `refresh`. A response whose pointers all cite
 * `calls` says it once, after them (`renderMarkdown` and `renderRead` do).
 *
 * @example
 * ```ts
 * formatRefreshOffer([5, 3]);
 * // → 'If responses #5 and #3 are no longer in your context, call this tool again with `refresh: [5, 3]`.'
 * formatRefreshOffer([]);
 * // → 'If that copy is no longer in your context, call this tool again with `refresh: true`.'
 * ```
 */
export function formatRefreshOffer(calls: readonly number[], generation?: string | null): string {
  return refreshOffer(readCalls(calls), readGeneration(generation) ?? null);
}

/** The placeholders a refresh offer for `calls` fills in. */
function citing(calls: readonly number[], generation: string | null) {
  const cited = numbers(calls, generation);
  return {
    numbers: cited,
    responses: calls.length === 0 ? 'that copy' : `${plural(calls.length, 'response')} ${cited}`,
    is: calls.length > 1 ? 'are' : 'is',
    refresh: calls.length > 0 && calls.length <= MAX_CALLS_SHOWN ? `[${calls.join(', ')}]` : 'true',
  };
}

/** @internal {@link formatRefreshOffer} of response numbers (and their tag) already read. */
export function refreshOffer(calls: readonly number[], generation: string | null = null): string {
  return fill(WORDS.refresh, citing(calls, generation));
}

/**
 * The pointer text for lines the reader already holds: names the path, the
 * spans (past `maxSpansInPointer`, four by default, `+N more spans`), the
 * symbols (past `maxSymbolsInPointer`, five, `+N more`), the responses that
 * delivered them (`calls`: "response #3", "responses #5 and #3"), says the
 * file is unchanged since, and — when `partial` — that only the new lines
 * follow. `compact` gives the one-line form of a whole small section
 * (`` `src/a.ts` L248-254: unchanged, sent in #2. ``). With `refresh:
 * true` it ends with {@link formatRefreshOffer}'s sentence, for a host that
 * writes one pointer a response. It never sends the reader to the file.
 *
 * `words` is the host's wording: the sentences as templates
 * ({@link PointerWords}; a part left out, or not a string, keeps the
 * default), or a function of the pointer's parts (read and frozen; when it
 * throws or returns no string, the default wording is used). The text says
 * what the host's words say — the default wording never tells the reader to
 * read the file, and neither does this function on its own.
 *
 * @example
 * ```ts
 * formatPointer({
 *   path: 'src/auth.ts',
 *   covered: [{ start: 10, end: 80 }],
 *   symbols: ['Session', 'login'],
 *   partial: true,
 *   calls: [3],
 *   refresh: true,
 * });
 * // → 'Sent in response #3 of this conversation: `src/auth.ts` L10-80 (Session, login).'
 * //   + ' The file is unchanged since; only the lines not sent before follow.'
 * //   + ' If response #3 is no longer in your context, call this tool again with `refresh: [3]`.'
 * formatPointer({ path: 'core/util.ts', covered: [{ start: 248, end: 254 }], calls: [2], compact: true });
 * // → '`core/util.ts` L248-254: unchanged, sent in #2.'
 * formatPointer(
 *   { path: 'src/auth.ts', covered: [{ start: 10, end: 80 }], calls: [3] },
 *   { sent: 'Already shown in {responses}: {what}.', unchanged: 42 as unknown as string },
 * );
 * // → 'Already shown in response #3: `src/auth.ts` L10-80. The file is unchanged since.'
 * formatPointer({ path: 'a.ts', covered: [{ start: 1, end: 9 }] }, (p) => `${p.path}: see above`);
 * // → 'a.ts: see above'
 * ```
 */
export function formatPointer(
  input: PointerInput,
  words?: PointerWords | ((parts: PointerInput) => string),
): string {
  return readWords(words)(readPointerInput(input));
}

/**
 * @internal The host's `words` read once into a writer: templates (a part
 * left out, or not a string, keeps the default), a function (see
 * {@link readPointerWriter}), or anything else the default wording.
 */
export function readWords(words: unknown): PointerWriter {
  if (typeof words !== 'object' || words === null) return readPointerWriter(words);
  const wording: Record<string, string> = {};
  for (const [name, fallback] of Object.entries(WORDS)) {
    const given = prop(words, name);
    wording[name] = typeof given === 'string' ? given : fallback;
  }
  return (parts) => writePointer(parts, wording as Wording);
}

/** `template` with each `{name}` of `fills` replaced by its value; another `{name}` stays. */
function fill(template: string, fills: Partial<Fills>): string {
  return template.replace(/\{(\w+)\}/g, (text, name: string) =>
    Object.hasOwn(fills, name) ? fills[name as keyof Fills]! : text,
  );
}

/**
 * @internal The host's pointer writer read once: a function contained
 * (handed the parts frozen, so what it does to them cannot reach the default
 * wording; a throw or a result that is no string falls back to it), anything
 * else the default wording.
 */
export function readPointerWriter(raw: unknown): PointerWriter {
  if (typeof raw !== 'function') return writePointer;
  return (parts) => {
    const shown = Object.freeze({
      ...parts,
      covered: frozenEach([...parts.covered]),
      symbols: frozen([...parts.symbols]),
      calls: frozen([...parts.calls]),
    });
    const out = contained(raw, undefined, [shown]);
    return typeof out === 'string' ? out : writePointer(parts);
  };
}

/**
 * @internal The pointer text from parts already read (or built by the
 * renderer from a plan it read): `covered` normalized, names trimmed and
 * non-blank, `calls` positive and each once.
 */
export function writePointer(p: PointerParts, words: Wording = WORDS): string {
  const generation = p.generation ?? null;
  const spans = spansText(p.covered, p.maxSpansInPointer);
  const symbols = symbolList(p.symbols, p.maxSymbolsInPointer);
  let what = p.path !== '' ? `\`${p.path}\`` : 'this file';
  if (spans !== '') what += ` ${spans}`;
  if (symbols !== '') what += ` (${symbols})`;
  const f = { ...citing(p.calls, generation), what, path: p.path, spans, symbols };
  const cites = p.calls.length > 0;
  const text = p.compact
    ? fill(cites ? words.compact : words.compactEarlier, f)
    : `${fill(cites ? words.sent : words.sentEarlier, f)} ${fill(p.partial ? words.partial : words.unchanged, f)}`;
  return p.refresh ? `${text} ${fill(words.refresh, f)}` : text;
}
