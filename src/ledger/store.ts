/**
 * A holder for one ledger, for hosts that keep state per client connection:
 * hang one on the session object (never on a handler shared by every client)
 * and it lives and dies with the connection.
 */
import { prop } from '../boundary/read.js';
import { createLedger } from './ledger.js';
import { mintGeneration } from './random.js';
import {
  type CheckedEvent,
  CLEARED,
  readForgotten,
  readPruned,
  readRecorded,
  readReserved,
} from './read-event.js';
import { applyEvent, entryOf, lastRecord, reservationOf, viewOf } from './reduce.js';
import { projectOf } from './selectors.js';
import { bucketOf } from './session-id.js';
import type { Ledger, LedgerLimits, SessionStore, SessionView } from './types.js';

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
 * const next = spans.reserve('/repo')!;  // the next call takes its number before it is planned
 * next.callIndex;                         // 2
 * next.prior.callIndex;                   // 2: planCall prints it
 * spans.entry('/repo')?.callCount;         // 2: the retained record, every call the bounds kept
 * spans.entry('/elsewhere');               // null: never asked about
 * spans.clear();                           // everything goes
 * spans.entry('/repo');                    // null
 * ```
 */
export function createSessionStore(limits?: Partial<LedgerLimits>): SessionStore {
  let current = createLedger(limits);
  // Each argument is read once, here; the reducer's inside takes the event as read.
  const step = (event: CheckedEvent | null): Ledger => {
    if (event !== null) current = applyEvent(current, event);
    return current;
  };
  const view = (sessionId: unknown): SessionView => viewOf(current, bucketOf(sessionId));
  return {
    reserve(projectRoot, sessionId) {
      const event = readReserved(projectRoot, sessionId, mintGeneration());
      if (event === null) return null;
      return reservationOf(step(event), event.session);
    },
    record(emission, sessionId) {
      const event = readRecorded(emission, sessionId, current.limits);
      if (event === null) return null;
      const before = current;
      const after = step(event);
      return after === before ? null : lastRecord(after, event.emission.index);
    },
    view,
    project(projectRoot, sessionId) {
      return projectOf(view(sessionId), projectRoot);
    },
    entry(projectRoot, sessionId) {
      return entryOf(current, bucketOf(sessionId), projectRoot);
    },
    prune(request) {
      // Read field by field: the request may come straight from a tool call.
      const session = bucketOf(prop(request, 'sessionId'));
      step(readPruned(prop(request, 'projectRoot'), prop(request, 'calls'), session));
    },
    forget(sessionId) {
      step(readForgotten(sessionId));
    },
    clear() {
      step(CLEARED);
    },
    ledger() {
      return current;
    },
  };
}
