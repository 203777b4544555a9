/**
 * Freezing what the library hands out, so a caller holding a result cannot
 * make it claim more later. Shallow by design: each helper says how deep it
 * goes, and the folder that owns a shape freezes the rest of it.
 */

/**
 * Freezes a fresh list, the array only: no member can be added, removed or
 * replaced. The type stays the mutable one the contract speaks.
 */
export function frozen<T>(list: T[]): T[] {
  Object.freeze(list);
  return list;
}

/** Freezes a fresh list and each (object) member of it, one level down. */
export function frozenEach<T extends object>(list: readonly T[]): T[] {
  for (const item of list) Object.freeze(item);
  return Object.freeze(list) as T[];
}
