/**
 * Reading a ledger that did not come from this library's own hands
 * (it went through JSON, a structured clone, or a shared store) into a fresh,
 * frozen one the reducer and the selectors can trust.
 */

import {
  at,
  count,
  isArray,
  isNonNegativeInteger,
  listOf,
  positiveIntegers,
  prop,
  readEach,
} from '../boundary/read.js';
import { withGeneration } from './frozen.js';
import { MAX_EVICTED_COUNTERS, MAX_PENDING } from './limits.js';
import { projectKey } from './project-key.js';
import { readGeneration } from './random.js';
import { readLimits } from './read-limits.js';
import { sanitizeProject } from './read-view.js';
import { evictedOver } from './reduce.js';
import { normalizeSessionId } from './session-id.js';
import type { EvictedCounters, Ledger, LedgerEntry } from './types.js';

/**
 * An evicted entry's counters, each field read once, or `null` when one is
 * malformed; its generation only when it is a numbering tag.
 */
function readCounters(c: unknown): EvictedCounters | null {
  const session = prop(c, 'session');
  const key = prop(c, 'key');
  const callCount = prop(c, 'callCount');
  const responseChars = prop(c, 'responseChars');
  const usable =
    typeof key === 'string' &&
    (session === null || typeof session === 'string') &&
    isNonNegativeInteger(callCount) &&
    // A count is what `count` keeps as it is: a finite, non-negative number.
    count(responseChars) === responseChars;
  if (!usable) return null;
  return withGeneration(
    { session, key, callCount, responseChars },
    readGeneration(prop(c, 'generation')),
  );
}

/**
 * An entry's reserved numbers: a list of at most `MAX_PENDING` positive
 * integers, those up to its `callCount`; anything else holds none (a call
 * whose number is not held records nothing: under-report).
 */
function readPending(raw: unknown, callCount: number): readonly number[] {
  const numbers = positiveIntegers(raw, MAX_PENDING) ?? [];
  return Object.freeze(numbers.filter((n) => n <= callCount));
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
    const project = sanitizeProject(prop(entry, 'project'), limits, window, true);
    if (project === null) continue;
    const key = projectKey(project.projectRoot);
    const id = JSON.stringify([session, key]);
    if (seen.has(id)) continue;
    seen.add(id);
    const pending = readPending(prop(entry, 'pending'), project.callCount);
    entries.push(Object.freeze({ session, key, project, pending }));
  }
  const evicted = readEach(prop(raw, 'evicted'), readCounters);
  // Past maxProjects the least recently used go, as the reducer evicts them.
  return evictedOver(limits, entries, evicted.slice(-MAX_EVICTED_COUNTERS));
}
