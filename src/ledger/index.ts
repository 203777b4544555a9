/**
 * The session ledger: what each conversation was served, as plain data, and
 * the selectors that read it.
 */

export { createLedger, ledgerReducer, sessionView } from './ledger.js';
export { DEFAULT_LIMITS, MAX_EVICTED_COUNTERS, READ_TOOL_LIMITS } from './limits.js';
export { projectKey } from './project-key.js';
export { projectFromView, servedRangesForFile } from './selectors.js';
export { normalizeSessionId } from './session-id.js';
export { createSessionStore, type PruneRequest, type SessionStore } from './store.js';
export type {
  CallRecord,
  ClearedEvent,
  Emission,
  EvictedCounters,
  FileEmission,
  ForgottenEvent,
  Ledger,
  LedgerEntry,
  LedgerEvent,
  LedgerLimits,
  ProjectState,
  PrunedEvent,
  RecordedEvent,
  SessionView,
} from './types.js';
