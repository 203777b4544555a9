/**
 * The reducer's inside: what an event does to a ledger this library built,
 * what one session's view of it is, and which record a `recorded` just
 * appended. Everything here trusts its input — the event was read by
 * `read-event.ts`, the ledger is deep-frozen library data — and hands out
 * deep-frozen data again.
 */
import { own } from '../boundary/own.js';
import { freezeRecord } from './_freeze.js';
import { addCounts } from './counts.js';
import { MAX_EVICTED_COUNTERS } from './limits.js';
import { projectKey } from './project-key.js';
import type { CheckedEvent } from './read-event.js';
import type {
  CallRecord,
  Emission,
  EvictedCounters,
  Ledger,
  LedgerEntry,
  ProjectState,
  SessionView,
} from './types.js';
import { appendWithin, recentWithin } from './window.js';

/**
 * The ledger after an event already read: the same ledger object when the
 * event changes nothing. `ledger` is one this library built.
 */
export function applyEvent(ledger: Ledger, event: CheckedEvent): Ledger {
  switch (event.type) {
    case 'recorded':
      return recorded(ledger, event.session, event.emission);
    case 'forgotten': {
      const { session } = event;
      const entries = ledger.entries.filter((e) => e.session !== session);
      const evicted = ledger.evicted.filter((c) => c.session !== session);
      if (entries.length === ledger.entries.length && evicted.length === ledger.evicted.length) {
        return ledger;
      }
      return freezeLedger(ledger, entries, evicted);
    }
    case 'cleared':
      return ledger.entries.length === 0 && ledger.evicted.length === 0
        ? ledger
        : freezeLedger(ledger, [], []);
    case 'pruned':
      return pruned(ledger, event.session, event.key, event.calls);
  }
}

function freezeLedger(
  ledger: Ledger,
  entries: readonly LedgerEntry[],
  evicted: readonly EvictedCounters[],
): Ledger {
  return own(
    Object.freeze({
      version: 1,
      limits: ledger.limits,
      entries: Object.freeze(entries),
      evicted: Object.freeze(evicted),
    }),
  );
}

function recorded(ledger: Ledger, session: string | null, emission: Emission): Ledger {
  const { limits, entries } = ledger;
  const key = projectKey(emission.projectRoot);
  const at = entries.findIndex((e) => e.session === session && e.key === key);
  const prev = at >= 0 ? entries[at]!.project : undefined;
  // An entry evicted earlier goes on counting from where it stopped.
  let evicted = ledger.evicted;
  const back = at >= 0 ? -1 : evicted.findIndex((c) => c.session === session && c.key === key);
  const counted = prev ?? evicted[back];
  if (back >= 0) evicted = evicted.filter((_, i) => i !== back);
  const callCount = (counted?.callCount ?? 0) + 1;
  const record = freezeRecord({ ...emission, index: callCount });
  const calls = appendWithin(
    prev?.calls ?? [],
    record,
    limits.maxCallsRetained,
    limits.maxRangesRetained,
  );
  const project: ProjectState = Object.freeze({
    projectRoot: emission.projectRoot,
    callCount,
    responseChars: addCounts(counted?.responseChars ?? 0, emission.responseChars),
    calls: Object.freeze(calls),
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
  return freezeLedger(ledger, next.slice(over), evicted);
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
    if (kept.length === held.length) return entry;
    changed = true;
    const project = Object.freeze({ ...entry.project, calls: Object.freeze(kept) });
    return Object.freeze({ ...entry, project });
  });
  return changed ? freezeLedger(ledger, entries, ledger.evicted) : ledger;
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
  return own(Object.freeze({ version: 1, projects: Object.freeze(projects) }));
}

/** A tracked view with nothing served yet. */
export function emptyView(): SessionView {
  return own(Object.freeze({ version: 1, projects: Object.freeze([]) }));
}

/**
 * The record a `recorded` event just appended: the last call of the most
 * recently used entry, or `null` when a bound kept nothing of it
 * (`maxProjects` or `maxCallsRetained` 0, more ranges than `maxRangesRetained`).
 */
export function lastRecord(ledger: Ledger): CallRecord | null {
  const project = ledger.entries[ledger.entries.length - 1]?.project;
  const last = project?.calls[project.calls.length - 1];
  return last !== undefined && last.index === project?.callCount ? last : null;
}
