/**
 * What a host hands the planner — `planFile`, `planCall` and `planRead`
 * inputs, thresholds, budget, symbol nodes and pointer inputs — read once into
 * typed plain data (the prior through the ledger's reader). Behind this file
 * the planner trusts what it gets.
 *
 * The direction every reader takes: what cannot be read is absent, and absent
 * never makes the planner withhold more. A prior record that cannot be read is
 * dropped (its lines are re-sent); a file that cannot be planned is skipped.
 */
import {
  isNonEmptyString,
  isPositiveInteger,
  limitOr,
  positiveOrNull,
  prop,
  readEach,
  readOr,
  stringOf,
} from '../boundary/read.js';
import { fingerprint as fingerprintOf } from '../hash/fingerprint.js';
import { readGeneration } from '../ledger/random.js';
import { MAX_PATH_CHARS, readFingerprint } from '../ledger/read-emission.js';
import { readPrior, responseNumber } from '../ledger/read-prior.js';
import type { ProjectState } from '../ledger/types.js';
import { isLineRange, type LineRange, WHOLE_FILE } from '../ranges/range.js';
import { readRange, readRanges } from '../ranges/read.js';
import { NO_SPANS, type Spans, spansOf, union } from '../ranges/spans.js';
import { DEDUP_THRESHOLDS, type DedupThresholds } from './thresholds.js';

/** Why a path is not one the ledger could key a pointer on. */
export type PathProblem = 'none' | 'no-path' | 'unusable-path';

/** One file to plan, as the planner sees it. */
export interface FileInput {
  /** The path as given; `''` when it was not a string. */
  readonly path: string;
  /**
   * `no-path`: not a non-empty string (the file is skipped). `unusable-path`: a
   * string no ledger record could be keyed on — a NUL, a `..` segment, longer
   * than the ledger keeps — planned in full, nothing withheld.
   */
  readonly pathProblem: PathProblem;
  /** The content, or `null` when it was not a string (the file is skipped). */
  readonly content: string | null;
  /** The valid intended spans, normalized. */
  readonly intended: Spans;
  /**
   * The fingerprint of `content`: the caller's when a usable one was passed,
   * else the content's own; `''` when there is no content.
   */
  readonly fingerprint: string;
}

/** The settings every plan of one call shares. */
export interface PlanSettings {
  readonly prior: ProjectState | null;
  readonly enabled: boolean;
  readonly thresholds: DedupThresholds;
  /** The number of the response being planned, `null` when untracked: the plans print it, pointers cite it. */
  readonly callIndex: number | null;
  /** The numbering tag printed beside it, or `null`. */
  readonly generation: string | null;
}

/**
 * A budget with at least one limit (`Infinity`: none), or `null` when there
 * is none; `countTokens` is the host's counter, contained (`null`: none, or
 * no budget in tokens to count for).
 */
export interface BudgetLimits {
  readonly maxChars: number;
  readonly maxTokens: number;
  readonly maxFiles: number;
  /** `budget.policy === 'bank'`: each file sends what it would with dedup off, less its covered runs. */
  readonly bank: boolean;
  readonly countTokens: TokenCounter | null;
}

/** The host's token counter, contained: its count of `text`, or `NaN` when it threw. */
export type TokenCounter = (text: string) => unknown;

/** A `planCall` input, read. */
export interface CallInput extends PlanSettings {
  /** One per entry, in rank order; a path seen before comes with no spans (they joined the first). */
  readonly files: readonly FileInput[];
  readonly budget: BudgetLimits | null;
  /** The hold-back's cap in source chars (`holdBackChars`); `null` when `holdBack: false` turned it off. */
  readonly holdBackChars: number | null;
}

/** A `planFile` or `planRead` input, read (`budget`: `planRead`'s). */
export interface OneFileInput extends PlanSettings {
  readonly file: FileInput;
  readonly budget: BudgetLimits | null;
}

/** A screen of orientation: what the hold-back restores of a file at most, by default. */
const HOLD_BACK_CHARS = 1200;

