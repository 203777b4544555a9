/**
 * Session ids as ledger keys: which bucket a client's calls land in. Not an
 * authentication scheme: the id is whatever the host says identifies the
 * conversation, and it is a key only — it never appears in a response or a log.
 */
import { sha256OfUtf8 } from '../hash/sha256.js';

/** Ids up to this many chars (after trimming) are keys as they are. */
const MAX_PLAIN_ID = 128;

/**
 * The bucket key for a raw session id.
 *
 * - Not a string, or blank after trimming → `undefined`: the default bucket.
 * - Up to 128 chars after trimming → the trimmed id itself.
 * - Longer → the SHA-256 hex of the trimmed id. Hashed, never truncated: two
 *   long ids that share a prefix stay in two buckets, so one session can never
 *   be served from another's history.
 *
 * Synchronous on every runtime; never throws.
 *
 * @example
 * ```ts
 * normalizeSessionId('  conn-7 ');  // 'conn-7'
 * normalizeSessionId('   ');        // undefined
 * normalizeSessionId(42);           // undefined
 * normalizeSessionId('x'.repeat(200))?.length; // 64: its SHA-256, never cut
 * ```
 */
export function normalizeSessionId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const id = raw.trim();
  if (id === '') return undefined;
  if (id.length <= MAX_PLAIN_ID) return id;
  return sha256OfUtf8(id);
}

/** @internal The bucket a raw session id lands in, as the ledger keys it: `null` is the default bucket. */
export function bucketOf(raw: unknown): string | null {
  return normalizeSessionId(raw) ?? null;
}
