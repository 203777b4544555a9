/**
 * The session ledger as a reducer: `(ledger, event) => ledger` over plain,
 * readonly data. Every session's record of what it was served, bounded in
 * memory and never written to disk (a shared store keeps it only for the
 * session's idle lifetime). This file is the public face: it reads the ledger
 * and the event once and hands them to `reduce.ts`, which decides what is
 * kept. It renders nothing and decides nothing about what a call may withhold
 * (that is the dedup layer's, reading the view through the selectors).
 */
import { isOwn } from '../boundary/own.js';
import { readEvent } from './read-event.js';
import { readLedger } from './read-ledger.js';
import { checkLimits } from './read-limits.js';
import { applyEvent, emptyView, ledgerOf, viewOf } from './reduce.js';
import { bucketOf } from './session-id.js';
import type { Ledger, LedgerEvent, LedgerLimits, SessionView } from './types.js';

/**
 * An empty ledger. `limits` may name any of the bounds; the others keep
 * {@link DEFAULT_LIMITS}.
 *
 * @throws {TypeError} when `limits` is not an object, or a field of it is not a
 *   non-negative safe integer (`createLedger(limits): limits.maxProjects must be a non-negative safe integer`).
 * @example
 * ```ts
 * createLedger().limits.maxCallsRetained;               // 8
 * createLedger({ maxProjects: 16 }).limits.maxProjects; // 16
 * createLedger({ maxProjects: -1 }); // throws TypeError: limits.maxProjects must be a non-negative safe integer
 * ```
 */
export function createLedger(limits?: Partial<LedgerLimits>): Ledger {
  return ledgerOf(Object.freeze(checkLimits(limits, 'createLedger(limits)')), [], []);
}

/**
 * The next ledger after `event`. Pure: never throws, never mutates `ledger`,
 * and shares every entry, record and file the event did not change. The event
 * is read once, at the boundary; the ledger is trusted as it is when this
 * library built it (everything it builds is deep-frozen), and read through the
 * boundary like any foreign input when it is not (it went through JSON or a
 * structured clone). What it returns is deep-frozen.
 *
 * - `reserved` — a call being planned takes the next number of (session
 *   bucket, `projectKey(projectRoot)`): `callCount` += 1, and that number is
 *   held for it (pending) until it records. The entry becomes the most
 *   recently used; one created from nothing takes the event's `generation`
 *   as its numbering tag.
 * - `recorded` — the emission is copied and bounded (see below) into the entry
 *   for (session bucket, `projectKey(projectRoot)`), which becomes the most
 *   recently used. A new entry past `maxProjects` evicts the least recently
 *   used one, whole (the bound counts entries across all sessions); its
 *   counters and tag are kept aside, so if it comes back it goes on counting.
 *   An emission that carries the number its response printed (`index`, and
 *   its `generation`) is recorded under that number when it is reserved for
 *   it or is the next one, in the same numbering, and not at all otherwise;
 *   one without a number takes the next (`callCount` += 1). `responseChars`
 *   += the emission's; the record's `index` keeps counting after old records
 *   leave the window and after the entry itself was evicted. Only the most
 *   recent records within `maxCallsRetained` and `maxRangesRetained` stay
 *   (the oldest go first, whole).
 * - `forgotten` — drops every entry (and kept counter) of that session bucket. An id that
 *   normalizes to the default bucket (blank, not a string) clears nothing: a
 *   malformed id must never wipe the shared default bucket.
 * - `cleared` — drops every entry and kept counter.
 * - `pruned` — the agent no longer holds what some calls delivered: drops the
 *   retained records of that bucket (the default bucket too) whose `index` is
 *   in `calls` (all of them when `calls` is absent), of `projectRoot`'s entry
 *   only when it is given; a named number still reserved is released (its
 *   call records nothing). Counters and recency are untouched. `calls` that is
 *   not an array of positive safe integers, or a `projectRoot` that is present
 *   but not a usable root, prunes nothing.
 *
 * What a record keeps of an emission: files with a non-empty string `path`;
 * entries with one path merged (their fingerprint kept only if all agree);
 * the `maxFilesPerCall` files with the most `chars`; per file its spans through
 * `coalesceRanges(…, maxRangesPerFile)` with `rangesTruncated` set when that
 * cut; `fingerprint` only when a non-empty string. Counts that are not finite
 * and non-negative count as 0; a query that is not a string is ''. Every cut
 * forgets a span, none invents one.
 *
 * An unknown or malformed event, or an emission without a non-empty string
 * `projectRoot`, returns the **same** ledger object, as does an event that
 * changes nothing (`forgotten` of a session with no entries, a `pruned` that
 * matches no record).
 *
 * @example
 * ```ts
 * let ledger = createLedger();
 * ledger = ledgerReducer(ledger, {
 *   type: 'recorded',
 *   sessionId: 'conn-1',
 *   emission: { projectRoot: '/repo', query: 'auth', sourceChars: 900, responseChars: 1400,
 *     files: [{ path: 'src/auth.ts', ranges: [{ start: 1, end: 40 }], chars: 900, fingerprint: '900:0123456789abcdef' }] },
 * });
 * sessionView(ledger, 'conn-1').projects[0]?.calls[0]?.index; // 1
 * ledgerReducer(ledger, { type: 'forgotten', sessionId: '  ' }) === ledger; // true: a blank id clears nothing
 * ledger = ledgerReducer(ledger, { type: 'pruned', sessionId: 'conn-1', calls: [1] });
 * sessionView(ledger, 'conn-1').projects[0]?.callCount;    // 1: counters stay
 * sessionView(ledger, 'conn-1').projects[0]?.calls.length; // 0: the record is gone
 * ```
 */
export function ledgerReducer(ledger: Ledger, event: LedgerEvent): Ledger {
  const mine = ownLedger(ledger);
  if (mine === null) return ledger;
  const checked = readEvent(event, mine.limits);
  if (checked === null) return ledger;
  const next = applyEvent(mine, checked);
  // An event that changed nothing answers the ledger it was given.
  return next === mine ? ledger : next;
}

/** The ledger as this library built it: itself when it is, else read through the boundary. */
function ownLedger(ledger: unknown): Ledger | null {
  return isOwn(ledger) ? (ledger as Ledger) : readLedger(ledger);
}

/**
 * What one session may see: its own bucket's projects only (least recently
 * used first), each trimmed to its most recent calls within `maxViewCalls`
 * and `maxViewRanges` (the oldest go first, whole). Frozen. A session the
 * ledger has not seen gets `{ version: 1, projects: [] }` — tracked, but with
 * nothing served yet (never `null`: `null` means nobody tracks the call).
 * Never throws.
 *
 * @example
 * ```ts
 * const emission = { projectRoot: '/repo', query: 'q', files: [], sourceChars: 0, responseChars: 10 };
 * let ledger = createLedger();
 * for (let i = 0; i < 6; i++) ledger = ledgerReducer(ledger, { type: 'recorded', emission, sessionId: 'conn-1' });
 * const [project] = sessionView(ledger, 'conn-1').projects;
 * project?.callCount;                          // 6
 * project?.calls.map((c) => c.index);          // [3, 4, 5, 6]: the last maxViewCalls (4)
 * sessionView(ledger, 'conn-2');               // → { version: 1, projects: [] }
 * ```
 */
export function sessionView(ledger: Ledger, sessionId?: string): SessionView {
  const mine = ownLedger(ledger);
  const session = bucketOf(sessionId);
  return mine === null ? emptyView() : viewOf(mine, session);
}
