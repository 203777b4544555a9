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
  /**
   * The number the response opened with, when it printed one its host
   * reserved (`SessionStore.reserve`): the ledger records the emission under
   * that number if it is still reserved for it, and not at all otherwise —
   * never under another number. Absent: recorded as the next number (hosts
   * whose calls of one bucket never overlap).
   */
  readonly index?: number;
  /** The numbering tag the response printed beside its number (`kqfz` of `#4/kqfz`). */
  readonly generation?: string;
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
  /**
   * Response numbers taken for this project in this session — reserved or
   * recorded, evicted ones included. Never reset by a bound.
   */
  readonly callCount: number;
  /** Response characters over all those calls. Never reset by a bound. */
  readonly responseChars: number;
  /** The most recent calls, oldest first (in the order they were recorded). */
  readonly calls: readonly CallRecord[];
  /**
   * The tag of this bucket's numbering, printed beside every number
   * (`Response #4/kqfz`): a bucket created from nothing (a first call, or
   * after its ledger was lost) gets a fresh one, so two responses of one
   * context never carry the same label. Absent for a bucket created by a
   * `recorded` without a reservation.
   */
  readonly generation?: string;
  /**
   * Only in the view `reserve` hands out: the number reserved for the call
   * being planned, which `planCall` and `describeSession` then use.
   */
  readonly callIndex?: number;
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
  /**
   * Numbers reserved and not recorded yet (at most `MAX_PENDING`, the most
   * recent): a `recorded` under any other number is dropped.
   */
  readonly pending: readonly number[];
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
  /** The numbering tag it had, so a returning entry goes on in it. */
  readonly generation?: string;
}

/**
 * A call is being planned and takes its response number: the next number of
 * (bucket, project), reserved for it alone, so calls of one context that run
 * in parallel never print the same one. The store that dispatches it
 * (`reserve`) supplies `generation`, a fresh random tag the entry takes when
 * the event creates it from nothing; the reducer stays pure.
 */
export interface ReservedEvent {
  readonly type: 'reserved';
  /** The client session; absent, blank or not a string = the default bucket. */
  readonly sessionId?: string | undefined;
  readonly projectRoot: string;
  /** The tag a new entry takes: 1 to 8 lower-case letters (another value gives none). */
  readonly generation?: string | undefined;
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
 *   A number in `calls` that is reserved and not recorded yet is released
 *   too: the call was undone before it recorded, and records nothing later.
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
export type LedgerEvent =
  | ReservedEvent
  | RecordedEvent
  | ForgottenEvent
  | ClearedEvent
  | PrunedEvent;

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
 * What {@link SessionStore.reserve} hands a call being planned: its number,
 * and the bucket's view to plan against with that number on it.
 */
export interface Reservation {
  /** The number reserved for this call alone: its response prints it, and it is recorded under it. */
  readonly callIndex: number;
  /** The numbering tag printed beside it (`#4/kqfz`); `null` for an entry numbered without one. */
  readonly generation: string | null;
  /** The bucket's view as of the reservation, its project carrying `callIndex` (for `withSessionView`). */
  readonly view: SessionView;
  /** `projectFromView(view, projectRoot)`: the `prior` to plan with. */
  readonly prior: ProjectState;
}

/**
 * A mutable holder around an immutable {@link Ledger}.
 */
export interface SessionStore {
  /**
   * Takes the response number of a call about to be planned: the next of
   * (bucket, project), reserved for it alone, so calls of one context that
   * overlap never print the same one. A bucket created from nothing gets a
   * fresh numbering tag (printed beside the number), so a context whose
   * ledger was lost never sees a number twice. Plan with `prior` (or hand
   * `view` to a worker); the emission of the response that printed it is then
   * recorded under it, or not at all. `null` when nothing can be tracked (an
   * unusable root, `maxProjects` 0). Never throws.
   */
  reserve(projectRoot: string, sessionId?: string): Reservation | null;
  /**
   * Records a call's emission. Never throws: a malformed emission records
   * nothing and returns `null`. Returns the record as stored (bounded,
   * sanitized), or `null` when nothing was stored: also when the number its
   * response printed (`emission.index`) is not reserved for it any more (see
   * `reserve`), and when a bound keeps nothing (`maxProjects` or
   * `maxCallsRetained` 0, a record with more ranges than `maxRangesRetained`).
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
   * The retained record of the bucket's entry for `projectRoot`: every call
   * record the bounds kept (`maxCallsRetained`, `maxRangesRetained`), where
   * `project` hands out the view's window (`maxViewCalls`); `null` for a
   * project this session never asked about (or whose entry was evicted,
   * forgotten or cleared). Roots compare by `projectKey`. Frozen, and
   * usable as a `prior`. Never throws.
   */
  entry(projectRoot: string, sessionId?: string): ProjectState | null;
  /**
   * Drops what the agent no longer holds (dispatches `pruned`); counters stay.
   * A request that is malformed, or matches nothing, changes nothing.
   */
  prune(request?: PruneRequest): void;
  /** Drops that session's entries; a blank or non-string id drops nothing. */
  forget(sessionId: string): void;
  /**
   * Drops every session's entries and counters (dispatches `cleared`): a host
   * restarting its bookkeeping, a test starting over. Every bucket numbers
   * from 1 again, under a fresh numbering tag when its calls reserve.
   */
  clear(): void;
  /** The current ledger value (plain, frozen data; later records never change it). */
  ledger(): Ledger;
}
