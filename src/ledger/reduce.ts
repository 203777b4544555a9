/**
 * The reducer's inside: what an event does to a ledger this library built,
 * what one session's view of it is, and which record a `recorded` just
 * appended. Everything here trusts its input — the event was read by
 * `read-event.ts`, the ledger is deep-frozen library data — and hands out
 * deep-frozen data again.
 */
import { own } from '../boundary/own.js';
import { addCounts } from './counts.js';
import { countersOf, freezeEmission, withGeneration } from './frozen.js';
import { MAX_EVICTED_COUNTERS, MAX_PENDING } from './limits.js';
import { projectKey } from './project-key.js';
import type { CheckedEvent } from './read-event.js';
import type {
  CallRecord,
  Emission,
  EvictedCounters,
  Ledger,
  LedgerEntry,
  LedgerLimits,
  ProjectState,
  Reservation,
  SessionView,
} from './types.js';
import { appendWithin, recentWithin } from './window.js';

/**
 * The ledger after an event already read: the same ledger object when the
 * event changes nothing. `ledger` is one this library built.
 */
export function applyEvent(ledger: Ledger, event: CheckedEvent): Ledger {
  switch (event.type) {
    case 'reserved':
      return reserved(ledger, event.session, event.projectRoot, event.generation);
    case 'recorded':
      return recorded(ledger, event.session, event.emission);
    case 'forgotten':
      return without(ledger, (session) => session === event.session);
    case 'cleared':
      return without(ledger, () => true);
    case 'pruned':
      return pruned(ledger, event.session, event.key, event.calls);
  }
}

/**
 * `ledger` without the entries and kept counters of the buckets `gone` names
 * (every bucket, for `cleared`): the same ledger when that is none.
 */
function without(ledger: Ledger, gone: (session: string | null) => boolean): Ledger {
  const entries = ledger.entries.filter((e) => !gone(e.session));
  const evicted = ledger.evicted.filter((c) => !gone(c.session));
  if (entries.length === ledger.entries.length && evicted.length === ledger.evicted.length) {
    return ledger;
  }
  return ledgerOf(ledger.limits, entries, evicted);
}

/**
 * @internal A ledger of `limits` (frozen already) holding `entries` and
 * `evicted`, frozen and marked as the library's own: the one way every
 * ledger is made (created, reduced, read back).
 */
export function ledgerOf(
  limits: LedgerLimits,
  entries: readonly LedgerEntry[],
  evicted: readonly EvictedCounters[],
): Ledger {
  return own(
    Object.freeze({
      version: 1,
      limits,
      entries: Object.freeze(entries),
      evicted: Object.freeze(evicted),
    }),
  );
}

/**
 * Where (session, project) stands in a ledger: its live entry (`at`), else
 * the counters it left when it was evicted (`back`), else nothing. An entry
 * that exists, or whose counters were kept, goes on counting in its
 * generation; one made from nothing starts at 1.
 */
interface Place {
  readonly session: string | null;
  readonly key: string;
  readonly at: number;
  readonly back: number;
  readonly entry: LedgerEntry | undefined;
  /** The live project, or the evicted counters, or `undefined` for a bucket made from nothing. */
  readonly held: ProjectState | EvictedCounters | undefined;
}

function placeOf(ledger: Ledger, session: string | null, projectRoot: string): Place {
  const key = projectKey(projectRoot);
  const mine = (e: { session: string | null; key: string }) =>
    e.session === session && e.key === key;
  const at = ledger.entries.findIndex(mine);
  const back = at < 0 ? ledger.evicted.findIndex(mine) : -1;
  const entry = ledger.entries[at];
  return { session, key, at, back, entry, held: entry?.project ?? ledger.evicted[back] };
}

/**
 * A call took the next number of (session, project): counted, and held as
 * pending until its record comes. A bucket made from nothing takes
 * `generation`, the event's fresh tag; one that exists keeps its own.
 */
