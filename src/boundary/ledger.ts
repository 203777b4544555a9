/**
 * Internal: turning whatever a renderer, a worker or a client handed over into
 * the ledger's plain shapes. Reads defensively (a getter that throws, a proxy,
 * a revoked proxy all read as "absent"), copies into fresh plain objects, and
 * bounds every collection by the limits. Under-reports, never invents: what
 * cannot be read is dropped, nothing is widened or guessed.
 */
import { freezeProject } from '../ledger/_freeze.js';
import { MAX_EVICTED_COUNTERS, readLimits } from '../ledger/limits.js';
import { projectKey } from '../ledger/project-key.js';
import { normalizeSessionId } from '../ledger/session-id.js';
import type {
  CallRecord,
  Emission,
  EvictedCounters,
  FileEmission,
  Ledger,
  LedgerEntry,
  LedgerLimits,
  ProjectState,
} from '../ledger/types.js';
import { rangesOf } from '../ledger/window.js';
import { coalesceRanges } from '../ranges/coalesce.js';
import type { LineRange } from '../ranges/range.js';
import { own } from './_own.js';
import { addCounts, at, count, isArray, listOf, prop } from './_read.js';

/** Longer roots are not keys anyone spells: such an emission is ignored. */
export const MAX_ROOT_CHARS = 4096;
/** Longer paths are not a file a renderer sent: such a file is dropped (under-report). */
export const MAX_PATH_CHARS = 4096;
/** The query is for diagnostics only; longer ones keep their first chars. */
export const MAX_QUERY_CHARS = 1024;
/** Fingerprints are ~30 chars; a longer one is not ours and proves nothing. */
export const MAX_FINGERPRINT_CHARS = 256;

/** A non-empty string of at most `max` chars, else `undefined`. */
function shortString(x: unknown, max: number): string | undefined {
  return typeof x === 'string' && x !== '' && x.length <= max ? x : undefined;
}

/** One path's entries of an emission, being merged. */
interface Acc {
  readonly path: string;
  readonly first: number;
  chars: number;
  fingerprint: string | undefined;
  /** Every entry so far carried the same non-empty fingerprint. */
  agree: boolean;
  truncated: boolean;
  ranges: unknown[];
}

/** Concatenates the members of several reported range lists, reading each guardedly. */
function gather(lists: readonly unknown[]): unknown {
  if (lists.length === 1) return lists[0];
  const out: unknown[] = [];
  for (const raw of lists) {
    const { list, length } = listOf(raw);
    for (let i = 0; i < length; i++) out.push(at(list, i));
  }
  return out;
}

function coalesce(raw: unknown, max: number): { ranges: LineRange[]; truncated: boolean } {
  try {
    return coalesceRanges(raw as readonly LineRange[], max);
  } catch {
    return { ranges: [], truncated: false };
  }
}

/**
 * The files of an emission as the ledger keeps them: unreadable, non-string or
 * empty paths dropped; entries with one path merged (chars added, spans joined,
 * fingerprint kept only when every entry carried the same one); the
 * `maxFilesPerCall` with the most chars kept, in the order they were reported;
 * each file's spans coalesced to `maxRangesPerFile`.
 */
export function sanitizeFiles(raw: unknown, limits: LedgerLimits): FileEmission[] {
  const { list, length } = listOf(raw);
  const byPath = new Map<string, Acc>();
  const order: Acc[] = [];
  for (let i = 0; i < length; i++) {
    const file = at(list, i);
    const path = shortString(prop(file, 'path'), MAX_PATH_CHARS);
    if (path === undefined) continue;
    const chars = count(prop(file, 'chars'));
    const fingerprint = shortString(prop(file, 'fingerprint'), MAX_FINGERPRINT_CHARS);
    const truncated = prop(file, 'rangesTruncated') === true;
    const ranges = prop(file, 'ranges');
    const acc = byPath.get(path);
    if (acc === undefined) {
      const fresh: Acc = {
        path,
        first: order.length,
        chars,
        fingerprint,
        agree: fingerprint !== undefined,
        truncated,
        ranges: [ranges],
      };
      byPath.set(path, fresh);
      order.push(fresh);
    } else {
      acc.chars = addCounts(acc.chars, chars);
      acc.agree &&= fingerprint !== undefined && fingerprint === acc.fingerprint;
      acc.truncated ||= truncated;
      acc.ranges.push(ranges);
    }
  }
  let kept = order;
  if (order.length > limits.maxFilesPerCall) {
    // Most chars first; on a tie the file reported first. Then back to report order.
    kept = [...order]
      .sort((a, b) => b.chars - a.chars || a.first - b.first)
      .slice(0, limits.maxFilesPerCall)
      .sort((a, b) => a.first - b.first);
  }
  return kept.map((acc) => {
    const { ranges, truncated } = coalesce(gather(acc.ranges), limits.maxRangesPerFile);
    const file: { -readonly [K in keyof FileEmission]: FileEmission[K] } = {
      path: acc.path,
      ranges,
      chars: acc.chars,
    };
    if (acc.agree && acc.fingerprint !== undefined) file.fingerprint = acc.fingerprint;
    if (truncated || acc.truncated) file.rangesTruncated = true;
    return file;
  });
}

