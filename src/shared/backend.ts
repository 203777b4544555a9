/**
 * What a shared session store keeps its values in: a key–value service with
 * a compare-and-set and a time to live (Redis, Valkey), or, for tests and
 * single-process hosts, the in-memory backend below. Not a cache interface in
 * general: it has exactly the two operations the store needs.
 */
import { option } from './_options.js';

/**
 * A key–value service the shared store writes one value per session bucket
 * to. Keys and values are opaque strings to it.
 *
 * A backend may reject, throw or hang: the store degrades around it.
 */
export interface SharedStoreBackend {
  /** The value of `key`, or `null` when there is none (never set, or expired). */
  get(key: string): Promise<string | null>;
  /**
   * Atomically: when `key` holds `expected` (`null`: nothing), sets it to
   * `next` with a lifetime of `ttlMs` milliseconds and resolves `true`;
   * otherwise changes nothing and resolves `false`. With `deadline` (a
   * `Date.now()` time), a write the backend reaches after it changes nothing
   * either: the store gave up on it, and its call's answer has left without
   * it. A backend that cannot tell the time where it applies the write (a
   * remote server's clock) compares with its own.
   */
  compareAndSet(
    key: string,
    expected: string | null,
    next: string,
    ttlMs: number,
    deadline?: number,
  ): Promise<boolean>;
  /**
   * Optional: drops every value the store wrote (`SharedSessionStore.clear`
   * calls it). A backend without one cannot be emptied through the store.
   */
  clear?(): Promise<void>;
}

/**
 * Options of {@link createMemoryBackend}.
 */
export interface MemoryBackendOptions {
  /** The clock expiry reads, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * The in-memory backend: a {@link SharedStoreBackend} that can also say how
 * many values it holds, and be emptied.
 */
export interface MemoryBackend extends SharedStoreBackend {
  /** Values held, counting expired ones not yet dropped (a write drops those that expired first). */
  size(): number;
  /** Drops every value. */
  clear(): Promise<void>;
}

/**
 * A {@link SharedStoreBackend} in this process's memory: for tests, and for a
 * single-process host that wants the shared store's expiry. Values expire
 * like Redis keys: an expired value reads as absent, and expired values are
 * dropped as later writes come in, so abandoned sessions do not accumulate.
 *
 * @example
 * ```ts
 * let clock = 0;
 * const backend = createMemoryBackend({ now: () => clock });
 * await backend.compareAndSet('k', null, 'v1', 1000); // true
 * await backend.compareAndSet('k', null, 'v2', 1000); // false: 'k' holds a value
 * await backend.get('k');                             // 'v1'
 * clock = 1000;
 * await backend.get('k');                             // null: its TTL ran out
 * await backend.clear();                              // every value goes
 * backend.size();                                     // 0
 * ```
 * @throws {TypeError} when `options` is not an object or `options.now` not a function.
 */
export function createMemoryBackend(options?: MemoryBackendOptions): MemoryBackend {
  const clock = option(options, 'now', 'createMemoryBackend(options)');
  if (clock !== undefined && typeof clock !== 'function') {
    throw new TypeError('createMemoryBackend(options): options.now must be a function');
  }
  const now = (clock as (() => number) | undefined) ?? Date.now;
  // Insertion order is write order: re-set keys move to the end, so the values
  // that expire first are at the front.
  const values = new Map<string, { value: string; expiresAt: number }>();

  function current(key: string): string | null {
    const held = values.get(key);
    if (held === undefined) return null;
    if (held.expiresAt > now()) return held.value;
    values.delete(key);
    return null;
  }

  function sweep(): void {
    const t = now();
    for (const [key, held] of values) {
      if (held.expiresAt > t) return;
      values.delete(key);
    }
  }

  return {
    async get(key) {
      return current(key);
    },
    async compareAndSet(key, expected, next, ttlMs, deadline) {
      if (now() > (deadline ?? Number.POSITIVE_INFINITY)) return false;
      if (current(key) !== expected) return false;
      values.delete(key);
      values.set(key, { value: next, expiresAt: now() + ttlMs });
      sweep();
      return true;
    },
    size() {
      return values.size;
    },
    async clear() {
      values.clear();
    },
  };
}
