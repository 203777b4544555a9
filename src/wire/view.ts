/**
 * Carrying a session view into a tool call (possibly across a worker
 * boundary), and reading it back there. The view decides what later calls may
 * withhold, so it must come only from the server's own ledger: whatever the
 * client put under the same key is removed, and whatever arrives is validated.
 */
import { copyWithout } from '../boundary/copy.js';
import { prop } from '../boundary/read.js';
import { DEFAULT_LIMITS } from '../ledger/limits.js';
import { readLimits } from '../ledger/read-limits.js';
import { readView } from '../ledger/read-view.js';
import type { LedgerLimits, SessionView } from '../ledger/types.js';
import { VIEW_KEY } from './keys.js';

/**
 * Tool arguments with the server's view attached.
 */
export type WithSessionView<T> = Omit<T, typeof VIEW_KEY> & { readonly [VIEW_KEY]?: SessionView };

/**
 * A shallow copy of `args` without any client-supplied {@link VIEW_KEY}, with
 * the server's `view` set under it when `view` is not `null`. Never mutates
 * `args`; `null` or `undefined` args read as `{}`. Never throws.
 *
 * @example
 * ```ts
 * import { createSessionStore } from 'span-ledger';
 *
 * const spans = createSessionStore();
 * const forwarded = withSessionView({ query: 'auth' }, spans.view()); // into the worker
 * forwarded; // → { query: 'auth', _spanLedgerView: { version: 1, projects: [] } }
 * const forged = { version: 1, projects: [] }; // a client's own view is never trusted
 * withSessionView({ query: 'auth', _spanLedgerView: forged }, null); // → { query: 'auth' }
 * ```
 */
export function withSessionView<T extends object>(
  args: T | null | undefined,
  view: SessionView | null,
): WithSessionView<T> {
  // Args that cannot be copied cannot be forwarded faithfully either: send none.
  const copy: Record<PropertyKey, unknown> =
    (typeof args === 'object' && args !== null ? copyWithout(args, VIEW_KEY) : undefined) ?? {};
  if (view !== null && view !== undefined) copy[VIEW_KEY] = view;
  return copy as WithSessionView<T>;
}

/**
 * The session view carried in `args`, validated and sanitized, or `null` when
 * there is none or it is not a version-1 view with a `projects` array (nobody
 * tracks this call: nothing may be withheld). Never throws.
 *
 * Malformed parts are dropped, never repaired into something the server did
 * not send: projects without a usable `projectRoot`, records without a
 * positive integer `index`, files without a path, invalid spans. What is kept
 * is bounded by `limits` (default {@link DEFAULT_LIMITS}; pass your store's
 * when they are larger, `READ_TOOL_LIMITS` for a read tool): at most
 * `maxProjects` projects (the first per key), each with its most recent
 * records within `maxViewCalls` and `maxViewRanges` (the oldest go first,
 * whole), of at most `maxFilesPerCall` files and `maxRangesPerFile` spans. A
 * view claiming 100,000 projects reads as a handful. What it returns is
 * frozen.
 *
 * @example
 * ```ts
 * import { projectFromView } from 'span-ledger';
 *
 * // in the tool, maybe in a worker
 * const view = readSessionView({ query: 'auth', _spanLedgerView: { version: 1, projects: [] } });
 * projectFromView(view, '/repo')?.callCount;                          // 0: tracked, first call
 * projectFromView(readSessionView({ query: 'auth' }), '/repo');       // null: nobody tracks it
 * readSessionView({ _spanLedgerView: { version: 2, projects: [] } }); // null: not a view
 * ```
 */
export function readSessionView(
  args: unknown,
  limits: Partial<LedgerLimits> = DEFAULT_LIMITS,
): SessionView | null {
  return readView(prop(args, VIEW_KEY), readLimits(limits));
}
