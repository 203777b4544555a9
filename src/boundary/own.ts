/**
 * Internal: which values the library built itself. What the ledger, the store
 * and the selectors hand out is deep-frozen, so a value marked here is still
 * exactly what the library made: code that receives one back trusts it as it
 * is. Anything unmarked (a view a caller wrote by hand, a ledger that went
 * through JSON or a structured clone) is foreign and is read through the
 * boundary first. Marking is by identity (a WeakSet), so asking never reads the
 * value: a proxy or a getter cannot answer for itself.
 */

const built = new WeakSet<object>();

/** Marks a deep-frozen value the library built, and returns it. */
export function own<T extends object>(value: T): T {
  built.add(value);
  return value;
}

/** Whether `value` is one the library built (and froze). Never reads it. */
export function isOwn(value: unknown): boolean {
  return typeof value === 'object' && value !== null && built.has(value);
}
