/**
 * The shapes of the session ledger: what a call reported, what the ledger
 * keeps, and what crosses into a tool call. All plain data: structured-clone
 * and JSON safe, no classes, Maps, Symbols or closures.
 */
import type { LineRange } from '../ranges/range.js';

/**
 * What one call sent of one file.
 */
export interface FileEmission {
  /** Project-relative path, spelled as the response's file header spells it. */
  readonly path: string;
  /** The line spans the reader received, 1-based inclusive. */
  readonly ranges: readonly LineRange[];
  /** Source characters sent (UTF-16 units), without headers or fences. */
  readonly chars: number;
  /** The content fingerprint the spans were cut from; absent = unprovable, never withheld later. */
  readonly fingerprint?: string;
  /** Set when the ledger kept fewer spans than were reported (it forgot the smallest). */
  readonly rangesTruncated?: boolean;
}

/**
 * What one tool call sent, as its renderer reports it.
 */
export interface Emission {
  /** The resolved project root the call was answered from. */
  readonly projectRoot: string;
  /** The query as the tool understood it (for diagnostics only). */
  readonly query: string;
  readonly files: readonly FileEmission[];
  /** Source characters in the whole response (sum over files). */
  readonly sourceChars: number;
  /** Characters of the whole response the agent received. */
  readonly responseChars: number;
}

/**
 * A recorded call.
 */
export interface CallRecord extends Emission {
  /** 1-based position of this call per (session bucket, project); keeps counting past eviction. */
  readonly index: number;
}

/**
 * What the ledger knows of one project in one session.
 */
export interface ProjectState {
  readonly projectRoot: string;
  /** Calls answered for this project in this session, including evicted ones. Never reset by a bound. */
  readonly callCount: number;
  /** Response characters over all those calls. Never reset by a bound. */
  readonly responseChars: number;
  /** The most recent calls, oldest first. */
  readonly calls: readonly CallRecord[];
}

/**
 * What crosses into a tool call: one session's projects, each with its last few calls.
 */
export interface SessionView {
  readonly version: 1;
  readonly projects: readonly ProjectState[];
}

/**
 * Bounds on what the ledger keeps. Counters are never bounded, only detail.
 */
export interface LedgerLimits {
  /** (session, project) entries kept across the whole ledger, least recently used evicted whole. */
  readonly maxProjects: number;
  /** Call records kept per entry. */
  readonly maxCallsRetained: number;
  /** Files kept per call record (those with the most chars). */
  readonly maxFilesPerCall: number;
  /** Merged spans kept per file (the largest). */
  readonly maxRangesPerFile: number;
  /** Calls per project handed to a tool call in a view. */
  readonly maxViewCalls: number;
  /** Ranges kept per entry over its retained records; past it the oldest records go, whole. */
  readonly maxRangesRetained: number;
  /** Ranges per project handed to a tool call in a view (most recent records first; the oldest go, whole). */
  readonly maxViewRanges: number;
}

/**
 * One (session bucket, project) entry of a {@link Ledger}: the unit the
 * `maxProjects` bound counts and evicts, whole.
 */
export interface LedgerEntry {
  /** The normalized session id (see `normalizeSessionId`), or `null` for the default bucket. */
  readonly session: string | null;
  /** `projectKey(projectRoot)`: what two spellings of one root share. */
  readonly key: string;
  /** What this session was served of this project; `projectRoot` as the last call spelled it. */
  readonly project: ProjectState;
}

/**
 * Every session's record of what it was served, as one plain value. Build it
 * with `createLedger`, change it only through `ledgerReducer`, read it through
 * `sessionView`. Structured-clone and JSON safe; held in memory, never written
 * to disk (a shared store keeps a session's ledger only for its idle
 * lifetime). The objects are frozen: a tool holding a view cannot write to
 * what was served. `entries` and `evicted` are how the ledger stores what it
 * keeps, not API: their shapes may change; read through the selectors.
 */
export interface Ledger {
  readonly version: 1;
  /** The bounds this ledger keeps to. */
  readonly limits: LedgerLimits;
  /** @internal The stored entries, least recently used first, most recently used last. */
  readonly entries: readonly LedgerEntry[];
  /**
   * @internal The counters of entries evicted whole, oldest first (at most
   * 64), so a project that comes back keeps counting instead of starting again
   * at call 1.
   */
  readonly evicted: readonly EvictedCounters[];
}

/**
 * What the ledger keeps of an entry it evicted whole: its key and counters,
 * no records.
 */
export interface EvictedCounters {
  readonly session: string | null;
  readonly key: string;
  readonly callCount: number;
  readonly responseChars: number;
}

/**
 * A call was answered and its renderer reported what it sent.
 */
export interface RecordedEvent {
  readonly type: 'recorded';
  readonly emission: Emission;
  /** The client session; absent, blank or not a string = the default bucket. */
  readonly sessionId?: string | undefined;
}

/**
 * A client session ended: its entries go, nobody else's.
 */
export interface ForgottenEvent {
  readonly type: 'forgotten';
  readonly sessionId: string;
}

/**
 * Everything goes (a host restart of its bookkeeping, a test reset).
 */
export interface ClearedEvent {
  readonly type: 'cleared';
}

/**
 * The agent no longer holds what some calls delivered (its context was
 * compacted, a tool result was pruned, it asked for a `refresh`): their
 * retained records go, so later calls send those lines again. Counters stay:
 * they count calls answered, not what the agent holds.
 *
 * - `sessionId` — the bucket; absent, blank or not a string = the default
 *   bucket (which, unlike with `forgotten`, can be pruned).
 * - `projectRoot` — only that project's entry; absent = every entry of the bucket.
 * - `calls` — only the records with these indexes; absent = every retained
 *   record. Anything but an array of positive safe integers prunes nothing.
 */
export interface PrunedEvent {
  readonly type: 'pruned';
  readonly sessionId?: string | undefined;
  readonly projectRoot?: string | undefined;
  readonly calls?: readonly number[] | undefined;
}

/**
 * What `ledgerReducer` understands. Anything else leaves the ledger as it is.
 */
export type LedgerEvent = RecordedEvent | ForgottenEvent | ClearedEvent | PrunedEvent;
