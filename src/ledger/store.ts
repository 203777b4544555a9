/**
 * A holder for one ledger, for hosts that keep state per client connection:
 * hang one on the session object (never on a handler shared by every client)
 * and it lives and dies with the connection.
 */
import { prop } from '../boundary/read.js';
import { createLedger } from './ledger.js';
import { type CheckedEvent, readForgotten, readPruned, readRecorded } from './read-event.js';
import { applyEvent, lastRecord, viewOf } from './reduce.js';
import { projectFromView } from './selectors.js';
import { normalizeSessionId } from './session-id.js';
import type {
  CallRecord,
  Emission,
  Ledger,
  LedgerLimits,
  ProjectState,
  SessionView,
} from './types.js';

/**
 * What {@link SessionStore.prune} is told: the agent no longer holds what
 * those calls delivered (see the `pruned` event).
 */
export interface PruneRequest {
  /** The bucket; absent = the default bucket. */
  readonly sessionId?: string | undefined;
  /** Only this project's entry; absent = every project of the bucket. */
  readonly projectRoot?: string | undefined;
  /** Only the records with these indexes; absent = every retained record. */
  readonly calls?: readonly number[] | undefined;
}

/**
 * A mutable holder around an immutable {@link Ledger}.
 */
export interface SessionStore {
  /**
   * Records a call's emission. Never throws: a malformed emission records
   * nothing and returns `null`. Returns the record as stored (bounded,
   * sanitized), or `null` when nothing was stored (also when a bound keeps
   * nothing: `maxProjects` or `maxCallsRetained` 0, or a record with more
   * ranges than `maxRangesRetained`).
   */
  record(emission: Emission, sessionId?: string): CallRecord | null;
  /** The view to hand the next tool call of `sessionId` (see `sessionView`). */
  view(sessionId?: string): SessionView;
  /**
   * `projectFromView(view(sessionId), projectRoot)` in one step: the `prior`
   * to plan a call of that project with (an empty state when the session has
   * not seen it).
   */
  project(projectRoot: string, sessionId?: string): ProjectState | null;
  /**
   * Drops what the agent no longer holds (dispatches `pruned`); counters stay.
   * A request that is malformed, or matches nothing, changes nothing.
   */
  prune(request?: PruneRequest): void;
  /** Drops that session's entries; a blank or non-string id drops nothing. */
  forget(sessionId: string): void;
  /** The current ledger value (plain, frozen data; later records never change it). */
  ledger(): Ledger;
}

/**
 * A store holding one fresh ledger.
 *
 * @throws {TypeError} when `limits` is malformed (as `createLedger`).
 * @example
 * ```ts
 * const spans = createSessionStore(); // one per client connection
 * spans.record({ projectRoot: '/repo', query: 'auth', sourceChars: 900, responseChars: 1400,
 *   files: [{ path: 'src/auth.ts', ranges: [{ start: 1, end: 40 }], chars: 900 }] })?.index; // 1
 * spans.project('/repo')?.callCount;       // 1
 * spans.project('/elsewhere')?.calls;      // []: tracked, nothing sent yet
 * spans.prune({ calls: [1] });             // the agent asked for `refresh: [1]`
 * spans.project('/repo')?.calls.length;    // 0
 * ```
 */
export function createSessionStore(limits?: Partial<LedgerLimits>): SessionStore {
  let current = createLedger(limits);
  // Each argument is read once, here; the reducer's inside takes the event as read.
  const step = (event: CheckedEvent | null): Ledger => {
    if (event !== null) current = applyEvent(current, event);
    return current;
  };
  const view = (sessionId: unknown): SessionView =>
    viewOf(current, normalizeSessionId(sessionId) ?? null);
  return {
    record(emission, sessionId) {
      const event = readRecorded(emission, sessionId, current.limits);
      return event === null ? null : lastRecord(step(event));
    },
    view,
    project(projectRoot, sessionId) {
      return projectFromView(view(sessionId), projectRoot);
    },
    prune(request) {
      // Read field by field: the request may come straight from a tool call.
      const session = normalizeSessionId(prop(request, 'sessionId')) ?? null;
      step(readPruned(prop(request, 'projectRoot'), prop(request, 'calls'), session));
    },
    forget(sessionId) {
      step(readForgotten(sessionId));
    },
    ledger() {
      return current;
    },
  };
}
