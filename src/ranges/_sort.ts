/**
 * Internal: ascending numeric sort, in place, of the first `n` entries of a
 * typed array of line numbers (the one `mergeRanges` packs starts and ends into).
 *
 * Line numbers below 2^32 go through an LSD radix sort (11-bit digits, only as
 * many passes as the largest value needs), which beats the engine's comparison
 * sort on large inputs. Anything else goes through the native typed-array sort,
 * which compares numbers without calling back into JavaScript.
 * Not for general use: values must be non-negative integers.
 */

const RADIX_BITS = 11;
/** 2^RADIX_BITS buckets; written out so a bundle that never sorts drops it. */
const RADIX = 2048;
const MASK = 2047;
/** Below this many values the native sort wins: bucket counting has a fixed cost. */
const RADIX_MIN = 2048;

/** Sorts the first `n` values of `a` ascending, in place. */
export function sortNumbers(a: Float64Array, n: number, max: number): void {
  if (n < RADIX_MIN || max >= 2 ** 32) {
    a.subarray(0, n).sort();
    return;
  }
  let src = new Uint32Array(a.subarray(0, n));
  let dst = new Uint32Array(n);
  const count = new Uint32Array(RADIX);
  for (let shift = 0; shift < 32 && max >>> shift !== 0; shift += RADIX_BITS) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i]! >>> shift) & MASK]!++;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const v = src[i]!;
      dst[count[(v >>> shift) & MASK]!++] = v;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  for (let i = 0; i < n; i++) a[i] = src[i]!;
}
