/**
 * Reading a ledger event once, here, into plain typed data the
 * reducer trusts. An event the reducer cannot use reads as `null`, and the
 * reducer then returns the ledger as it was.
 */

import { positiveIntegers, prop, shortString } from '../boundary/read.js';
import { projectKey } from './project-key.js';
import { readGeneration } from './random.js';
import { MAX_ROOT_CHARS, sanitizeEmission } from './read-emission.js';
import { bucketOf, normalizeSessionId } from './session-id.js';
import type { Emission, LedgerLimits } from './types.js';

/**
 * A ledger event as the reducer trusts it: read once, here, into plain typed
 * data. `session` is the normalized bucket (`null` = the default bucket).
 */
export type CheckedEvent =
  | {
      readonly type: 'reserved';
      readonly session: string | null;
      readonly projectRoot: string;
      readonly generation: string | undefined;
    }
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

/**
 * A `pruned` event from its fields: `projectRoot` absent or a usable root,
 * `calls` absent or an array of positive safe integers; else `null` (it prunes
 * nothing). `session` is the bucket, already normalized.
 */
export function readPruned(
  projectRoot: unknown,
  calls: unknown,
  session: string | null,
): CheckedEvent | null {
  let key: string | undefined;
  if (projectRoot !== undefined) {
    const usable = shortString(projectRoot, MAX_ROOT_CHARS);
    if (usable === undefined) return null;
    key = projectKey(usable);
  }
  const indexes = calls === undefined ? undefined : positiveIntegers(calls);
  if (indexes === null) return null;
  return { type: 'pruned', session, key, calls: indexes && new Set(indexes) };
}

/**
 * A `reserved` event: `null` when the root is not usable; a `generation`
 * that is not a numbering tag reads as none.
 */
export function readReserved(
  projectRoot: unknown,
  sessionId: unknown,
  generation: unknown,
): Extract<CheckedEvent, { type: 'reserved' }> | null {
  const root = shortString(projectRoot, MAX_ROOT_CHARS);
  if (root === undefined) return null;
  return {
    type: 'reserved',
    session: bucketOf(sessionId),
    projectRoot: root,
    generation: readGeneration(generation),
  };
}

/** A `recorded` event: `null` when the emission has no usable `projectRoot`. */
export function readRecorded(
  emission: unknown,
  sessionId: unknown,
  limits: LedgerLimits,
): Extract<CheckedEvent, { type: 'recorded' }> | null {
  const clean = sanitizeEmission(emission, limits);
  if (clean === null) return null;
  return { type: 'recorded', session: bucketOf(sessionId), emission: clean };
}

/** A `forgotten` event: `null` for an id that names the default bucket (it must never be wiped). */
export function readForgotten(sessionId: unknown): CheckedEvent | null {
  const session = normalizeSessionId(sessionId);
  return session === undefined ? null : { type: 'forgotten', session };
}

/** The one `cleared` event: it carries nothing to read. */
export const CLEARED: CheckedEvent = /* @__PURE__ */ Object.freeze({ type: 'cleared' });

/**
 * An event read from outside, or `null` when it is unknown or malformed (the
 * reducer then returns the ledger as it is): a `reserved` without a usable
 * root (a `generation` that is not a tag reads as none), a `recorded` without
 * a usable emission, a `forgotten` whose id names the default bucket (a malformed id
 * must never wipe it), a `pruned` whose `projectRoot` is present but not a
 * usable root, or whose `calls` is present but not an array of positive safe
 * integers.
 */
export function readEvent(raw: unknown, limits: LedgerLimits): CheckedEvent | null {
  switch (prop(raw, 'type')) {
    case 'reserved':
      return readReserved(
        prop(raw, 'projectRoot'),
        prop(raw, 'sessionId'),
        prop(raw, 'generation'),
      );
    case 'recorded':
      return readRecorded(prop(raw, 'emission'), prop(raw, 'sessionId'), limits);
    case 'forgotten':
      return readForgotten(prop(raw, 'sessionId'));
    case 'cleared':
      return CLEARED;
    case 'pruned':
      return readPruned(
        prop(raw, 'projectRoot'),
        prop(raw, 'calls'),
        bucketOf(prop(raw, 'sessionId')),
      );
    default:
      return null;
  }
}
