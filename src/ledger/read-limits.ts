/**
 * Reading a caller's limits. `checkLimits` is for developer entry
 * points (`createLedger`), which throw a TypeError naming the field;
 * `readLimits` is for places that may not throw (the wire, a foreign ledger),
 * where each unusable field takes its default.
 */
import {
  arrayOrNot,
  field,
  isNonNegativeInteger as isBound,
  prop,
  UNREADABLE,
} from '../boundary/read.js';
import { DEFAULT_LIMITS } from './limits.js';
import type { LedgerLimits } from './types.js';

/** Every bound a ledger keeps, in the order `DEFAULT_LIMITS` lists them. */
const FIELDS = /* @__PURE__ */ Object.keys(DEFAULT_LIMITS) as readonly (keyof LedgerLimits)[];

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
  const array = arrayOrNot(limits);
  if (array === undefined) throw new TypeError(`${where}: limits could not be read`);
  if (typeof limits !== 'object' || limits === null || array) {
    throw new TypeError(`${where}: limits must be an object`);
  }
  const out: Record<string, number> = {};
  for (const name of FIELDS) {
    const value = field(limits, name);
    if (value === UNREADABLE) throw new TypeError(`${where}: limits.${name} could not be read`);
    if (value === undefined) out[name] = DEFAULT_LIMITS[name];
    else if (isBound(value)) out[name] = value;
    else throw new TypeError(`${where}: limits.${name} must be a non-negative safe integer`);
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
  for (const name of FIELDS) {
    const value = prop(limits, name);
    out[name] = isBound(value) ? value : DEFAULT_LIMITS[name];
  }
  return out as unknown as LedgerLimits;
}