/**
 * A plain, bounded copy of an emission, or `null` when it has no usable
 * `projectRoot` (a non-empty string of sane length). Counts that are not
 * finite and non-negative read as 0; a query that is not a string reads as ''.
 */
export function sanitizeEmission(raw: unknown, limits: LedgerLimits): Emission | null {
  const projectRoot = shortString(prop(raw, 'projectRoot'), MAX_ROOT_CHARS);
  if (projectRoot === undefined) return null;
  const query = prop(raw, 'query');
  return {
    projectRoot,
    query: typeof query === 'string' ? query.slice(0, MAX_QUERY_CHARS) : '',
    files: sanitizeFiles(prop(raw, 'files'), limits),
    sourceChars: count(prop(raw, 'sourceChars')),
    responseChars: count(prop(raw, 'responseChars')),
  };
}

/** A call record read from outside (a view in a worker): an emission plus a positive index. */
export function sanitizeRecord(raw: unknown, limits: LedgerLimits): CallRecord | null {
  const index = prop(raw, 'index');
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 1) return null;
  const emission = sanitizeEmission(raw, limits);
  return emission === null ? null : { ...emission, index };
}

/**
 * A ledger event as the reducer trusts it: read once, here, into plain typed
 * data. `session` is the normalized bucket (`null` = the default bucket).
 */
export type CheckedEvent =
  | { readonly type: 'recorded'; readonly session: string | null; readonly emission: Emission }
  | { readonly type: 'forgotten'; readonly session: string }
  | { readonly type: 'cleared' }
  | {
      readonly type: 'pruned';
      readonly session: string | null;
      /** `projectKey` of the root to prune, or `undefined` for every entry of the bucket. */
      readonly key: string | undefined;
      /** The record indexes to drop, or `undefined` for every retained record. */
      readonly calls: ReadonlySet<number> | undefined;
    };

function isCallIndex(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 1;
}

/**
 * The indexes of a `calls` list: `undefined` when absent, `null` when it is
 * not an array of positive safe integers (such a list prunes nothing).
 */
function readCallIndexes(raw: unknown): ReadonlySet<number> | undefined | null {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) return null;
  const { list, length } = listOf(raw);
  const out = new Set<number>();
  for (let i = 0; i < length; i++) {
    const index = at(list, i);
    if (!isCallIndex(index)) return null;
    out.add(index);
  }
  return out;
}

function readPruned(raw: unknown): CheckedEvent | null {
  const root = prop(raw, 'projectRoot');
  let key: string | undefined;
  if (root !== undefined) {
    const usable = shortString(root, MAX_ROOT_CHARS);
    if (usable === undefined) return null;
    key = projectKey(usable);
  }
  const calls = readCallIndexes(prop(raw, 'calls'));
  if (calls === null) return null;
  return {
    type: 'pruned',
    session: normalizeSessionId(prop(raw, 'sessionId')) ?? null,
    key,
    calls,
  };
}

/**
 * An event read from outside, or `null` when it is unknown or malformed (the
 * reducer then returns the ledger as it is): a `recorded` without a usable
 * emission, a `forgotten` whose id names the default bucket (a malformed id
 * must never wipe it), a `pruned` whose `projectRoot` is present but not a
 * usable root, or whose `calls` is present but not an array of positive safe
 * integers.
 */
export function readEvent(raw: unknown, limits: LedgerLimits): CheckedEvent | null {
  switch (prop(raw, 'type')) {
    case 'recorded': {
      const emission = sanitizeEmission(prop(raw, 'emission'), limits);
      if (emission === null) return null;
      const session = normalizeSessionId(prop(raw, 'sessionId')) ?? null;
      return { type: 'recorded', session, emission };
    }
    case 'forgotten': {
      const session = normalizeSessionId(prop(raw, 'sessionId'));
      return session === undefined ? null : { type: 'forgotten', session };
    }
    case 'cleared':
      return { type: 'cleared' };
    case 'pruned':
      return readPruned(raw);
    default:
      return null;
  }
}

