/**
 * Minting context tokens: the short random string a host prints in a response
 * header so the agent context that received it can echo it back (see
 * `readContextToken`). A token is a bucket key inside one connection, not a
 * secret; it comes from the platform's crypto so two contexts never collide
 * by a weak generator's accident.
 */

/** Lower-case letters and digits: easy for a model to copy back exactly. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 8;
/** Bytes at or above this are rejected, so every char is equally likely (252 = 7 × 36). */
const UNBIASED = 252;

interface RandomSource {
  getRandomValues(bytes: Uint8Array): Uint8Array;
}

/**
 * A fresh context token: 8 random chars of `a-z0-9` from the platform's
 * `crypto.getRandomValues`, which `readContextToken` accepts back. The host
 * mints one when a call carries none, prints it in the response header, and
 * uses it as the call's `sessionId`.
 *
 * @throws {Error} on a runtime without a global `crypto.getRandomValues`
 *   (Node 18 without `--experimental-global-webcrypto`; Node ≥ 19, Bun, Deno
 *   and browsers have it).
 * @example
 * ```ts
 * const token = readContextToken({ query: 'auth' }) ?? mintContextToken(); // none sent: e.g. 'k7f3q2ab'
 * /^[a-z0-9]{8}$/.test(token);                  // true
 * readContextToken({ context: token }) === token; // true: the agent can echo it
 * ```
 */
export function mintContextToken(): string {
  const crypto = (globalThis as { crypto?: Partial<RandomSource> }).crypto;
  if (typeof crypto?.getRandomValues !== 'function') {
    throw new Error('mintContextToken(): this runtime has no crypto.getRandomValues');
  }
  let token = '';
  const bytes = new Uint8Array(LENGTH * 2);
  while (token.length < LENGTH) {
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b < UNBIASED && token.length < LENGTH) token += ALPHABET[b % ALPHABET.length];
    }
  }
  return token;
}
