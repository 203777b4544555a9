/**
 * One row of a simulator's table: what every arm did over the same input.
 * The contexts and the reads simulators both compare arms this way.
 */

/**
 * `figures(arm)` for each of `arms`, keyed by arm, in the order given (the
 * order the tables print).
 *
 * @example
 * ```ts
 * byArm(['off', 'on'] as const, (arm) => arm.length); // { off: 3, on: 2 }
 * ```
 */
export function byArm<A extends string, F>(
  arms: readonly A[],
  figures: (arm: A) => F,
): Record<A, F> {
  const row = {} as Record<A, F>;
  for (const arm of arms) row[arm] = figures(arm);
  return row;
}
