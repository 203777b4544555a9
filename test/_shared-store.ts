/**
 * What the shared store's tests share: a store that waits on its backend as
 * long as a loaded machine needs, since time is not what they check.
 */
import {
  createSharedSessionStore,
  type SharedSessionStoreOptions,
  type SharedStoreBackend,
} from '../src/shared/index.js';

/** `createSharedSessionStore(backend, options)` with a one-minute timeout unless told otherwise. */
export function patient(backend: SharedStoreBackend, options: SharedSessionStoreOptions = {}) {
  return createSharedSessionStore(backend, { timeoutMs: 60_000, ...options });
}
