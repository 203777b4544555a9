/**
 * Internal: one session bucket's ledger read back from a shared store (a
 * Redis value written by another process, or by anyone with access to it).
 * The text is foreign: it may be hand-edited, truncated, another program's,
 * or written under other limits. Either it reads as a sound bucket ledger —
 * copied into fresh frozen objects and bounded by this store's limits — or it
 * reads as nothing, and the store starts the bucket empty (under-report: the
 * next call re-sends, nothing is withheld on the strength of a bad value).
 *
 * Not a general ledger reader: a bucket's value holds its entries under the
 * default bucket (`session: null`), because the value must not name the
 * session it belongs to; an entry naming any session is not ours.
 */

import { MAX_EVICTED_COUNTERS } from '../ledger/limits.js';
import type {
  CallRecord,
  EvictedCounters,
  LedgerEntry,
  LedgerLimits,
  ProjectState,
} from '../ledger/types.js';
import { MAX_ROOT_CHARS, sanitizeRecord } from './ledger.js';

/**
 * Longer values are not a bounded ledger (about 42 KB after 10,000 calls
 * under the default limits): they are read as nothing rather than parsed.
 */
export const MAX_STORED_CHARS = 16 * 1024 * 1024;

/** What a stored bucket ledger contributes to the store's ledger. */
export interface StoredParts {
  readonly entries: readonly LedgerEntry[];
  readonly evicted: readonly EvictedCounters[];
}

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCallCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

function isChars(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}

/** The last `max` members of `list` (none when `max` is 0). */
function lastOf<T>(list: readonly T[], max: number): T[] {
  return list.slice(Math.max(0, list.length - max));
}

function freezeRecord(record: CallRecord): CallRecord {
  for (const file of record.files) {
    for (const range of file.ranges) Object.freeze(range);
    Object.freeze(file.ranges);
    Object.freeze(file);
  }
  Object.freeze(record.files);
  return Object.freeze(record);
}

/**
 * A project as the reducer writes it: a usable root, counters, and records
 * whose indexes rise and never pass the call count. The last
 * `maxCallsRetained` records are kept.
 */
function readProject(raw: unknown, limits: LedgerLimits): ProjectState | null {
  if (!isObject(raw)) return null;
  const { projectRoot, callCount, responseChars, calls } = raw;
  if (typeof projectRoot !== 'string' || projectRoot === '' || projectRoot.length > MAX_ROOT_CHARS)
    return null;
  if (!isCallCount(callCount) || !isChars(responseChars) || !Array.isArray(calls)) return null;
  const records: CallRecord[] = [];
  let last = 0;
  for (const call of calls) {
    const record = sanitizeRecord(call, limits);
    if (record === null || record.index <= last || record.index > callCount) return null;
    last = record.index;
    records.push(freezeRecord(record));
  }
  return Object.freeze({
    projectRoot,
    callCount,
    responseChars,
    calls: Object.freeze(lastOf(records, limits.maxCallsRetained)),
  });
}

function readEntries(raw: unknown, limits: LedgerLimits): LedgerEntry[] | null {
  if (!Array.isArray(raw)) return null;
  const keys = new Set<string>();
  const entries: LedgerEntry[] = [];
  for (const entry of raw) {
    if (!isObject(entry) || entry.session !== null) return null;
    const { key } = entry;
    if (typeof key !== 'string' || keys.has(key)) return null;
    keys.add(key);
    const project = readProject(entry.project, limits);
    if (project === null) return null;
    entries.push(Object.freeze({ session: null, key, project }));
  }
  return lastOf(entries, limits.maxProjects);
}

function readCounters(raw: unknown): EvictedCounters[] | null {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return null;
  const counters: EvictedCounters[] = [];
  for (const c of raw) {
    if (!isObject(c) || c.session !== null || typeof c.key !== 'string') return null;
    if (!isCallCount(c.callCount) || !isChars(c.responseChars)) return null;
    counters.push(
      Object.freeze({
        session: null,
        key: c.key,
        callCount: c.callCount,
        responseChars: c.responseChars,
      }),
    );
  }
  return lastOf(counters, MAX_EVICTED_COUNTERS);
}

/**
 * The entries and kept counters of a stored bucket ledger, or `null` when
 * `text` is not one (not JSON, not version 1, a part of the wrong shape, an
 * entry of a named session, a key twice, records out of order).
 */
export function readStoredLedger(text: string, limits: LedgerLimits): StoredParts | null {
  if (text.length > MAX_STORED_CHARS) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw) || raw.version !== 1) return null;
  const entries = readEntries(raw.entries, limits);
  const evicted = entries === null ? null : readCounters(raw.evicted);
  if (entries === null || evicted === null) return null;
  return { entries: Object.freeze(entries), evicted: Object.freeze(evicted) };
}