function reserved(
  ledger: Ledger,
  session: string | null,
  projectRoot: string,
  generation: string | undefined,
): Ledger {
  const place = placeOf(ledger, session, projectRoot);
  const { held, entry } = place;
  const callCount = (held?.callCount ?? 0) + 1;
  const project = withGeneration(
    {
      projectRoot,
      callCount,
      responseChars: held?.responseChars ?? 0,
      calls: entry?.project.calls ?? Object.freeze([]),
    },
    held === undefined ? generation : held.generation,
  );
  return placed(ledger, place, project, [...(entry?.pending ?? []), callCount].slice(-MAX_PENDING));
}

/**
 * The number a record of (session, project) goes under, and whether the
 * call was counted already (`reserved`), or `null` when it goes nowhere. A
 * record with the number its response printed (`index`) goes under that
 * number only, in the same generation: when it was reserved for it, or when
 * it is the next number (a host that numbered from the view it planned
 * with, without reserving). Otherwise — recorded already, taken by an
 * overlapping call, released by a prune, the bucket lost and numbering
 * again — nowhere: a record is never moved to another number. Without a
 * number, it goes under the next one.
 */
function numberOf(
  place: Place,
  index: number | undefined,
  generation: string | undefined,
): { readonly index: number; readonly reserved: boolean } | null {
  const next = (place.held?.callCount ?? 0) + 1;
  if (index === undefined) return { index: next, reserved: false };
  if (generation !== place.held?.generation) return null;
  if (place.entry?.pending.includes(index)) return { index, reserved: true };
  return index === next ? { index, reserved: false } : null;
}

/**
 * A response was delivered: its record appended to (session, project) under
 * its number ({@link numberOf}), which is no longer pending; a call not
 * reserved is counted now. A record that goes nowhere leaves the ledger as it is.
 */
function recorded(ledger: Ledger, session: string | null, emission: Emission): Ledger {
  const place = placeOf(ledger, session, emission.projectRoot);
  const { index, generation, ...fields } = emission;
  const number = numberOf(place, index, generation);
  if (number === null) return ledger;
  const { held, entry } = place;
  const { limits } = ledger;
  const record = freezeEmission({ ...fields, index: number.index });
  const calls = entry?.project.calls ?? [];
  const project = withGeneration(
    {
      projectRoot: emission.projectRoot,
      callCount: (held?.callCount ?? 0) + (number.reserved ? 0 : 1),
      responseChars: addCounts(held?.responseChars ?? 0, emission.responseChars),
      calls: Object.freeze(
        appendWithin(calls, record, limits.maxCallsRetained, limits.maxRangesRetained),
      ),
    },
    held?.generation,
  );
  const pending = entry?.pending ?? [];
  return placed(
    ledger,
    place,
    project,
    pending.filter((n) => n !== number.index),
  );
}

/**
 * `ledger` with (session, project) as `project` and `pending`, the most
 * recently used entry; a new entry past `maxProjects` evicts the least
 * recently used, whole, keeping only its counters and generation.
 */
function placed(
  ledger: Ledger,
  place: Place,
  project: ProjectState,
  pending: readonly number[],
): Ledger {
  const { limits } = ledger;
  const { session, key, at, back } = place;
  const next = ledger.entries.filter((_, i) => i !== at);
  next.push(Object.freeze({ session, key, project, pending: Object.freeze(pending) }));
  const evicted = back < 0 ? ledger.evicted : ledger.evicted.filter((_, i) => i !== back);
  return evictedOver(limits, next, evicted);
}

/**
 * @internal A ledger of `entries` (least recently used first) within
 * `maxProjects`: the entries past it are evicted from the front, whole,
 * keeping only their counters and generation beside `evicted` (at most
 * `MAX_EVICTED_COUNTERS` of them). The reducer and a stored ledger read back
 * evict alike.
 */
export function evictedOver(
  limits: LedgerLimits,
  entries: readonly LedgerEntry[],
  evicted: readonly EvictedCounters[],
): Ledger {
  const over = Math.max(0, entries.length - limits.maxProjects);
  const kept =
    over > 0
      ? [...evicted, ...entries.slice(0, over).map(countersOf)].slice(-MAX_EVICTED_COUNTERS)
      : evicted;
  return ledgerOf(limits, entries.slice(over), kept);
}

