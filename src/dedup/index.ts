/**
 * Dedup decisions: the five gates per file, the call-level hold-back and
 * budget, the pointer text, and the session block of diagnostics.
 */
export {
  describeSession,
  formatSessionBlock,
  type PriorFile,
  type SessionDiagnostics,
} from './diagnostics.js';
export type { DedupGate, GateDecision, GateReason, GateVerdict } from './gates.js';
export {
  type CallBudget,
  type CallPlan,
  type PlanCallFile,
  type PlanCallInput,
  planCall,
} from './plan-call.js';
export { type FilePlan, type FileRender, type PlanFileInput, planFile } from './plan-file.js';
export { type PlanReadInput, planRead } from './plan-read.js';
export { type BackReferenceInput, formatBackReference } from './pointer.js';
export {
  type LineSymbolNode,
  type SymbolKind,
  type SymbolNode,
  symbolsInSpans,
} from './symbols.js';
export { DEDUP_THRESHOLDS, type DedupThresholds, dedupEnabledFromEnv } from './thresholds.js';
