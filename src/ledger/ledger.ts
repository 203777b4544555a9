/**
 * The session ledger as a reducer: `(ledger, event) => ledger` over plain,
 * readonly data. Every session's record of what it was served, bounded in
 * memory, never persisted. This file decides what is kept; it renders nothing
 * and decides nothing about what a call may withhold (that is the dedup layer's,
 * reading the view through the selectors).
 */
import { addCounts, listOf, prop } from '../boundary/_read.js';
import { sanitizeEmission } from '../boundary/ledger.js';
import { checkLimits, MAX_EVICTED_COUNTERS, readLimits } from './limits.js';
import { projectKey } from './project-key.js';
import { normalizeSessionId } from './session-id.js';
import type {
  CallRecord,
  EvictedCounters,
  Ledger,
  LedgerEntry,
  LedgerEvent,
  LedgerLimits,
  ProjectState,
  SessionView,
} from './types.js';

/**
 * An empty ledger. `limits` may name any of the bounds; the others keep
 * {@link DEFAULT_LIMITS}.
 *
 * @throws {TypeError} when `limits` is not an object, or a field of it is not a
 *   non-negative safe integer (`createLedger(limits): limits.maxProjects must be a non-negative safe integer`).
 * @example
 * ```ts
 * createLedger();
 * // → { version: 1, limits: { maxProjects: 4, maxCallsRetained: 8, … }, entries: [], evicted: [] }
 * createLedger({ maxProjects: 16 }).limits.maxProjects; // 16
 * ```
 */
export function createLedger(limits?: Partial<LedgerLimits>): Ledger {
  const checked = Object.freeze(checkLimits(limits, 'createLedger(limits)'));
  return Object.freeze({
    version: 1,
    limits: checked,
    entries: Object.freeze([]),
    evicted: Object.freeze([]),
  });
}

/**
 * The next ledger after `event`. Pure: never throws, never mutates `ledger`,
 * and shares every entry, record and file the event did not change.
 *
 * - `recorded` — the emission is copied and bounded (see below) into the entry
 *   for (session bucket, `projectKey(projectRoot)`), which becomes the most
 *   recently used. A new entry past `maxProjects` evicts the least recently
 *   used one, whole (the bound counts entries across all sessions); its
 *   counters are kept aside, so if it comes back it goes on counting.
 *   `callCount` += 1 and `responseChars` += the emission's; the record's
 *   `index` is the new `callCount`, so it keeps counting after old records
 *   leave the window and after the entry itself was evicted. Only the last
 *   `maxCallsRetained` records stay.
 * - `forgotten` — drops every entry (and kept counter) of that session bucket. An id that
 *   normalizes to the default bucket (blank, not a string) clears nothing: a
 *   malformed id must never wipe the shared default bucket.
 * - `cleared` — drops every entry and kept counter.
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
 * changes nothing (`forgotten` of a session with no entries).
 *
 * @example
 * ```ts
 * let ledger = createLedger();
 * ledger = ledgerReducer(ledger, {
 *   type: 'recorded',
 *   sessionId: 'conn-1',
 *   emission: { projectRoot: '/repo', query: 'auth', sourceChars: 900, responseChars: 1400,
 *     files: [{ path: 'src/auth.ts', ranges: [{ start: 1, end: 40 }], chars: 900, fingerprint: fp }] },
 * });
 * sessionView(ledger, 'conn-1').projects[0].calls[0].index; // 1
 * ledgerReducer(ledger, { type: 'forgotten', sessionId: '  ' }) === ledger; // true
 * ```
 */
export function ledgerReducer(ledger: Ledger, event: LedgerEvent): Ledger {
  try {
    const entries = prop(ledger, 'entries');
    if (!Array.isArray(entries)) return ledger;
    switch (prop(event, 'type')) {
      case 'recorded':
        return recorded(ledger, entries, event);
      case 'forgotten': {
        const session = normalizeSessionId(prop(event, 'sessionId'));
        if (session === undefined) return ledger;
        const evicted = evictedOf(ledger);
        const kept = entries.filter((e) => prop(e, 'session') !== session);
        const keptCounters = evicted.filter((c) => c.session !== session);
        if (kept.length === entries.length && keptCounters.length === evicted.length) return ledger;
        return Object.freeze({
          ...ledger,
          entries: Object.freeze(kept),
          evicted: Object.freeze(keptCounters),
        });
      }
      case 'cleared':
        return entries.length === 0 && evictedOf(ledger).length === 0
          ? ledger
          : Object.freeze({ ...ledger, entries: Object.freeze([]), evicted: Object.freeze([]) });
      default:
        return ledger;
    }
  } catch {
    // A bookkeeping fault leaves the ledger as it was.
    return ledger;
  }
}

