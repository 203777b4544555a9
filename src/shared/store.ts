/**
 * The session store for hosts that run several processes behind one address:
 * each session bucket's ledger is one value in a shared backend (Redis), so a
 * session's next call may land on any process. The async twin of
 * `createSessionStore`; the ledger, the reducer and the views are the same.
 *
 * Not a cache and not a lock service: a write reads the bucket's value,
 * applies its event with the pure reducer, and compare-and-sets the result;
 * a write that lost the race reads again and re-applies. A backend fault
 * never reaches the tool call: recording degrades to nothing recorded (the
 * next call re-sends), reading to an empty view (the call renders in full).
 */
import { prop } from '../boundary/read.js';
import { sha256OfUtf8 } from '../hash/sha256.js';
import { createLedger } from '../ledger/ledger.js';
import { mintGeneration } from '../ledger/random.js';
import {
  type CheckedEvent,
  CLEARED,
  readPruned,
  readRecorded,
  readReserved,
} from '../ledger/read-event.js';
import { applyEvent, entryOf, lastRecord, reservationOf, viewOf } from '../ledger/reduce.js';
import { projectOf } from '../ledger/selectors.js';
import { normalizeSessionId } from '../ledger/session-id.js';
import type {
  CallRecord,
  Emission,
  Ledger,
  LedgerLimits,
  ProjectState,
  PruneRequest,
  Reservation,
  SessionView,
} from '../ledger/types.js';
import { beforeDeadline, pause } from './_deadline.js';
import { option } from './_options.js';
import type { SharedStoreBackend } from './backend.js';
import { readStoredLedger } from './read-stored.js';

/**
 * How long an idle session's value lives: an hour. Every write renews it, so
 * a session that keeps calling keeps its history; one that stopped is gone
 * an hour later, as principle 1 wants (state ends with the conversation).
 */
const DEFAULT_TTL_MS = 3_600_000;

/**
 * How long one store operation may wait on the backend, all its attempts
 * together: 250 ms. Redis answers in about a millisecond; a backend that has
 * not answered in 250 ms is down or overloaded, and the tool call should go
 * on without it (re-sending costs less than waiting).
 */
const DEFAULT_TIMEOUT_MS = 250;

/**
 * Compare-and-set attempts per write. Writes of one bucket in one process go
 * out together, so only other processes race a write; eight attempts outlast
 * eight processes writing one session at once, which no conversation does.
 */
const MAX_ATTEMPTS = 8;

/**
 * Session values remembered per store, with the ledger each reads as: a call
 * reads its session's value to plan and again to record, and reading a
 * 45 KB value back into a ledger costs milliseconds, comparing it with the
 * one seen last microseconds. 64 values of at most ~50 KB each bound it.
 */
const SEEN_VALUES = 64;

/** The key of the default bucket (ids that normalize to none). Never a SHA-256 hex. */
const DEFAULT_BUCKET_KEY = 'default';

/**
 * Options of {@link createSharedSessionStore}.
 */
export interface SharedSessionStoreOptions {
  /** The bounds of each bucket's ledger (see `createLedger`); `maxProjects` counts one session's projects. */
  readonly limits?: Partial<LedgerLimits>;
  /** Idle lifetime of a session's value, renewed by every write (default one hour). */
  readonly ttlMs?: number;
  /** How long one operation may wait on the backend before it degrades (default 250 ms). */
  readonly timeoutMs?: number;
  /**
   * Lifetime of a bucket that has taken one number only (default 5 minutes,
   * at most `ttlMs`): a call without a context token makes a bucket nobody
   * may ever come back to, and it must not hold the store for the idle TTL.
   * From the bucket's second call on, `ttlMs`.
   */
  readonly oneCallTtlMs?: number;
}

/**
 * The shared twin of `SessionStore`: the same operations, each a Promise that
 * never rejects.
 */
