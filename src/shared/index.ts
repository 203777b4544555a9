/**
 * The shared session store: every session's ledger in a backend several
 * processes share (Redis through `span-ledger/redis`, or memory).
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
