/**
 * Reading a caller's limits. `checkLimits` is for developer entry
 * points (`createLedger`), which throw a TypeError naming the field;
 * `readLimits` is for places that may not throw (the wire, a foreign ledger),
 * where each unusable field takes its default.
 */
import { DEFAULT_LIMITS } from './limits.js';
import type { LedgerLimits } from './types.js';

const FIELDS: readonly (keyof LedgerLimits)[] = [
  'maxProjects',
  'maxCallsRetained',
  'maxFilesPerCall',
  'maxRangesPerFile',
  'maxViewCalls',
  'maxRangesRetained',
  'maxViewRanges',
];

function isBound(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 0;
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