export interface SharedSessionStore {
  /**
   * Takes the response number of a call about to be planned, atomically in
   * the backend (the same compare-and-set as a record), so calls of one
   * context on any number of processes never print the same one; a bucket
   * created from nothing gets a fresh numbering tag (see
   * `SessionStore.reserve`). Resolves to `null` when the backend failed, hung
   * or kept losing the race: then the call is untracked (no number printed,
   * nothing withheld, nothing recorded).
   */
  reserve(projectRoot: string, sessionId?: string): Promise<Reservation | null>;
  /**
   * Records a call's emission into its session's value — under the number its
   * response printed, or not at all (see `SessionStore.record`), and without
   * its query text. Resolves to the record as stored, or `null` when nothing
   * was stored: a malformed emission, a number no longer reserved for it,
   * limits that keep nothing, or a backend that failed, hung, kept losing the
   * race or answered after the timeout (a write that lands late is refused by
   * the backend, never stored under another number).
   */
  record(emission: Emission, sessionId?: string): Promise<CallRecord | null>;
  /** The view to hand the session's next call; an empty view when the backend fails. */
  view(sessionId?: string): Promise<SessionView>;
  /** `projectFromView(await view(sessionId), projectRoot)`: never `null`, the store tracks. */
  project(projectRoot: string, sessionId?: string): Promise<ProjectState>;
  /**
   * The retained record of the session's entry for `projectRoot` (see
   * `SessionStore.entry`): every record the bounds kept, or `null` for a
   * project the session never asked about — and when the backend failed
   * (nothing is known, so nothing may be withheld).
   */
  entry(projectRoot: string, sessionId?: string): Promise<ProjectState | null>;
  /**
   * Drops what the agent no longer holds (writes `pruned` into the session's
   * value); counters stay. A request that is malformed, or matches nothing,
   * writes nothing.
   */
  prune(request?: PruneRequest): Promise<void>;
  /** Drops the session's value; a blank or non-string id drops nothing. */
  forget(sessionId: string): Promise<void>;
  /**
   * Empties the backend through its `clear` (every session's value, written
   * by any process) and forgets the values this store has seen. Resolves
   * `true` when the backend was emptied; `false` when it has no `clear` (the
   * Redis backend has none: its values expire with their TTL, or the host
   * deletes the prefix's keys itself), or failed or hung.
   */
  clear(): Promise<boolean>;
}

/** One pending write of a bucket: its event (read, of the bucket's own entries) and whom to tell the outcome. */
interface Write {
  readonly event: CheckedEvent;
  /** Called once: with the ledger after the event (`null`: nothing was written). */
  readonly settle: (after: Ledger | null) => void;
}

/** The backend key of a session bucket: SHA-256 of the normalized id, never the id. */
function bucketKey(sessionId: unknown): string {
  const id = normalizeSessionId(sessionId);
  return id === undefined ? DEFAULT_BUCKET_KEY : sha256OfUtf8(id);
}

const WHERE = 'createSharedSessionStore(backend, options)';

function checkPositive(options: unknown, name: string, fallback: number): number {
  const value = option(options, name, WHERE);
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new TypeError(`${WHERE}: options.${name} must be a positive safe integer`);
}

/** Five minutes: a bucket of one call whose context never comes back is gone within it. */
const ONE_CALL_TTL_MS = 300_000;

/** Whether every entry of a bucket (evicted ones too) has taken at most one number. */
function oneCall(ledger: Ledger): boolean {
  return (
    ledger.entries.every((e) => e.project.callCount <= 1) &&
    ledger.evicted.every((c) => c.callCount <= 1)
  );
}

function checkBackend(backend: unknown): void {
  const usable =
    typeof prop(backend, 'get') === 'function' &&
    typeof prop(backend, 'compareAndSet') === 'function';
  if (!usable) throw new TypeError(`${WHERE}: backend must have get and compareAndSet methods`);
}

/** A store's options, read once: the backend, the empty ledger of its limits, its lifetimes and timeout. */
interface StoreConfig {
  readonly backend: SharedStoreBackend;
  readonly empty: Ledger;
  readonly ttlMs: number;
  readonly timeoutMs: number;
  readonly oneCallTtlMs: number;
}

