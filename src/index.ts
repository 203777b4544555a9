/**
 * span-ledger: remember which source lines an explore-style code tool already
 * sent in a conversation, and point at them instead of sending them again.
 *
 * This file only re-exports; the public surface reads in one screen.
 */

export * from './dedup/index.js';
export { fingerprint, fingerprintBackend } from './hash/fingerprint.js';
export * from './ledger/index.js';
export type {
  CallRecord,
  Emission,
  FileEmission,
  LedgerLimits,
  ProjectState,
  SessionView,
} from './ledger/types.js';
export * from './ranges/index.js';
export * from './shared/index.js';
export {
  CONTEXT_INPUT_SCHEMA,
  contextIdFromMeta,
  MAX_REFRESH_CALLS,
  REFRESH_INPUT_SCHEMA,
  type Refresh,
  readContextToken,
  readRefresh,
} from './wire/args.js';
export { mintContextToken } from './wire/context-token.js';
export * from './wire/index.js';