function recorded(ledger: Ledger, entries: readonly LedgerEntry[], event: unknown): Ledger {
  const limits = readLimits(prop(ledger, 'limits'));
  const emission = sanitizeEmission(prop(event, 'emission'), limits);
  if (emission === null) return ledger;
  const session = normalizeSessionId(prop(event, 'sessionId')) ?? null;
  const key = projectKey(emission.projectRoot);

  const at = entries.findIndex((e) => e.session === session && e.key === key);
  const prev = at >= 0 ? entries[at]!.project : undefined;
  // An entry evicted earlier goes on counting from where it stopped.
  let evicted = evictedOf(ledger);
  const back = at >= 0 ? -1 : evicted.findIndex((c) => c.session === session && c.key === key);
  const counted = prev ?? evicted[back];
  if (back >= 0) evicted = evicted.filter((_, i) => i !== back);
  const callCount = (counted?.callCount ?? 0) + 1;
  const record = freezeRecord({ ...emission, index: callCount });
  const project: ProjectState = Object.freeze({
    projectRoot: emission.projectRoot,
    callCount,
    responseChars: addCounts(counted?.responseChars ?? 0, emission.responseChars),
    calls: retain(prev?.calls ?? [], record, limits.maxCallsRetained),
  });

  const next: LedgerEntry[] = [];
  for (let i = 0; i < entries.length; i++) if (i !== at) next.push(entries[i]!);
  next.push(Object.freeze({ session, key, project }));
  // Least recently used first: evict from the front, whole entries, keeping
  // only their counters.
  const over = Math.max(0, next.length - limits.maxProjects);
  if (over > 0) {
    const gone = next.slice(0, over).map((e) =>
      Object.freeze({
        session: e.session,
        key: e.key,
        callCount: e.project.callCount,
        responseChars: e.project.responseChars,
      }),
    );
    evicted = [...evicted, ...gone].slice(-MAX_EVICTED_COUNTERS);
  }
  return Object.freeze({
    ...ledger,
    entries: Object.freeze(next.slice(over)),
    evicted: Object.freeze(evicted),
  });
}

/**
 * The kept counters of evicted entries. A ledger from before they existed, or
 * one whose list is unreadable, remembers none (forgetting only resets a count).
 */
function evictedOf(ledger: Ledger): readonly EvictedCounters[] {
  const list = prop(ledger, 'evicted');
  if (!Array.isArray(list)) return [];
  // Shared as it is when every member is sound, the common case.
  return list.every(isCounters) ? list : list.filter(isCounters);
}

function isCounters(c: unknown): c is EvictedCounters {
  if (c === null || typeof c !== 'object') return false;
  const { session, key, callCount, responseChars } = c as Record<string, unknown>;
  return (
    typeof key === 'string' &&
    (session === null || typeof session === 'string') &&
    Number.isSafeInteger(callCount) &&
    (callCount as number) >= 0 &&
    Number.isFinite(responseChars) &&
    (responseChars as number) >= 0
  );
}

/**
 * Freezes a fresh record all the way down. A view hands these very objects to
 * a tool in the same thread; a tool that wrote to one would otherwise rewrite
 * what the session was served.
 */
function freezeRecord(record: CallRecord): CallRecord {
  for (const file of record.files) {
    for (const range of file.ranges) Object.freeze(range);
    Object.freeze(file.ranges);
    Object.freeze(file);
  }
  Object.freeze(record.files);
  return Object.freeze(record);
}

/** The last `keep` records after appending `record`, oldest first; older ones shared. */
function retain(
  calls: readonly CallRecord[],
  record: CallRecord,
  keep: number,
): readonly CallRecord[] {
  if (keep === 0) return Object.freeze([]);
  const from = Math.max(0, calls.length - (keep - 1));
  const out = calls.slice(from);
  out.push(record);
  return Object.freeze(out);
}

/**
 * What one session may see: its own bucket's projects only (least recently
 * used first), each trimmed to its last `maxViewCalls` calls. A session the
 * ledger has not seen gets `{ version: 1, projects: [] }` — tracked, but with
 * nothing served yet (never `null`: `null` means nobody tracks the call).
 * Never throws.
 *
 * @example
 * ```ts
 * sessionView(ledger, 'conn-1');
 * // → { version: 1, projects: [{ projectRoot: '/repo', callCount: 9, responseChars: 12000, calls: [ …last 4… ] }] }
 * sessionView(createLedger(), 'conn-2'); // → { version: 1, projects: [] }
 * ```
 */
export function sessionView(ledger: Ledger, sessionId?: string): SessionView {
  const projects: ProjectState[] = [];
  try {
    const session = normalizeSessionId(sessionId) ?? null;
    const keep = readLimits(prop(ledger, 'limits')).maxViewCalls;
    const { list, length } = listOf(prop(ledger, 'entries'));
    for (let i = 0; i < length; i++) {
      const entry = list[i] as LedgerEntry;
      if (entry?.session !== session) continue;
      const project = entry.project;
      const calls = project.calls;
      projects.push(
        calls.length <= keep
          ? project
          : Object.freeze({ ...project, calls: Object.freeze(calls.slice(calls.length - keep)) }),
      );
    }
  } catch {
    // Under-report: what could not be read is not in the view.
  }
  return Object.freeze({ version: 1, projects: Object.freeze(projects) });
}
