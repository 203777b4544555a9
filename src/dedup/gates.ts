/**
 * The vocabulary a plan explains itself in: the five gates, their verdicts and
 * reason codes. Types only; the decisions are made in `plan-file.ts`.
 */

/**
 * The five gates, in the order a file passes them.
 */
export type DedupGate = 'switch' | 'session' | 'content' | 'size' | 'delta';

/**
 * What a gate did:
 * - `pass` — withholding may go on past this gate (for `delta`: the new lines
 *   are sent as source after the pointer, or there are none);
 * - `stop` — this gate ends withholding: the file renders in full;
 * - `fold` — the delta gate folded a small new remainder into the pointer;
 * - `skip` — not reached, an earlier gate stopped.
 */
export type GateVerdict = 'pass' | 'stop' | 'fold' | 'skip';

/**
 * Why a gate decided as it did.
 *
 * | gate | reason codes |
 * | --- | --- |
 * | switch | `enabled`, `disabled` |
 * | session | `has-history`, `untracked` (no ledger: nobody tracks this call), `first-call` (tracked, no calls retained) |
 * | content | `fingerprint-match`, `never-served`, `fingerprint-changed` (served, but from other content), `no-fingerprint` (served records carried none: unprovable), `no-content` (content was not a string), `unusable-path` (a path no ledger record is keyed on: a NUL, a `..` segment, over 4,096 chars) |
 * | size | `covered`, `no-overlap` (held lines lie outside the intended spans), `below-min-covered` (held runs all shorter than `minCoveredLines`) |
 * | delta | `delta-kept`, `all-covered`, `folded-small-delta`, `nothing-covered` |
 *
 * Any gate after a `stop` reads `not-reached`, except `delta`, which reads
 * `nothing-covered`.
 */
export type GateReason =
  | 'enabled'
  | 'disabled'
  | 'has-history'
  | 'untracked'
  | 'first-call'
  | 'fingerprint-match'
  | 'never-served'
  | 'fingerprint-changed'
  | 'no-fingerprint'
  | 'no-content'
  | 'unusable-path'
  | 'covered'
  | 'no-overlap'
  | 'below-min-covered'
  | 'delta-kept'
  | 'all-covered'
  | 'folded-small-delta'
  | 'nothing-covered'
  | 'not-reached';

/**
 * One gate's decision for one file.
 */
export interface GateDecision {
  readonly gate: DedupGate;
  readonly verdict: GateVerdict;
  readonly reason: GateReason;
}