function readStoreConfig(backend: SharedStoreBackend, options: unknown): StoreConfig {
  checkBackend(backend);
  const empty = createLedger(option(options, 'limits', WHERE) as Partial<LedgerLimits> | undefined);
  const ttlMs = checkPositive(options, 'ttlMs', DEFAULT_TTL_MS);
  const timeoutMs = checkPositive(options, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const oneCallTtlMs = Math.min(ttlMs, checkPositive(options, 'oneCallTtlMs', ONE_CALL_TTL_MS));
  return { backend, empty, ttlMs, timeoutMs, oneCallTtlMs };
}

/** A value read from (or written to) the backend, and the ledger it reads as. */
interface SeenValue {
  readonly raw: string;
  readonly ledger: Ledger;
}

/** The last value seen (read or written) per key, least recent first, bounded by SEEN_VALUES. */
type SeenValues = Map<string, SeenValue>;

/** Remembers `raw` as `key`'s value, dropping the least recently seen past the bound. */
function remember(seen: SeenValues, key: string, raw: string, ledger: Ledger): void {
  seen.delete(key);
  seen.set(key, { raw, ledger });
  if (seen.size > SEEN_VALUES) seen.delete(seen.keys().next().value!);
}

/**
 * The value as a ledger: absent or not a ledger → empty. A value equal to
 * the one last seen for the key is not read again (the same text reads as
 * the same ledger); text that is not a ledger is not remembered.
 */
function parse(seen: SeenValues, empty: Ledger, key: string, raw: string | null): Ledger {
  if (raw === null) return empty;
  const last = seen.get(key);
  if (last !== undefined && last.raw === raw) return last.ledger;
  const ledger = readStoredLedger(raw, empty.limits);
  if (ledger === null) return empty;
  remember(seen, key, raw, ledger);
  return ledger;
}

/** `key`'s value in the backend, and the ledger it reads as; rejects on a backend fault or the deadline. */
async function load(
  config: StoreConfig,
  seen: SeenValues,
  key: string,
  deadline: number,
): Promise<{ raw: string | null; ledger: Ledger }> {
  const raw = await beforeDeadline(() => config.backend.get(key), deadline);
  if (raw !== null && typeof raw !== 'string') throw new TypeError('not a string');
  return { raw, ledger: parse(seen, config.empty, key, raw) };
}

/** `ledger` after each write of `batch` in turn (`null` for one that changed nothing), and the last. */
function reduceBatch(
  ledger: Ledger,
  batch: readonly Write[],
): { after: (Ledger | null)[]; next: Ledger } {
  const after: (Ledger | null)[] = [];
  let next = ledger;
  for (const write of batch) {
    const reduced = applyEvent(next, write.event);
    after.push(reduced === next ? null : reduced);
    next = reduced;
  }
  return { after, next };
}

/**
 * The ledgers after each write of `batch`, once written to `key`'s value
 * (`null` for a write that changed nothing), or `null` when nothing was
 * written. Never rejects.
 */
async function applyBatch(
  config: StoreConfig,
  seen: SeenValues,
  key: string,
  batch: readonly Write[],
): Promise<(Ledger | null)[] | null> {
  const deadline = Date.now() + config.timeoutMs;
  // First try the value seen last, without reading it again: the
  // compare-and-set tells whether it is still the current one.
  let known: { raw: string | null; ledger: Ledger } | undefined = seen.get(key);
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const guessed = known !== undefined;
      const { raw, ledger } = known ?? (await load(config, seen, key, deadline));
      known = undefined;
      const { after, next } = reduceBatch(ledger, batch);
      if (next === ledger) {
        // Nothing to write — unless the value seen last is out of date.
        if (guessed) continue;
        return after;
      }
      const stored = JSON.stringify(next);
      const ttl = oneCall(next) ? config.oneCallTtlMs : config.ttlMs;
      // The deadline goes to the backend too: a write that reaches it late
      // (a stalled server) is refused there, never applied after this
      // store has given up and the call's answer has left.
      const won = await beforeDeadline(
        () => config.backend.compareAndSet(key, raw, stored, ttl, deadline),
        deadline,
      );
      if (won === true) {
        remember(seen, key, stored, next);
        return after;
      }
      // Another process wrote first: read its value and re-apply, after a
      // short random pause so two processes do not keep colliding.
      if (!guessed) await pause(Math.random() * 2 ** attempt, deadline);
    }
  } catch {
    // A backend fault: nothing of this batch was recorded.
  }
  return null;
}

/**
 * Writes an event into a session's bucket and resolves to the ledger after
 * it (`null`: nothing was written). Writes of one bucket that arrive while a
 * compare-and-set of it is out wait, and go out together in the next one.
 */
function createBucketWriter(
  config: StoreConfig,
  seen: SeenValues,
): (sessionId: unknown, event: CheckedEvent) => Promise<Ledger | null> {
  /** Writes waiting per key while a compare-and-set of that key is out. */
  const queues = new Map<string, Write[]>();

  async function flush(key: string, batch: readonly Write[]): Promise<void> {
    const after = await applyBatch(config, seen, key, batch);
    for (let i = 0; i < batch.length; i++) batch[i]!.settle(after?.[i] ?? null);
  }

  async function drain(key: string, queue: Write[]): Promise<void> {
    while (queue.length > 0) await flush(key, queue.splice(0));
    queues.delete(key);
  }

  return (sessionId, event) =>
    new Promise((settle) => {
      const key = bucketKey(sessionId);
      const queue = queues.get(key);
      if (queue !== undefined) {
        queue.push({ event, settle });
        return;
      }
      const fresh = [{ event, settle }];
      queues.set(key, fresh);
      void drain(key, fresh);
    });
}

