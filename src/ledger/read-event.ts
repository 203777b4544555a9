/**
 * Reading a ledger event once, here, into plain typed data the
 * reducer trusts. An event the reducer cannot use reads as `null`, and the
 * reducer then returns the ledger as it was.
 */

import { at, listOf, prop, shortString } from '../boundary/read.js';
import { projectKey } from './project-key.js';
import { MAX_ROOT_CHARS, sanitizeEmission } from './read-emission.js';
import { normalizeSessionId } from './session-id.js';
import type { Emission, LedgerLimits } from './types.js';

/**
 * A ledger event as the reducer trusts it: read once, here, into plain typed
 * data. `session` is the normalized bucket (`null` = the default bucket).
 */
export type CheckedEvent =
  | { readonly type: 'recorded'; readonly session: string | null; readonly emission: Emission }
  | { readonly type: 'forgotten'; readonly session: string }
  | { readonly type: 'cleared' }
  | {
      readonly type: 'pruned';
      readonly session: string | null;
      /** `projectKey` of the root to prune, or `undefined` for every entry of the bucket. */
      readonly key: string | undefined;
      /** The record indexes to drop, or `undefined` for every retained record. */
      readonly calls: ReadonlySet<number> | undefined;
    };

function isCallIndex(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 1;
}

/**
 * The indexes of a `calls` list: `undefined` when absent, `null` when a member
 * is not a positive safe integer. Anything else that is not an array reads as
 * an empty list, which names no record: either way such a list prunes nothing.
 */
function readCallIndexes(raw: unknown): ReadonlySet<number> | undefined | null {
  if (raw === undefined) return undefined;
  const { list, length } = listOf(raw);
  const out = new Set<number>();
  for (let i = 0; i < length; i++) {
    const index = at(list, i);
    if (!isCallIndex(index)) return null;
    out.add(index);
  }
  return out;
}

function readPruned(raw: unknown): CheckedEvent | null {
  const root = prop(raw, 'projectRoot');
  let key: string | undefined;
  if (root !== undefined) {
    const usable = shortString(root, MAX_ROOT_CHARS);
    if (usable === undefined) return null;
    key = projectKey(usable);
  }
  const calls = readCallIndexes(prop(raw, 'calls'));
  if (calls === null) return null;
  return {
    type: 'pruned',
    session: normalizeSessionId(prop(raw, 'sessionId')) ?? null,
    key,
    calls,
  };
}

/**
 * An event read from outside, or `null` when it is unknown or malformed (the
 * reducer then returns the ledger as it is): a `recorded` without a usable
 * emission, a `forgotten` whose id names the default bucket (a malformed id
 * must never wipe it), a `pruned` whose `projectRoot` is present but not a
 * usable root, or whose `calls` is present but not an array of positive safe
 * integers.
 */
export function readEvent(raw: unknown, limits: LedgerLimits): CheckedEvent | null {
  switch (prop(raw, 'type')) {
    case 'recorded': {
      const emission = sanitizeEmission(prop(raw, 'emission'), limits);
      if (emission === null) return null;
      const session = normalizeSessionId(prop(raw, 'sessionId')) ?? null;
      return { type: 'recorded', session, emission };
    }
    case 'forgotten': {
      const session = normalizeSessionId(prop(raw, 'sessionId'));
      return session === undefined ? null : { type: 'forgotten', session };
    }
    case 'cleared':
      return { type: 'cleared' };
    case 'pruned':
      return readPruned(raw);
    default:
      return null;
  }
}
