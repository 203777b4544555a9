/**
 * Carrying a call's emission back from the tool (possibly out of a worker) to
 * the host that records it, and making sure the agent never sees it: the
 * carrier is stripped whether or not anyone records, so the bytes a client
 * receives do not depend on tracking.
 */

import { copyWithout } from '../boundary/copy.js';
import { hasOwn, isArray, prop, readOr } from '../boundary/read.js';
import { DEFAULT_LIMITS } from '../ledger/limits.js';
import { sanitizeEmission } from '../ledger/read-emission.js';
import { readLimits } from '../ledger/read-limits.js';
import type { Emission, LedgerLimits } from '../ledger/types.js';
import { EMISSION_KEY } from './keys.js';

/**
 * What {@link takeEmission} returns.
 */
export interface TakenEmission<T> {
  /** The result without the carrier (the same object when it had none). */
  readonly result: T;
  /** The sanitized emission, or `null` when none was carried or it was unusable. */
  readonly emission: Emission | null;
}

/** An object that is not an array (a revoked proxy passes, and is then found unreadable). */
function isPlainRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !isArray(x);
}

/**
 * A shallow copy of `result` with a plain, bounded copy of `emission` under
 * {@link EMISSION_KEY}, ready for a structured clone out of a worker. A result
 * that is not a plain object, or an emission without a usable `projectRoot`,
 * carries nothing (the call's bookkeeping is skipped, the call is not).
 * `limits` (default {@link DEFAULT_LIMITS}) bounds the copy. Never throws.
 *
 * @example
 * ```ts
 * // in the worker: what the tool sent, on the result
 * const emission = { projectRoot: '/repo', query: 'q', files: [], sourceChars: 0, responseChars: 2 };
 * const result = attachEmission({ content: [{ type: 'text', text: 'hi' }] }, emission);
 * Object.keys(result); // ['content', '_spanLedgerEmission']
 * takeEmission(structuredClone(result)).emission?.responseChars; // 2: it survives the clone
 * ```
 */
export function attachEmission<T extends object>(
  result: T,
  emission: Emission | null,
  limits: Partial<LedgerLimits> = DEFAULT_LIMITS,
): T {
  if (!isPlainRecord(result)) return result;
  const copy = copyWithout(result, EMISSION_KEY);
  if (copy === undefined) return result;
  const clean = sanitizeEmission(emission, readLimits(limits));
  if (clean !== null) copy[EMISSION_KEY] = clean;
  return copy as T;
}

/**
 * Splits a tool result into what the agent sees and what the host records:
 * `result` never carries {@link EMISSION_KEY} (stripped unconditionally, even
 * when the caller does not record), and `emission` is a sanitized, bounded copy
 * or `null`. A result without the key is returned as the same object. A
 * property of the result that cannot be read is left out of the copy; a result
 * whose properties cannot even be listed (a hostile proxy, which no host can
 * serialize either) comes back as it is, with no emission. Never throws.
 *
 * @example
 * ```ts
 * const emission = { projectRoot: '/repo', query: 'q', files: [], sourceChars: 0, responseChars: 2 };
 * const raw = attachEmission({ content: [{ type: 'text', text: 'hi' }] }, emission); // back from a worker
 * const { result } = takeEmission(raw);
 * result; // → { content: [{ type: 'text', text: 'hi' }] }: what the agent receives, recorded or not
 * takeEmission(raw).emission?.projectRoot;          // '/repo'
 * takeEmission({ content: [] }).emission;           // null: nothing carried
 * ```
 */
export function takeEmission<T>(
  result: T,
  limits: Partial<LedgerLimits> = DEFAULT_LIMITS,
): TakenEmission<T> {
  if (!isPlainRecord(result)) return { result, emission: null };
  if (!hasOwn(result, EMISSION_KEY)) return { result, emission: null };
  // The carrier must not reach the agent: a property that cannot be read is
  // left out rather than the whole result going out with the carrier still on.
  const stripped = copyWithout(result, EMISSION_KEY, true);
  if (stripped === undefined) return { result, emission: null };
  const emission = sanitizeEmission(prop(result, EMISSION_KEY), readLimits(limits));
  return { result: stripped as T, emission };
}

/**
 * The part of a store {@link recordSafely} needs: a `SessionStore` fits.
 */
export interface EmissionSink {
  /** Records a sanitized emission under `sessionId` (the default bucket when absent); what it returns is ignored. */
  record(emission: Emission, sessionId?: string): unknown;
}

/**
 * How {@link recordSafely} records: under which session, unless the call was
 * cancelled, within which limits.
 */
export interface RecordOptions {
  /** The session bucket (absent = the default bucket). */
  readonly sessionId?: string | undefined;
  /**
   * The call's abort signal (the MCP SDK hands one to every tool handler):
   * once it has fired, nothing is recorded, because a cancelled answer was
   * never sent.
   */
  readonly signal?: { readonly aborted: boolean } | null | undefined;
  /** Bounds of the sanitized copy (default `DEFAULT_LIMITS`; pass your store's). */
  readonly limits?: Partial<LedgerLimits> | undefined;
}

/**
 * Whether a call may still be recorded: no signal, or one that has not fired.
 * A signal whose state cannot be read counts as fired: recording what might
 * not have been sent is the over-report, skipping a record only a re-send.
 */
function stillGoingOut(signal: unknown): boolean {
  return signal === undefined || signal === null || prop(signal, 'aborted') === false;
}

/**
 * The tool path's last step: strips the emission from `result`, records it in
 * `store` (when there is one) under the session, and returns the stripped
 * result, which the host then sends.
 *
 * - **Record only what goes out**: with `signal`, the signal is checked at the
 *   moment of recording, and a call it cancelled records nothing (its answer
 *   is never sent; the ledger claims only what the agent was sent).
 * - A fault in the bookkeeping (a store that throws) is swallowed, so a tool
 *   call that already succeeded can never fail here; a `null` store (a CLI, a
 *   bare handler) still strips.
 *
 * Never throws.
 *
 * @example
 * ```ts
 * import { attachEmission } from 'span-ledger/wire';
 *
 * const spans = createSessionStore();
 * const emission = { projectRoot: '/repo', query: 'q', files: [], sourceChars: 0, responseChars: 2 };
 * const raw = attachEmission({ content: [{ type: 'text', text: 'hi' }] }, emission); // the tool's result
 * recordSafely(spans, raw, { sessionId: 'ctx-1' }); // → { content: [{ type: 'text', text: 'hi' }] }
 * spans.project('/repo', 'ctx-1')?.callCount;      // 1
 * const cancelled = AbortSignal.abort();           // the client cancelled: nothing went out
 * recordSafely(spans, raw, { sessionId: 'ctx-1', signal: cancelled });
 * spans.project('/repo', 'ctx-1')?.callCount;      // 1: nothing recorded
 * ```
 */
export function recordSafely<T>(
  store: EmissionSink | null | undefined,
  result: T,
  options?: RecordOptions,
): T {
  const sessionId = prop(options, 'sessionId');
  const bounds = prop(options, 'limits') ?? DEFAULT_LIMITS;
  const { result: stripped, emission } = takeEmission(result, bounds as Partial<LedgerLimits>);
  // The signal is read here, at the moment of recording: a call cancelled
  // while it waited for a worker records nothing.
  if (emission !== null && store && stillGoingOut(prop(options, 'signal'))) {
    // Bookkeeping only: a store that throws loses the record; the answer goes out as it is.
    readOr(() => store.record(emission, sessionId as string | undefined), undefined);
  }
  return stripped;
}
