/**
 * span-ledger/shared: the session store for hosts that run several processes
 * behind one address — every session's ledger in a backend they share (Redis
 * through `span-ledger/redis`, or memory for tests and single-process hosts).
 */
export {
  createMemoryBackend,
  type MemoryBackend,
  type MemoryBackendOptions,
  type SharedStoreBackend,
} from './backend.js';
export {
  createSharedSessionStore,
  type SharedSessionStore,
  type SharedSessionStoreOptions,
} from './store.js';
