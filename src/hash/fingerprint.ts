/**
 * The content fingerprint: proof that the reader's copy of a file is still
 * exact. Dedup withholds a span only when the file's current fingerprint equals
 * the one it was served from.
 *
 * Not a security primitive: it detects edits, not adversaries.
 */
import { isArray } from '../boundary/read.js';
import { nativeCreateHash } from './_native.js';
import { sha1Hex } from './_sha1.js';

const createHash = /* @__PURE__ */ nativeCreateHash();
let encoder: TextEncoder | undefined;

/**
 * Which SHA-1 implementation {@link fingerprint} uses on this runtime.
 *
 * @example
 * ```ts
 * fingerprintBackend(); // 'native': Node's SHA-1 ('portable' in browsers, workers and Deno)
 * ```
 */
export function fingerprintBackend(): 'native' | 'portable' {
  return createHash ? 'native' : 'portable';
}

/** Full SHA-1 hex of the UTF-8 bytes of `content`, on either backend. */
export function sha1OfUtf8(content: string, backend = fingerprintBackend()): string {
  if (backend === 'native' && createHash)
    return createHash('sha1').update(content, 'utf8').digest('hex');
  encoder ??= new TextEncoder();
  return sha1Hex(encoder.encode(content));
}

/**
 * Fingerprints file content as `` `${length}:${sha1prefix}` ``: the length in
 * UTF-16 code units, a colon, then the first 16 hex digits of SHA-1 over the
 * UTF-8 bytes (a lone surrogate encodes as U+FFFD, as `TextEncoder` does). The
 * length prefix keeps two contents of different size from aliasing on a
 * hash-prefix collision.
 *
 * Synchronous on every runtime. On Node it is the native OpenSSL hash; in
 * browsers, workers and Deno a portable SHA-1 that gives identical results.
 *
 * @throws {TypeError} when `content` is not a string.
 * @example
 * ```ts
 * fingerprint('');      // '0:da39a3ee5e6b4b0d'
 * fingerprint('abc');   // '3:a9993e364706816a'
 * fingerprint(Buffer.from('abc') as never); // throws TypeError: content must be a string
 * ```
 */
export function fingerprint(content: string): string {
  if (typeof content !== 'string') {
    throw new TypeError(`fingerprint(content): content must be a string, got ${describe(content)}`);
  }
  return `${content.length}:${sha1OfUtf8(content).slice(0, 16)}`;
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  // A revoked proxy cannot say whether it is an array: typeof says 'object'.
  return isArray(x) ? 'an array' : typeof x;
}
