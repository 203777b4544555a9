/**
 * A holder for one ledger, for hosts that keep state per client connection:
 * hang one on the session object (never on a handler shared by every client)
 * and it lives and dies with the connection.
 */
import { createLedger, ledgerReducer, sessionView } from './ledger.js';
import type { CallRecord, Emission, Ledger, LedgerLimits, SessionView } from './types.js';

/**
 * A mutable holder around an immutable {@link Ledger}.
 *
 * @example
 * ```ts
 * const store: SessionStore = createSessionStore({ maxProjects: 8 });
 * store.record(emission, 'conn-1');
 * store.forget('conn-1');
 * ```
 */
export interface SessionStore {
  /**
   * Records a call's emission. Never throws: a malformed emission, or a fault
   * anywhere in the bookkeeping, records nothing and returns `null`, so a tool
   * call that already succeeded can never fail here. Returns the record as
   * stored (bounded, sanitized), or `null` when nothing was stored (also when
   * `maxProjects` or `maxCallsRetained` is 0).
   */
  record(emission: Emission, sessionId?: string): CallRecord | null;
  /** The view to hand the next tool call of `sessionId` (see `sessionView`). */
  view(sessionId?: string): SessionView;
  /** Drops that session's entries; a blank or non-string id drops nothing. */
  forget(sessionId: string): void;
  /** The current ledger value (plain data; later records never change it). */
  ledger(): Ledger;
}

/**
 * A store holding one fresh ledger.
 *
 * @throws {TypeError} when `limits` is malformed (as `createLedger`).
 * @example
 * ```ts
 * class McpSession {
 *   readonly spans = createSessionStore();
 * }
 * const record = session.spans.record(emission); // → { …emission, index: 1 } or null
 * session.spans.view();                          // → { version: 1, projects: [ … ] }
 * ```
 */
export function createSessionStore(limits?: Partial<LedgerLimits>): SessionStore {
  let current = createLedger(limits);
  return {
    record(emission, sessionId) {
      try {
        const next = ledgerReducer(current, { type: 'recorded', emission, sessionId });
        if (next === current) return null;
        current = next;
        // The entry just recorded into is the most recently used: the last one.
        const project = next.entries[next.entries.length - 1]?.project;
        const last = project?.calls[project.calls.length - 1];
        return last !== undefined && last.index === project?.callCount ? last : null;
      } catch {
        return null;
      }
    },
    view(sessionId) {
      return sessionView(current, sessionId);
    },
    forget(sessionId) {
      current = ledgerReducer(current, { type: 'forgotten', sessionId });
    },
    ledger() {
      return current;
    },
  };
}