/**
 * A session store whose ledgers live in `backend`, one value per session
 * bucket, so several processes share every session.
 *
 * - **Keys and values name no session.** A bucket's key is the SHA-256 hex of
 *   its normalized id (the default bucket has the fixed key `default`); its
 *   value is that bucket's ledger as JSON, which needs no id inside.
 * - **No lost record.** A write applies its event with `ledgerReducer` to
 *   the value it saw last (or reads it), and compare-and-sets; when another
 *   process wrote first it reads again and re-applies (up to 8 attempts).
 *   Writes of one bucket in this process go out together in one
 *   compare-and-set.
 * - **Idle sessions expire.** Every write sets the value's TTL to `ttlMs`
 *   (default one hour), or to `oneCallTtlMs` (default 5 minutes) while the
 *   bucket has taken one number only.
 * - **One number per response.** `reserve` takes a call's number with the
 *   same compare-and-set, so parallel calls on any processes never share
 *   one; `record` writes under that number or not at all, never late (the
 *   backend is handed the deadline), and stores no query text.
 * - **A fault degrades.** A backend that rejects, throws or does not answer
 *   within `timeoutMs` (default 250 ms per operation) makes `record` resolve
 *   `null` and `view` an empty view; nothing rejects. A value that is not a
 *   ledger (hand-edited, truncated, another program's) reads as an empty
 *   ledger and is replaced by the next write.
 *
 * @throws {TypeError} when `backend` lacks `get` or `compareAndSet`,
 *   `options` is not an object, `limits` is malformed (as `createLedger`), or
 *   `ttlMs` / `timeoutMs` is not a positive safe integer.
 * @example
 * ```ts
 * const store = createSharedSessionStore(createMemoryBackend(), { ttlMs: 60_000 });
 * const emission = { projectRoot: '/repo', query: 'q', files: [], sourceChars: 0, responseChars: 9 };
 * (await store.record(emission, 'conversation-7'))?.index;     // 1 (null when the backend failed)
 * (await store.project('/repo', 'conversation-7'))?.callCount; // 1
 * (await store.reserve('/repo', 'conversation-7'))?.callIndex; // 2: the next call's number
 * (await store.entry('/repo', 'conversation-7'))?.calls.length; // 1: every retained record
 * await store.entry('/elsewhere', 'conversation-7');           // null: never asked about
 * await store.prune({ sessionId: 'conversation-7', calls: [1] }); // the agent lost response #1
 * await store.forget('conversation-7');
 * (await store.view('conversation-7')).projects;               // []
 * await store.clear();                                         // true: the memory backend is emptied
 * ```
 */
export function createSharedSessionStore(
  backend: SharedStoreBackend,
  options: SharedSessionStoreOptions = {},
): SharedSessionStore {
  const config = readStoreConfig(backend, options);
  const { empty, timeoutMs } = config;
  const emptyView = viewOf(empty, null);
  const seen: SeenValues = new Map();
  const write = createBucketWriter(config, seen);

  /** The bucket's ledger as stored, or `null` when the backend failed. */
  async function bucket(sessionId: unknown): Promise<Ledger | null> {
    try {
      return (await load(config, seen, bucketKey(sessionId), Date.now() + timeoutMs)).ledger;
    } catch {
      return null;
    }
  }

  async function view(sessionId?: string): Promise<SessionView> {
    const ledger = await bucket(sessionId);
    return ledger === null ? emptyView : viewOf(ledger, null);
  }

  return {
    async reserve(projectRoot, sessionId) {
      // Read once, here; the bucket's value holds its entries under the default bucket.
      const event = readReserved(projectRoot, undefined, mintGeneration());
      if (event === null) return null;
      const after = await write(sessionId, event);
      return after === null ? null : reservationOf(after, null);
    },
    async record(emission, sessionId) {
      // Read once, here, as the bucket's own (default-bucket) record.
      const event = readRecorded(emission, undefined, empty.limits);
      if (event === null) return null;
      // The query is for diagnostics in this process only: the store keeps none.
      const stored = { ...event, emission: Object.freeze({ ...event.emission, query: '' }) };
      const after = await write(sessionId, stored);
      return after === null ? null : lastRecord(after, event.emission.index);
    },
    view,
    async project(projectRoot, sessionId) {
      return projectOf(await view(sessionId), projectRoot);
    },
    async entry(projectRoot, sessionId) {
      const ledger = await bucket(sessionId);
      // The bucket's value holds its entries under the default bucket.
      return ledger === null ? null : entryOf(ledger, null, projectRoot);
    },
    async prune(request) {
      // Read field by field: the request may come straight from a tool call.
      // The bucket's value holds its entries under the default bucket.
      const sessionId = prop(request, 'sessionId');
      const event = readPruned(prop(request, 'projectRoot'), prop(request, 'calls'), null);
      if (event !== null) await write(sessionId, event);
    },
    async forget(sessionId) {
      if (normalizeSessionId(sessionId) === undefined) return;
      await write(sessionId, CLEARED);
    },
    async clear() {
      seen.clear();
      const clear = prop(backend, 'clear');
      if (typeof clear !== 'function') return false;
      const done = beforeDeadline(() => Reflect.apply(clear, backend, []), Date.now() + timeoutMs);
      return done.then(
        () => true,
        () => false,
      );
    },
  };
}
