/**
 * The bounds on what a ledger keeps, and how a caller's limits are checked.
 * Bounds cut detail only: the per-entry counters are never reset by them.
 */
import type { LedgerLimits } from './types.js';

/**
 * The bounds a ledger keeps to unless told otherwise. Sized on real sessions:
 * an agent explores one project (a second in a monorepo) in one to five calls,
 * so these windows hold a whole ordinary session and only bite on pathological
 * ones.
 *
 * - `maxProjects: 4` — (session, project) entries across the ledger; a session
 *   that moved on to four other repositories rarely comes back to the first.
 * - `maxCallsRetained: 8` — call records per entry: more than a normal session makes.
 * - `maxFilesPerCall: 24` — files per record, those with the most chars; a
 *   ranked response rarely sends more.
 * - `maxRangesPerFile: 24` — merged spans per file, the largest; the smallest
 *   are forgotten (a re-send), never widened (an invented line).
 * - `maxViewCalls: 4` — calls per project handed to a tool call: what a call
 *   needs to decide, small enough to clone into a worker on every call.
 *
 * @example
 * ```ts
 * createLedger({ ...DEFAULT_LIMITS, maxProjects: 16 });
 * ```
 */
export const DEFAULT_LIMITS: LedgerLimits = /* @__PURE__ */ Object.freeze({
  maxProjects: 4,
  maxCallsRetained: 8,
  maxFilesPerCall: 24,
  maxRangesPerFile: 24,
  maxViewCalls: 4,
});

const FIELDS: readonly (keyof LedgerLimits)[] = [
  'maxProjects',
  'maxCallsRetained',
  'maxFilesPerCall',
  'maxRangesPerFile',
  'maxViewCalls',
];

function isBound(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/**
 * Checks a caller's limits at the boundary: missing fields take the default,
 * a present field must be a non-negative safe integer.
 *
 * @throws {TypeError} naming `where` and the field.
 * @example
 * ```ts
 * checkLimits({ maxProjects: 8 }, 'createLedger(limits)'); // → { maxProjects: 8, maxCallsRetained: 8, … }
 * checkLimits({ maxProjects: -1 }, 'createLedger(limits)'); // throws TypeError
 * ```
 */
export function checkLimits(limits: unknown, where: string): LedgerLimits {
  if (limits === undefined) return DEFAULT_LIMITS;
  let isArray: boolean;
  try {
    isArray = Array.isArray(limits); // throws on a revoked proxy
  } catch {
    throw new TypeError(`${where}: limits could not be read`);
  }
  if (typeof limits !== 'object' || limits === null || isArray) {
    throw new TypeError(`${where}: limits must be an object`);
  }
  const out: Record<string, number> = {};
  for (const field of FIELDS) {
    let value: unknown;
    try {
      value = (limits as Record<string, unknown>)[field];
    } catch {
      throw new TypeError(`${where}: limits.${field} could not be read`);
    }
    if (value === undefined) out[field] = DEFAULT_LIMITS[field];
    else if (isBound(value)) out[field] = value;
    else throw new TypeError(`${where}: limits.${field} must be a non-negative safe integer`);
  }
  return out as unknown as LedgerLimits;
}

/**
 * Reads limits where throwing is not allowed (the reducer, the wire): each
 * field that is not a non-negative safe integer takes its default.
 *
 * @example
 * ```ts
 * readLimits({ maxProjects: 'many' }).maxProjects; // 4
 * ```
 */
export function readLimits(limits: unknown): LedgerLimits {
  if (limits === DEFAULT_LIMITS) return DEFAULT_LIMITS;
  const out: Record<string, number> = {};
  for (const field of FIELDS) {
    let value: unknown;
    try {
      value = (limits as Record<string, unknown> | null | undefined)?.[field];
    } catch {
      value = undefined;
    }
    out[field] = isBound(value) ? value : DEFAULT_LIMITS[field];
  }
  return out as unknown as LedgerLimits;
}

/**
 * How many evicted entries' counters a ledger remembers. Past it the oldest are
 * forgotten (a returning project then counts from 1 again): a few numbers per
 * entry, so the bound is generous, but it is a bound.
 *
 * @example
 * ```ts
 * MAX_EVICTED_COUNTERS; // 64
 * ```
 */
export const MAX_EVICTED_COUNTERS = 64;
