/**
 * Random strings from the platform's crypto, for what must not collide by a
 * weak generator's accident: context tokens (see `mintContextToken`). Every
 * char of the alphabet is equally likely.
 */

interface RandomSource {
  getRandomValues(bytes: Uint8Array): Uint8Array;
}

/**
 * `length` chars of `alphabet` (at most 256 symbols), each drawn uniformly
 * from `crypto.getRandomValues`.
 *
 * @throws {Error} on a runtime without a global `crypto.getRandomValues`
 *   (Node 18 without `--experimental-global-webcrypto`), naming `who`.
 */
export function randomChars(alphabet: string, length: number, who: string): string {
  const crypto = (globalThis as { crypto?: Partial<RandomSource> }).crypto;
  if (typeof crypto?.getRandomValues !== 'function') {
    throw new Error(`${who}: this runtime has no crypto.getRandomValues`);
  }
  // Bytes at or above the largest multiple of the alphabet's size are
  // rejected, so every char is equally likely.
  const unbiased = 256 - (256 % alphabet.length);
  let out = '';
  const bytes = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b < unbiased && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}
