/**
 * Internal: reading a session view that arrived from outside (off the wire
 * into a worker, or written by a caller) into a fresh, frozen one. The view
 * decides what a call may withhold, so nothing in it is trusted: malformed
 * parts are dropped, never repaired into something the server did not send.
 */
import { projectKey } from '../ledger/project-key.js';
import type { LedgerLimits, ProjectState, SessionView } from '../ledger/types.js';
import { own } from './_own.js';
import { at, isArray, listOf, prop } from './_read.js';
import { sanitizeProject } from './ledger.js';

const OPEN = Number.MAX_SAFE_INTEGER;

/**
 * No bounds: how the selectors read a view the library did not build (one a
 * caller wrote by hand), checked but not cut.
 */
export const OPEN_LIMITS: LedgerLimits = /* @__PURE__ */ Object.freeze({
  maxProjects: OPEN,
  maxCallsRetained: OPEN,
  maxFilesPerCall: OPEN,
  maxRangesPerFile: OPEN,
  maxViewCalls: OPEN,
  maxRangesRetained: OPEN,
  maxViewRanges: OPEN,
});

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
  return own(Object.freeze({ version: 1, projects: Object.freeze(projects) }));
}
