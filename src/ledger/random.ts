/**
 * Random strings from the platform's crypto, for the two things that must
 * not collide by a weak generator's accident: context tokens (see
 * `mintContextToken`) and numbering tags (see `ProjectState.generation`).
 * Every char of the alphabet is equally likely.
 */

interface RandomSource {
  getRandomValues(bytes: Uint8Array): Uint8Array;
}

/** The platform's crypto, or `undefined` on a runtime without `crypto.getRandomValues`. */
function platformCrypto(): RandomSource | undefined {
  const crypto = (globalThis as { crypto?: Partial<RandomSource> }).crypto;
  return typeof crypto?.getRandomValues === 'function' ? (crypto as RandomSource) : undefined;
}

/**
 * `length` chars of `alphabet` (at most 256 symbols), each drawn uniformly
 * from `crypto.getRandomValues`.
 *
 * @throws {Error} on a runtime without a global `crypto.getRandomValues`
 *   (Node 18 without `--experimental-global-webcrypto`), naming `who`.
 */
export function randomChars(alphabet: string, length: number, who: string): string {
  const crypto = platformCrypto();
  if (crypto === undefined) throw new Error(`${who}: this runtime has no crypto.getRandomValues`);
  return drawChars(crypto, alphabet, length);
}

/** `length` chars of `alphabet`, uniformly, from `crypto`. */
function drawChars(crypto: RandomSource, alphabet: string, length: number): string {
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

/** Lower-case letters only, so a tag never reads as a number or a range (`#4/kqfz`). */
const TAG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** A numbering tag is 1 to 8 lower-case letters. */
const TAG = /^[a-z]{1,8}$/;

/**
 * A fresh numbering tag: 4 random lower-case letters (456,976 of them: two
 * numberings of one context share a tag once in that many losses). A tag
 * only tells numberings apart and keeps no secret, so a runtime without the
 * platform's crypto draws it with `Math.random`: taking a number never fails.
 */
export function mintGeneration(): string {
  const crypto = platformCrypto();
  if (crypto !== undefined) return drawChars(crypto, TAG_ALPHABET, 4);
  let tag = '';
  while (tag.length < 4) tag += TAG_ALPHABET[Math.floor(Math.random() * TAG_ALPHABET.length)];
  return tag;
}

/** `raw` when it is a numbering tag, else `undefined`. */
export function readGeneration(raw: unknown): string | undefined {
  return typeof raw === 'string' && TAG.test(raw) ? raw : undefined;
}
