/**
 * The bounds on what a ledger keeps, and how a caller's limits are checked.
 * Bounds cut detail only: the per-entry counters are never reset by them.
 */
import type { LedgerLimits } from './types.js';

/**
 * The bounds a ledger keeps to unless told otherwise. Sized on real sessions:
 * an agent explores one project (a second in a monorepo) in one to five calls,
 * so these windows hold a whole ordinary session and only bite on pathological
 * ones.
 *
 * - `maxProjects: 4` — (session, project) entries across the ledger; a session
 *   that moved on to four other repositories rarely comes back to the first.
 * - `maxCallsRetained: 8` — call records per entry: more than a normal session makes.
 * - `maxFilesPerCall: 24` — files per record, those with the most chars; a
 *   ranked response rarely sends more.
 * - `maxRangesPerFile: 24` — merged spans per file, the largest; the smallest
 *   are forgotten (a re-send), never widened (an invented line).
 * - `maxViewCalls: 4` — calls per project handed to a tool call: what a call
 *   needs to decide, small enough to clone into a worker on every call.
 * - `maxRangesRetained: 4096` — ranges per entry over its retained records,
 *   the oldest records dropped whole past it. Only the most extreme entry the
 *   call bounds allow here reaches it (8 × 24 × 24 = 4,608 ranges; real
 *   sessions hold a few dozen), so under these limits it almost never binds;
 *   it is the bound that binds when the call bounds are raised, as
 *   `READ_TOOL_LIMITS` does.
 * - `maxViewRanges: 1024` — ranges per project in a view, counted from the most
 *   recent record back; the oldest records go whole. Keeps the clone into a
 *   worker small whatever the call bounds say.
 */
export const DEFAULT_LIMITS: LedgerLimits = /* @__PURE__ */ Object.freeze({
  maxProjects: 4,
  maxCallsRetained: 8,
  maxFilesPerCall: 24,
  maxRangesPerFile: 24,
  maxViewCalls: 4,
  maxRangesRetained: 4096,
  maxViewRanges: 1024,
});

/**
 * The preset for read tools (`read_file(path, offset?, limit?)`): one file per
 * call, dozens of calls a session. The call windows are raised so a read five
 * calls ago is still known, and the range bounds are what binds.
 *
 * - `maxCallsRetained: 256`, `maxViewCalls: 256` — a long read session, whole.
 * - `maxFilesPerCall: 8` — a multi-file read rarely asks for more.
 * - the rest as {@link DEFAULT_LIMITS}, `maxRangesRetained` and `maxViewRanges`
 *   included: those bound memory and the view's size.
 */
export const READ_TOOL_LIMITS: LedgerLimits = /* @__PURE__ */ Object.freeze(
  // Assigned, not spread: a spread may run getters, so a bundler keeps it in
  // every bundle that loads this module, used or not.
  /* @__PURE__ */ Object.assign({}, DEFAULT_LIMITS, {
    maxCallsRetained: 256,
    maxFilesPerCall: 8,
    maxViewCalls: 256,
  }),
);

/**
 * How many evicted entries' counters a ledger remembers. Past it the oldest are
 * forgotten (a returning project then counts from 1 again): a few numbers per
 * entry, so the bound is generous, but it is a bound.
 */
export const MAX_EVICTED_COUNTERS = 64;

/**
 * How many reserved, not yet recorded numbers an entry remembers: the most
 * recent. A call whose number fell out records nothing (a re-send later):
 * 64 calls of one context in flight at once is more than any agent runs.
 */
export const MAX_PENDING = 64;