/** @internal Whether `path` is one a ledger record could be keyed on, and why not. */
export function pathProblem(path: unknown): PathProblem {
  if (!isNonEmptyString(path)) return 'no-path';
  if (path.length > MAX_PATH_CHARS || path.includes('\u0000')) return 'unusable-path';
  return /(^|[\\/])\.\.([\\/]|$)/.test(path) ? 'unusable-path' : 'none';
}

/**
 * One file of a call (or of `planFile`), with `intended` as given. The
 * fingerprint is the caller's when usable, else the content's own.
 */
function readFile(raw: unknown, intended: Spans): FileInput {
  const path = prop(raw, 'path');
  const text = prop(raw, 'content');
  const content = typeof text === 'string' ? text : null;
  return {
    path: stringOf(path),
    pathProblem: pathProblem(path),
    content,
    intended,
    fingerprint:
      content === null ? '' : (readFingerprint(prop(raw, 'fingerprint')) ?? fingerprintOf(content)),
  };
}

function intAtLeast(value: unknown, min: number, fallback: number): number {
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.max(min, Math.floor(value));
}

/**
 * Thresholds filled in from the defaults: a field that is not a number keeps
 * its default; `minCoveredLines` below 1 acts as 1, the others below 0 as 0.
 */
export function readThresholds(raw: unknown): DedupThresholds {
  if (typeof raw !== 'object' || raw === null) return DEDUP_THRESHOLDS;
  const out: Record<string, number> = {};
  for (const [name, fallback] of Object.entries(DEDUP_THRESHOLDS)) {
    out[name] = intAtLeast(prop(raw, name), name === 'minCoveredLines' ? 1 : 0, fallback);
  }
  return Object.freeze(out) as unknown as DedupThresholds;
}

/**
 * A budget of the input `raw` (its `budget`, and the host's `countTokens`): a
 * `maxChars` or `maxFiles` that is not a non-negative number, or a
 * `maxTokens` that is not a positive safe integer, is no limit; no limit at
 * all is `null`.
 */
function readBudget(raw: unknown): BudgetLimits | null {
  const budget = prop(raw, 'budget');
  const maxTokens = prop(budget, 'maxTokens');
  const tokens = isPositiveInteger(maxTokens) ? maxTokens : Infinity;
  const maxChars = limitOr(prop(budget, 'maxChars'), Infinity);
  const maxFiles = Math.floor(limitOr(prop(budget, 'maxFiles'), Infinity));
  if (maxChars === Infinity && maxFiles === Infinity && tokens === Infinity) return null;
  const count = prop(raw, 'countTokens');
  return {
    maxChars,
    maxTokens: tokens,
    maxFiles,
    bank: prop(budget, 'policy') === 'bank',
    countTokens:
      typeof count !== 'function' || tokens === Infinity
        ? null
        : (text) => readOr(() => count(text) as unknown, NaN),
  };
}

function settings(raw: unknown, paths: ReadonlySet<string>): PlanSettings {
  const prior = readPrior(prop(raw, 'prior'), paths);
  return {
    prior,
    enabled: prop(raw, 'enabled') !== false,
    thresholds: readThresholds(prop(raw, 'thresholds')),
    callIndex: prior === null ? null : responseNumber(prior),
    generation: prior?.generation ?? null,
  };
}

/**
 * A `planCall` input: files in rank order (a non-array is none), and its
 * settings. A path given twice is one section: its later entries' spans join
 * the first entry's, and they keep none of their own.
 */
export function readPlanCall(raw: unknown): CallInput {
  const files = readEach(prop(raw, 'files'), (entry) =>
    readFile(entry, readRanges(prop(entry, 'intended'))),
  );
  const first = new Map<string, number>();
  for (const [i, file] of files.entries()) {
    const k = first.get(file.path);
    if (k === undefined) {
      if (file.pathProblem !== 'no-path') first.set(file.path, i);
      continue;
    }
    const f = files[k]!;
    files[k] = { ...f, intended: union(f.intended, file.intended) };
    files[i] = { ...file, intended: NO_SPANS };
  }
  return {
    ...settings(raw, new Set(first.keys())),
    files,
    budget: readBudget(raw),
    holdBackChars:
      prop(raw, 'holdBack') === false ? null : limitOr(prop(raw, 'holdBackChars'), HOLD_BACK_CHARS),
  };
}

