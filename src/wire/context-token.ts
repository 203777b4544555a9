/**
 * Minting context tokens: the random string a host prints in a response
 * header so the agent context that received it can echo it back (see
 * `readContextToken`). Inside one connection a token is only a bucket key;
 * where it keys state other clients reach (a shared store), it is a secret,
 * and long enough that nobody guesses it.
 */
import { prop } from '../boundary/read.js';
import { randomChars } from '../ledger/random.js';

/** Lower-case letters and digits: easy for a model to copy back exactly. */
const LOCAL_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** 64 symbols, 6 bits a char: 22 chars carry 132 bits. */
const SHARED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/**
 * The length of a token that keys shared state: 22 chars of `A-Za-z0-9_-`,
 * at least 128 bits.
 */
export const SHARED_TOKEN_CHARS = 22;

/**
 * What {@link mintContextToken} makes.
 */
export interface MintContextTokenOptions {
  /**
   * The token keys state that other clients reach (a shared store, a
   * stateless server): 22 chars of `A-Za-z0-9_-` (132 bits) instead of 8 of
   * `a-z0-9`.
   */
  readonly shared?: boolean | undefined;
}

/**
 * A fresh context token from the platform's `crypto.getRandomValues`, which
 * `readContextToken` accepts back: 8 random chars of `a-z0-9` for a store in
 * this process (only the one connection reaches it), or with `shared: true`
 * 22 of `A-Za-z0-9_-` — 132 bits, a secret nobody guesses — for a store
 * other clients reach. The host mints one when a call carries none, prints it
 * in the response header, and uses it as the call's `sessionId`.
 *
 * @throws {Error} on a runtime without a global `crypto.getRandomValues`
 *   (Node 18 without `--experimental-global-webcrypto`; Node ≥ 19, Bun, Deno
 *   and browsers have it).
 * @example
 * ```ts
 * const token = readContextToken({ query: 'auth' }) ?? mintContextToken(); // none sent: e.g. 'k7f3q2ab'
 * /^[a-z0-9]{8}$/.test(token);                  // true
 * readContextToken({ context: token }) === token; // true: the agent can echo it
 * mintContextToken({ shared: true }).length;    // 22: for a store other clients reach
 * ```
 */
export function mintContextToken(options?: MintContextTokenOptions): string {
  return prop(options, 'shared') === true
    ? randomChars(SHARED_ALPHABET, SHARED_TOKEN_CHARS, 'mintContextToken()')
    : randomChars(LOCAL_ALPHABET, 8, 'mintContextToken()');
}
