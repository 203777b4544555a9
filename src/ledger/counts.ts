/**
 * Adding character counts so a counter stays a number JSON can carry.
 */

/** `a + b` for counts, held finite (JSON turns an infinity into `null`). */
export function addCounts(a: number, b: number): number {
  const sum = a + b;
  return Number.isFinite(sum) ? sum : Number.MAX_VALUE;
}
