/**
 * Internal: a small synchronous SHA-256 over bytes, for runtimes without a
 * native synchronous hash (browsers, workers, Deno). It only turns long session
 * ids into fixed-size keys; it is not offered as a general hash.
 */

import { hexOfWords } from './_hex.js';
import { padMessage } from './_pad.js';

/** The first 32 bits of the fractional part of `x`, as a signed 32-bit word. */
const fraction32 = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) | 0;

/**
 * The round constants (the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes) and the initial hash (of the square roots of
 * the first 8), computed as FIPS 180-4 defines them rather than written out:
 * every one of those fractions lies more than 0.005 of a unit from a word
 * boundary, a thousand times what a rounding error of `Math.cbrt` can move it.
 * The published test vectors pin the result.
 */
function constants(): { k: Int32Array; h0: Int32Array } {
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  return {
    k: Int32Array.from(primes, (p) => fraction32(Math.cbrt(p))),
    h0: Int32Array.from(primes.slice(0, 8), (p) => fraction32(Math.sqrt(p))),
  };
}

let table: { k: Int32Array; h0: Int32Array } | undefined;

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** SHA-256 of `bytes` as 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  const data = padMessage(bytes);

  table ??= constants();
  const K = table.k;
  const h = Int32Array.from(table.h0);
  const w = new Int32Array(64);
  for (let off = 0; off < data.byteLength; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = data.getInt32(off + t * 4);
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let hh = h[7]!;
    for (let t = 0; t < 64; t++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) | 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + hh) | 0;
  }
  return hexOfWords(h);
}
