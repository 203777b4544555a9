/**
 * Reading a session view that arrived from outside (off the wire
 * into a worker, or written by a caller), and the project states inside views
 * and foreign ledgers, into fresh, frozen ones. The view decides what a call
 * may withhold, so nothing in it is trusted: malformed parts are dropped,
 * never repaired into something the server did not send.
 */

import {
  at,
  count,
  isArray,
  isPositiveInteger,
  listOf,
  prop,
  shortString,
} from '../boundary/read.js';
import { freezeProject } from './frozen.js';
import { DEFAULT_LIMITS } from './limits.js';
import { projectKey } from './project-key.js';
import { MAX_ROOT_CHARS, sanitizeRecord, withNumbering } from './read-emission.js';
import { viewOfProjects } from './reduce.js';
import type { CallRecord, LedgerLimits, ProjectState, SessionView } from './types.js';
import { rangesOf } from './window.js';

/** How many records, and how many ranges over them, a project read from outside keeps. */
export interface RecordWindow {
  readonly calls: number;
  readonly ranges: number;
}

/**
 * A project state read from outside: a usable `projectRoot`, counters as
 * counts, its numbering tag when it is one, and its most recent readable
 * records (oldest first) within `window` (a view's by default:
 * `maxViewCalls` records, `maxViewRanges` ranges); the oldest records go
 * first, whole. A view's project may carry the number reserved for the call
 * (`callIndex`, a positive integer, else none); a ledger's never does
 * (`inLedger`).
 */
export function sanitizeProject(
  raw: unknown,
  limits: LedgerLimits,
  window: RecordWindow = { calls: limits.maxViewCalls, ranges: limits.maxViewRanges },
  inLedger = false,
): ProjectState | null {
  const projectRoot = shortString(prop(raw, 'projectRoot'), MAX_ROOT_CHARS);
  if (projectRoot === undefined) return null;
  const callCount = prop(raw, 'callCount');
  const { list, length } = listOf(prop(raw, 'calls'));
  const calls: CallRecord[] = [];
  let ranges = 0;
  for (let i = length - 1; i >= 0 && calls.length < window.calls; i--) {
    const record = sanitizeRecord(at(list, i), limits);
    if (record === null) continue;
    ranges += rangesOf(record);
    if (ranges > window.ranges) break;
    calls.push(record);
  }
  calls.reverse();
  const project: { -readonly [K in keyof ProjectState]: ProjectState[K] } = {
    projectRoot,
    callCount: isPositiveInteger(callCount) ? callCount : 0,
    responseChars: count(prop(raw, 'responseChars')),
    calls,
  };
  return freezeProject(withNumbering(project, raw, !inLedger));
}

const OPEN = Number.MAX_SAFE_INTEGER;

/**
 * No bounds: how the selectors read a view the library did not build (one a
 * caller wrote by hand), checked but not cut.
 */
export const OPEN_LIMITS: LedgerLimits = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.fromEntries(
    /* @__PURE__ */ Object.keys(DEFAULT_LIMITS).map((name) => [name, OPEN]),
  ) as unknown as LedgerLimits,
);

/**
 * `raw` as a version-1 view, or `null` when it is not one (absent, another
 * version, `projects` not a list): nobody tracks the call, nothing may be
 * withheld. Keeps at most `maxProjects` projects (the first per key), each
 * with its most recent records within `maxViewCalls` and `maxViewRanges`, of
 * at most `maxFilesPerCall` files and `maxRangesPerFile` spans.
 */
export function readView(raw: unknown, limits: LedgerLimits): SessionView | null {
  if (prop(raw, 'version') !== 1) return null;
  const rawProjects = prop(raw, 'projects');
  if (!isArray(rawProjects)) return null;
  const { list, length } = listOf(rawProjects);
  const projects: ProjectState[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < length && projects.length < limits.maxProjects; i++) {
    const project = sanitizeProject(at(list, i), limits);
    if (project === null) continue;
    const key = projectKey(project.projectRoot);
    if (seen.has(key)) continue;
    seen.add(key);
    projects.push(project);
  }
  return viewOfProjects(projects);
}
