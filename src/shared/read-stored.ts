/**
 * One session bucket's ledger read back from a shared store (a
 * Redis value written by another process, or by anyone with access to it).
 * The text is foreign: it may be hand-edited, truncated, another program's,
 * or written under other limits. Text that is not a version-1 ledger reads as
 * nothing, and the store starts the bucket empty (under-report: the next call
 * re-sends); a ledger is read through `readLedger`, under this store's limits,
 * whatever limits the value names.
 *
 * A bucket's value holds its entries under the default bucket (`session:
 * null`), because the value must not name the session it belongs to: an entry
 * or counter naming any session is not this store's, and is dropped so that
 * the next write does not carry it on.
 */

import { parseJson } from '../boundary/read.js';
import { readLedger } from '../ledger/read-ledger.js';
import type { Ledger, LedgerLimits } from '../ledger/types.js';

/**
 * Longer values are not a bounded ledger (about 42 KB after 10,000 calls
 * under the default limits): they are read as nothing rather than parsed.
 */
export const MAX_STORED_CHARS = 16 * 1024 * 1024;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The members of a stored list that belong to the bucket itself; a non-list as it is. */
function ofBucket(list: unknown): unknown {
  return Array.isArray(list) ? list.filter((x) => isRecord(x) && x.session === null) : list;
}

/**
 * The bucket ledger `text` holds, bounded by `limits`, or `null` when `text`
 * is not one (too long, not JSON, not a version-1 ledger with an `entries`
 * list).
 */
export function readStoredLedger(text: string, limits: LedgerLimits): Ledger | null {
  if (text.length > MAX_STORED_CHARS) return null;
  const raw = parseJson(text);
  if (!isRecord(raw)) return null;
  return readLedger({
    version: raw.version,
    limits,
    entries: ofBucket(raw.entries),
    evicted: ofBucket(raw.evicted),
  });
}
