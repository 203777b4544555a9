/**
 * Internal: what a project's retained calls served, indexed by path once per
 * call plan, so each file's lookup does not rescan the view. It answers what
 * `servedRangesForFile` answers (records without a fingerprint are ignored),
 * plus why nothing matched, for the content gate's reason code.
 */

import type { ProjectState } from '../ledger/types.js';
import { EMPTY, type Spans, toSpans } from '../ranges/_spans.js';
import { unionSpans } from './_lines.js';

interface PathEntry {
  /** The union of served spans per fingerprint; empty when no record of the path had one. */
  readonly byFingerprint: Map<string, Spans>;
}

/** Served ranges by path, then by fingerprint. */
export type ServedIndex = ReadonlyMap<string, PathEntry>;

/** Where a project stands for the session gate. */
export type SessionState = 'untracked' | 'first-call' | 'has-history';

/** `untracked` for `null` (or anything not an object), `first-call` without retained calls. */
export function sessionStateOf(prior: unknown): SessionState {
  if (prior === null || typeof prior !== 'object') return 'untracked';
  try {
    const calls = (prior as { calls?: unknown }).calls;
    return Array.isArray(calls) && calls.length > 0 ? 'has-history' : 'first-call';
  } catch {
    return 'first-call';
  }
}

/**
 * Indexes the retained calls of `prior`, for the paths in `wanted` only (all
 * paths when absent). Each record's ranges are packed once (already normalized
 * in a ledger's view, so that is a copy) and joined by a linear merge: no sort.
 * Malformed records and files are skipped; a fault while reading gives an
 * empty index (nothing withheld).
 */
export function indexServed(prior: ProjectState | null, wanted?: ReadonlySet<string>): ServedIndex {
  const index = new Map<string, PathEntry>();
  try {
    // No history (null, no calls array) throws here or loops zero times: an empty index.
    for (const call of (prior as ProjectState).calls) {
      if (call === null || typeof call !== 'object' || !Array.isArray(call.files)) continue;
      for (const file of call.files) {
        if (file === null || typeof file !== 'object') continue;
        const { path, fingerprint, ranges } = file;
        if (typeof path !== 'string' || path === '') continue;
        if (wanted && !wanted.has(path)) continue;
        let entry = index.get(path);
        if (!entry) {
          entry = { byFingerprint: new Map() };
          index.set(path, entry);
        }
        if (typeof fingerprint !== 'string' || fingerprint === '') continue;
        const spans = toSpans(ranges);
        const before = entry.byFingerprint.get(fingerprint);
        entry.byFingerprint.set(fingerprint, before ? unionSpans(before, spans) : spans);
      }
    }
  } catch {
    return new Map();
  }
  return index;
}

/** Why nothing, or something, was found for a file. */
export type ServedReason =
  | 'fingerprint-match'
  | 'never-served'
  | 'fingerprint-changed'
  | 'no-fingerprint';

/** The lines of `path` served from exactly `fingerprint`, and the content gate's reason. */
export function servedFor(
  index: ServedIndex,
  path: string,
  fingerprint: string,
): { spans: Spans; reason: ServedReason } {
  const entry = index.get(path);
  if (!entry) return { spans: EMPTY, reason: 'never-served' };
  // Records with an empty fingerprint were never indexed, so '' finds nothing.
  const spans = entry.byFingerprint.get(fingerprint);
  if (spans) return { spans, reason: spans.n > 0 ? 'fingerprint-match' : 'never-served' };
  if (entry.byFingerprint.size > 0) return { spans: EMPTY, reason: 'fingerprint-changed' };
  // The path was served, but never with a fingerprint: unprovable, so re-sent.
  return { spans: EMPTY, reason: 'no-fingerprint' };
}
