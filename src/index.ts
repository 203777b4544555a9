/**
 * span-ledger: remember which source lines an explore-style code tool already
 * sent in a conversation, and point at them instead of sending them again.
 *
 * This file only re-exports, by name and in the order a host uses them: the
 * public surface reads in one screen. The shared store is `span-ledger/shared`,
 * the worker-boundary carriers `span-ledger/wire`, the renderer and recorder
 * `span-ledger/adapter`.
 */

// Planning: the gates per file, the call-level rules, the pointer text.
export {
  describeSession,
  formatSessionBlock,
  type PriorFile,
  type SessionDiagnostics,
} from './dedup/diagnostics.js';
export type { DedupGate, GateDecision, GateReason, GateVerdict } from './dedup/gates.js';
export {
  type CallBudget,
  type CallPlan,
  type PlanCallFile,
  type PlanCallInput,
  planCall,
} from './dedup/plan-call.js';
export { type FilePlan, type FileRender, type PlanFileInput, planFile } from './dedup/plan-file.js';
export { type PlanReadInput, planRead } from './dedup/plan-read.js';
export { formatPointer, type PointerInput, type PointerWords } from './dedup/pointer.js';
export { type Served, type ServedByQuery, servedBy } from './dedup/served-by.js';
export {
  type LineSymbolNode,
  type SymbolKind,
  type SymbolNode,
  type SymbolsBy,
  type SymbolsInSpansOptions,
  symbolsInSpans,
} from './dedup/symbols.js';
export {
  DEDUP_THRESHOLDS,
  type DedupEnvOptions,
  type DedupThresholds,
  dedupEnabledFromEnv,
} from './dedup/thresholds.js';
// The content fingerprint.
export { fingerprint } from './hash/fingerprint.js';
// The session ledger: what each conversation was served.
export { createLedger, ledgerReducer, sessionView } from './ledger/ledger.js';
export { DEFAULT_LIMITS, READ_TOOL_LIMITS } from './ledger/limits.js';
export { projectKey } from './ledger/project-key.js';
export { projectFromView, servedRangesForFile } from './ledger/selectors.js';
export { normalizeSessionId } from './ledger/session-id.js';
export { createSessionStore } from './ledger/store.js';
export type {
  CallRecord,
  ClearedEvent,
  Emission,
  FileEmission,
  ForgottenEvent,
  Ledger,
  LedgerEvent,
  LedgerLimits,
  ProjectState,
  PrunedEvent,
  PruneRequest,
  RecordedEvent,
  Reservation,
  ReservedEvent,
  SessionStore,
  SessionView,
} from './ledger/types.js';
// Line ranges: the one data type every other part speaks.
export { type CoalescedRanges, coalesceRanges } from './ranges/coalesce.js';
export { countLines, rangesCover } from './ranges/cover.js';
export { type DedupedRange, dedupeRange } from './ranges/dedupe.js';
export { formatSpans } from './ranges/format.js';
export { mergeRanges } from './ranges/merge.js';
export { isLineRange, type LineRange } from './ranges/range.js';
export {
  intersectRange,
  intersectRanges,
  subtractRange,
  subtractRanges,
} from './ranges/setops.js';

// Token estimates, for budgets in tokens.
export { estimateTokens } from './text/tokens.js';

// The tool path: what the agent sends, and recording what went out.
export {
  CONTEXT_INPUT_SCHEMA,
  contextIdFromMeta,
  REFRESH_INPUT_SCHEMA,
  type ReadContextTokenOptions,
  type Refresh,
  readContextToken,
  readRefresh,
} from './wire/args.js';
export { type MintContextTokenOptions, mintContextToken } from './wire/context-token.js';
export { type EmissionSink, type RecordOptions, recordSafely } from './wire/emission.js';