/** How many records, and how many ranges over them, a project read from outside keeps. */
export interface RecordWindow {
  readonly calls: number;
  readonly ranges: number;
}

/**
 * A project state read from outside: a usable `projectRoot`, counters as
 * counts, and its most recent readable records (oldest first) within `window`
 * (a view's by default: `maxViewCalls` records, `maxViewRanges` ranges); the
 * oldest records go first, whole.
 */
export function sanitizeProject(
  raw: unknown,
  limits: LedgerLimits,
  window: RecordWindow = { calls: limits.maxViewCalls, ranges: limits.maxViewRanges },
): ProjectState | null {
  const projectRoot = shortString(prop(raw, 'projectRoot'), MAX_ROOT_CHARS);
  if (projectRoot === undefined) return null;
  const callCount = prop(raw, 'callCount');
  const { list, length } = listOf(prop(raw, 'calls'));
  const calls: CallRecord[] = [];
  let ranges = 0;
  for (let i = length - 1; i >= 0 && calls.length < window.calls; i--) {
    const record = sanitizeRecord(at(list, i), limits);
    if (record === null) continue;
    ranges += rangesOf(record);
    if (ranges > window.ranges) break;
    calls.push(record);
  }
  calls.reverse();
  return freezeProject({
    projectRoot,
    callCount:
      typeof callCount === 'number' && Number.isSafeInteger(callCount) && callCount > 0
        ? callCount
        : 0,
    responseChars: count(prop(raw, 'responseChars')),
    calls,
  });
}

function isCounters(c: unknown): c is EvictedCounters {
  const session = prop(c, 'session');
  const key = prop(c, 'key');
  const callCount = prop(c, 'callCount');
  const responseChars = prop(c, 'responseChars');
  return (
    typeof key === 'string' &&
    (session === null || typeof session === 'string') &&
    typeof callCount === 'number' &&
    Number.isSafeInteger(callCount) &&
    callCount >= 0 &&
    typeof responseChars === 'number' &&
    Number.isFinite(responseChars) &&
    responseChars >= 0
  );
}

/** A stored session key: `null` (the default bucket) or an id as `normalizeSessionId` leaves it. */
function readSession(raw: unknown): string | null | undefined {
  if (raw === null) return null;
  return typeof raw === 'string' && normalizeSessionId(raw) === raw ? raw : undefined;
}

/**
 * A ledger that did not come from this library's own hands (it went through
 * JSON, a structured clone or a store), read into a fresh, frozen one, or
 * `null` when it is not a version-1 ledger with an `entries` list. Entries are
 * re-keyed from their roots; each keeps its most recent records within
 * `maxCallsRetained` and `maxRangesRetained`; a second entry with one
 * (session, key) is dropped, and only the `maxProjects` most recently used
 * stay. Malformed parts are dropped, never repaired.
 */
export function readLedger(raw: unknown): Ledger | null {
  if (prop(raw, 'version') !== 1) return null;
  const rawEntries = prop(raw, 'entries');
  if (!isArray(rawEntries)) return null;
  const limits = Object.freeze(readLimits(prop(raw, 'limits')));
  const window = { calls: limits.maxCallsRetained, ranges: limits.maxRangesRetained };
  const entries: LedgerEntry[] = [];
  const seen = new Set<string>();
  const { list, length } = listOf(rawEntries);
  for (let i = 0; i < length; i++) {
    const entry = at(list, i);
    const session = readSession(prop(entry, 'session'));
    if (session === undefined) continue;
    const project = sanitizeProject(prop(entry, 'project'), limits, window);
    if (project === null) continue;
    const key = projectKey(project.projectRoot);
    const id = JSON.stringify([session, key]);
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push(Object.freeze({ session, key, project }));
  }
  const counters = listOf(prop(raw, 'evicted'));
  const evicted: EvictedCounters[] = [];
  for (let i = 0; i < counters.length; i++) {
    const c = at(counters.list, i);
    if (!isCounters(c)) continue;
    const { session, key, callCount, responseChars } = c;
    evicted.push(Object.freeze({ session, key, callCount, responseChars }));
  }
  // Past maxProjects the least recently used go, as the reducer evicts them:
  // whole, keeping their counters.
  const over = Math.max(0, entries.length - limits.maxProjects);
  for (const { session, key, project } of entries.slice(0, over)) {
    const { callCount, responseChars } = project;
    evicted.push(Object.freeze({ session, key, callCount, responseChars }));
  }
  return own(
    Object.freeze({
      version: 1,
      limits,
      entries: Object.freeze(entries.slice(over)),
      evicted: Object.freeze(evicted.slice(-MAX_EVICTED_COUNTERS)),
    }),
  );
}