/**
 * Drops the named records of the bucket's entries (of the one entry `key`
 * names, when given); every retained record when `calls` is undefined.
 * Counters and recency stay as they are.
 */
function pruned(
  ledger: Ledger,
  session: string | null,
  key: string | undefined,
  calls: ReadonlySet<number> | undefined,
): Ledger {
  let changed = false;
  const entries = ledger.entries.map((entry) => {
    if (entry.session !== session || (key !== undefined && entry.key !== key)) return entry;
    const held = entry.project.calls;
    const kept = calls === undefined ? [] : held.filter((c) => !calls.has(c.index));
    // A named number still reserved is released: that call records nothing now.
    const pending =
      calls === undefined ? entry.pending : entry.pending.filter((n) => !calls.has(n));
    if (kept.length === held.length && pending.length === entry.pending.length) return entry;
    changed = true;
    const project = Object.freeze({ ...entry.project, calls: Object.freeze(kept) });
    return Object.freeze({ ...entry, project, pending: Object.freeze(pending) });
  });
  return changed ? ledgerOf(ledger.limits, entries, ledger.evicted) : ledger;
}

/**
 * One bucket's view of a ledger this library built: its projects (least
 * recently used first), each trimmed to its most recent calls within
 * `maxViewCalls` and `maxViewRanges` (the oldest go first, whole). Frozen.
 */
export function viewOf(ledger: Ledger, session: string | null): SessionView {
  const { maxViewCalls, maxViewRanges } = ledger.limits;
  const projects: ProjectState[] = [];
  for (const entry of ledger.entries) {
    if (entry.session !== session) continue;
    const { project } = entry;
    const calls = recentWithin(project.calls, maxViewCalls, maxViewRanges);
    projects.push(
      calls === project.calls
        ? project
        : Object.freeze({ ...project, calls: Object.freeze(calls) }),
    );
  }
  return viewOfProjects(projects);
}

/**
 * The retained record of one (bucket, project) entry of a ledger this library
 * built — every record the bounds kept, not a view's window — or `null` when
 * the bucket has no entry for that root (never asked about it, evicted,
 * forgotten, cleared). A root that is not a string has none. Frozen.
 */
export function entryOf(
  ledger: Ledger,
  session: string | null,
  projectRoot: unknown,
): ProjectState | null {
  if (typeof projectRoot !== 'string') return null;
  const { entry } = placeOf(ledger, session, projectRoot);
  return entry === undefined ? null : own(entry.project);
}

/** The view of `projects`, frozen and marked as the library's own. */
export function viewOfProjects(projects: ProjectState[]): SessionView {
  return own(Object.freeze({ version: 1, projects: Object.freeze(projects) }));
}

/** A tracked view with nothing served yet. */
export function emptyView(): SessionView {
  return viewOfProjects([]);
}

/**
 * The record a `recorded` event just appended — under `index`, the number it
 * printed, when it had one; else the entry's last number — or `null` when a
 * bound kept nothing of it (`maxProjects` or `maxCallsRetained` 0, more
 * ranges than `maxRangesRetained`).
 */
export function lastRecord(ledger: Ledger, index?: number): CallRecord | null {
  const project = ledger.entries.at(-1)?.project;
  const last = project?.calls.at(-1);
  return last !== undefined && last.index === (index ?? project?.callCount) ? last : null;
}

/**
 * What a `reserved` event just took, read off the ledger after it: the
 * number, its generation, and the bucket's view with that number on the
 * project (`callIndex`), to plan the call against. The reserved entry is the
 * ledger's last, as every step leaves the entry it touched (and the bucket's
 * view lists it last); `null` when a bound kept no entry for it
 * (`maxProjects` 0).
 */
export function reservationOf(ledger: Ledger, session: string | null): Reservation | null {
  const entry = ledger.entries.at(-1);
  if (entry === undefined) return null;
  const { callCount: callIndex, generation } = entry.project;
  const projects = [...viewOf(ledger, session).projects];
  const prior = Object.freeze({ ...projects.pop()!, callIndex });
  projects.push(prior);
  return Object.freeze({
    callIndex,
    generation: generation ?? null,
    view: viewOfProjects(projects),
    prior,
  });
}