/** A `planFile` or `planRead` input, with the spans it asks for. */
function readOneFile(raw: unknown, intended: Spans): OneFileInput {
  const file = readFile(raw, intended);
  const paths = new Set(file.pathProblem === 'none' ? [file.path] : []);
  return { ...settings(raw, paths), file, budget: readBudget(raw) };
}

/** A `planFile` input. */
export function readPlanFile(raw: unknown): OneFileInput {
  return readOneFile(raw, readRanges(prop(raw, 'intended')));
}

/**
 * A `planRead` input: `range` absent (`undefined` or `null`) reads the whole
 * file; a `range` that is not a valid range asks for nothing (the read is
 * skipped, never widened to the whole file).
 */
export function readPlanRead(raw: unknown): OneFileInput {
  const range = prop(raw, 'range');
  let intended = spansOf(WHOLE_FILE);
  if (range !== undefined && range !== null) {
    const one = readRange(range);
    intended = one === null ? NO_SPANS : spansOf([one]);
  }
  return readOneFile(raw, intended);
}

/** A symbol node read: a non-blank name (trimmed), not an import or export, valid lines. */
export interface SymbolExtent {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Symbol nodes as `symbolsInSpans` names them: `{ start, end }` or (Codegraph's
 * shape) `{ startLine, endLine }`; nodes with a blank name, of kind `import` or
 * `export`, or without valid lines are left out.
 */
export function readSymbolNodes(raw: unknown): SymbolExtent[] {
  return readEach(raw, (node) => {
    const raw = prop(node, 'name');
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (name === '') return null;
    const kind = prop(node, 'kind');
    if (kind === 'import' || kind === 'export') return null;
    const start = prop(node, 'start');
    const lines =
      start === undefined
        ? { start: prop(node, 'startLine'), end: prop(node, 'endLine') }
        : { start, end: prop(node, 'end') };
    return isLineRange(lines) ? { name, start: lines.start, end: lines.end } : null;
  });
}

/** A `formatPointer` input, read: every field present and checked. */
export interface PointerParts {
  readonly path: string;
  readonly covered: readonly LineRange[];
  readonly symbols: readonly string[];
  readonly partial: boolean;
  /** Response numbers, valid and each once, in the order given. */
  readonly calls: readonly number[];
  /** Their numbering tag, or `null` (absent: none). */
  readonly generation?: string | null;
  readonly refresh: boolean;
  /** The one-line form, for whole small sections. */
  readonly compact: boolean;
  readonly maxSpansInPointer: number;
  readonly maxSymbolsInPointer: number;
}

/** Names of a foreign list: strings trimmed, non-blank, each once. */
export function readNames(raw: unknown): string[] {
  const names = readEach(raw, (s) => (typeof s === 'string' ? s.trim() : null));
  return [...new Set(names.filter((s) => s !== ''))];
}

/**
 * Response numbers cited (a pointer's `calls`, a plan's `coveredBy`): the
 * positive safe integers of a foreign list, each once, in the order given;
 * anything else in it is left out.
 */
export function readCalls(raw: unknown): number[] {
  return [...new Set(readEach(raw, positiveOrNull))];
}

/** What a pointer is about. */
export function readPointerInput(raw: unknown): PointerParts {
  // The limits read as the thresholds of the same names do.
  const { maxSpansInPointer, maxSymbolsInPointer } = readThresholds(raw);
  return {
    path: stringOf(prop(raw, 'path')),
    covered: readRanges(prop(raw, 'covered')),
    symbols: readNames(prop(raw, 'symbols')),
    partial: prop(raw, 'partial') === true,
    calls: readCalls(prop(raw, 'calls')),
    generation: readGeneration(prop(raw, 'generation')) ?? null,
    refresh: prop(raw, 'refresh') === true,
    compact: prop(raw, 'compact') === true,
    maxSpansInPointer,
    maxSymbolsInPointer,
  };
}
